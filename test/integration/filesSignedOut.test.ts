// Signed out, connector files say why where they are: a mounted folder lists one entry explaining it,
// open connector tabs close unless they hold unsaved changes, which stay open with their edits and are
// saved after signing in again. Through the real commands, file system and tabs against the emulator.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO, eventually, fileOnServer, fileUri, rejectsWith, run, sha256 } from './fileSupport';
import { resetEmulator, signIn } from './support';

const ENTRY = 'Signed out — run Datagrok Sign In to see these files';

const openTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).flatMap((t) => (t.input instanceof vscode.TabInputText ? [t.input.uri.toString()] : []));

describe('Connector files: signed out', () => {
  before(async () => {
    await resetEmulator();
    await signIn();
  });

  after(async () => {
    await signIn();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a connector folder lists one entry saying why (its text says what to do); files ask to sign in; signed in again, the files are back', async () => {
    const root = fileUri(DEMO);
    const before = await vscode.workspace.fs.readDirectory(root);
    assert.ok(
      before.some(([name]) => name === 'readme.md'),
      'signed in, the files are listed',
    );
    await run('datagrok.signOut', {});
    try {
      // The mounted folder resolves (a folder), so the Explorer shows the entry rather than a "!" root.
      assert.equal((await vscode.workspace.fs.stat(root)).type, vscode.FileType.Directory);
      assert.deepEqual(await vscode.workspace.fs.readDirectory(root), [[ENTRY, vscode.FileType.File]]);
      const entry = vscode.Uri.joinPath(root, ENTRY);
      assert.equal((await vscode.workspace.fs.stat(entry)).type, vscode.FileType.File);
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(entry));
      assert.match(text, /^You are signed out of 127\.0\.0\.1:\d+, so the files of this connector cannot be listed, opened or saved\./);
      assert.match(text, /Run "Datagrok: Sign In"/);
      await rejectsWith(
        vscode.workspace.fs.readFile(fileUri(DEMO, 'readme.md')),
        /Sign in to 127\.0\.0\.1:\d+ to open System\.DemoFiles\/readme\.md|Sign in to 127\.0\.0\.1:\d+ to open/,
      );
      // A folder below the root is not a placeholder: it asks to sign in.
      await rejectsWith(vscode.workspace.fs.readDirectory(fileUri(DEMO, 'geo')), /Sign in to 127\.0\.0\.1:\d+/);
    } finally {
      await signIn();
    }
    const after = await vscode.workspace.fs.readDirectory(root);
    assert.ok(after.some(([name]) => name === 'readme.md') && !after.some(([name]) => name === ENTRY), 'signed in again, the files and no entry');
    await rejectsWith(vscode.workspace.fs.stat(vscode.Uri.joinPath(root, ENTRY)), /not found/i);
  });

  it('signing out closes the connector tabs without unsaved changes; an unsaved one stays with its edits and saves after signing in', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // Files of this test only (a document another suite opened may still be held by VS Code).
    const stamp = Date.now();
    const clean = fileUri(DEMO, `signed-out/clean-${stamp}.txt`);
    const edited = fileUri(DEMO, `signed-out/edited-${stamp}.txt`);
    await vscode.workspace.fs.writeFile(clean, new TextEncoder().encode('clean\n'));
    await vscode.workspace.fs.writeFile(edited, new TextEncoder().encode('a,b\n1,2\n'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(clean), { preview: false });
    const document = await vscode.workspace.openTextDocument(edited);
    const original = document.getText();
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'edited while signed in\n'));
    assert.ok(openTabs().includes(clean.toString()) && openTabs().includes(edited.toString()));

    await run('datagrok.signOut', {});
    await eventually(() => !openTabs().includes(clean.toString()), 'the clean connector tab to close');
    assert.ok(openTabs().includes(edited.toString()), 'the unsaved tab stays open');
    assert.equal(document.isDirty, true);
    assert.equal(document.getText(), `edited while signed in\n${original}`, 'its edits are kept');
    // Saving while signed out fails with the reason and keeps the edits.
    assert.equal(await document.save(), false);
    assert.equal(document.isDirty, true);

    await signIn();
    assert.equal(await document.save(), true);
    assert.equal((await fileOnServer(DEMO, `signed-out/edited-${stamp}.txt`))?.sha256, sha256(`edited while signed in\n${original}`));
  });
});

// Connector files as a file system (datagrok:// URIs) and the file commands, in the real VS Code host
// against the emulator: what the emulator holds afterwards is checked by sha256 (/__emulator/state).
// Large transfers (streamed, cancelled, too large for an editor) are in fileTransfers.test.ts.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { connectorFilesSuite } from './fileSuite';
import { log } from './index';
import { APPDATA, DEMO, dropCachedContents, eventually, fileOnServer, fileUri, rejectsWith, run, sha256 } from './fileSupport';
import { clearEmulatorRequests, control, type EmulatorRequest, emulatorRequests } from './support';

/** Removes a mounted connector from the workspace folders (in this multi-root window no restart follows). */
async function unmount(uri: vscode.Uri): Promise<void> {
  const mounted = () => (vscode.workspace.workspaceFolders ?? []).findIndex((f) => f.uri.toString() === uri.toString());
  const index = mounted();
  if (index < 0) return;
  assert.ok(vscode.workspace.updateWorkspaceFolders(index, 1), `VS Code removes the folder ${uri}`);
  await eventually(() => mounted() < 0, `${uri} to leave the workspace folders`);
}

describe('Connector files: datagrok:// file system and commands', () => {
  const files = connectorFilesSuite();

  it('opens a file with datagrok.files.open (one GET per open), edits and saves it to the server', async () => {
    await clearEmulatorRequests();
    const uri = await run<vscode.Uri>('datagrok.files.open', { connector: DEMO, path: 'readme.md' });
    assert.equal(uri.toString(), fileUri(DEMO, 'readme.md').toString());
    assert.equal(uri.scheme, 'datagrok');
    assert.equal(uri.path, '/System.DemoFiles/readme.md');
    const requests = await emulatorRequests();
    log(`     requests for one open through datagrok.files.open: ${requests.length} (${requests.map((r) => `${r.method} ${r.path}`).join(', ')})`);
    assert.equal(requests.filter((r) => r.method === 'GET' && r.path.includes('/files/System.DemoFiles/readme.md')).length, 1);

    const document = await vscode.workspace.openTextDocument(uri);
    const original = document.getText();
    assert.equal(sha256(original), (await fileOnServer(DEMO, 'readme.md'))!.sha256);
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '# Edited in VS Code\n'));
    assert.equal(document.isDirty, true);
    assert.equal(await document.save(), true);
    assert.equal(document.isDirty, false);
    const stored = await fileOnServer(DEMO, 'readme.md');
    assert.equal(stored!.sha256, sha256(`# Edited in VS Code\n${original}`), 'the emulator holds the saved text');
  });

  it('costs one GET of the file per openTextDocument (the stat shares the download)', async () => {
    await clearEmulatorRequests();
    const document = await vscode.workspace.openTextDocument(fileUri(DEMO, 'cars.csv'));
    const requests = await emulatorRequests();
    log(`     requests for one openTextDocument: ${requests.length} (${requests.map((r) => `${r.method} ${r.path}`).join(', ')})`);
    const gets = requests.filter((r) => r.method === 'GET' && r.path.includes('/public/v1/files/System.DemoFiles/cars.csv'));
    assert.equal(gets.length, 1, 'one download of the file');
    const listing = requests.filter((r) => r.path.includes('/connections/'));
    assert.ok(requests.length - gets.length - listing.length === 0, `nothing else: ${JSON.stringify(requests)}`);
    assert.ok(listing.length <= 2, 'at most one listing (connection + folder)');
    assert.equal(sha256(document.getText()), (await fileOnServer(DEMO, 'cars.csv'))!.sha256);
  });

  it('creates a new file in a mounted folder with workspace.fs.writeFile', async () => {
    // The launcher opens a multi-root workspace: mounting does not restart the extension host.
    assert.ok(vscode.workspace.workspaceFile, 'the test window is a multi-root workspace');
    const mounted = await run<vscode.Uri>('datagrok.files.mount', { connector: DEMO });
    try {
      const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === mounted.toString());
      assert.ok(folder, 'the connector is a workspace folder');
      const uri = vscode.Uri.joinPath(folder.uri, 'made here', 'created.txt');
      assert.equal(vscode.workspace.getWorkspaceFolder(uri)?.uri.toString(), folder.uri.toString(), 'the new file is inside the mounted folder');
      await vscode.workspace.fs.writeFile(uri, Buffer.from('created from VS Code\n'));
      assert.equal((await fileOnServer(DEMO, 'made here/created.txt'))?.sha256, sha256('created from VS Code\n'));
      const listed = await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(folder.uri, 'made here'));
      assert.deepEqual(listed, [['created.txt', vscode.FileType.File]]);
      const stat = await vscode.workspace.fs.stat(uri);
      assert.equal(stat.type, vscode.FileType.File);
      assert.equal(stat.size, Buffer.byteLength('created from VS Code\n'));
    } finally {
      // Unmounted again: the mount test below starts from an unmounted connector.
      await unmount(mounted);
    }
  });

  it('lists folders through the listing route, and without it shows only the files known here', async () => {
    const root = fileUri(DEMO);
    // What this workspace knows of the connector: two files read and one written here (in a new folder).
    await vscode.workspace.fs.readFile(fileUri(DEMO, 'readme.md'));
    await vscode.workspace.fs.readFile(fileUri(DEMO, 'cars.csv'));
    await vscode.workspace.fs.writeFile(fileUri(DEMO, 'written here/new.txt'), Buffer.from('known\n'));
    assert.equal((await vscode.workspace.fs.stat(root)).type, vscode.FileType.Directory, 'the root of a mount is a folder');
    await clearEmulatorRequests();
    const listed = new Map(await vscode.workspace.fs.readDirectory(root));
    for (const name of ['demog.csv', 'cars.csv', 'readme.md']) assert.equal(listed.get(name), vscode.FileType.File, name);
    assert.equal(listed.get('geo'), vscode.FileType.Directory);
    assert.ok(
      (await emulatorRequests()).some((r) => r.path.includes('/connectors/connections/')),
      'the listing route was used',
    );
    const geo = new Map(await vscode.workspace.fs.readDirectory(fileUri(DEMO, 'geo')));
    assert.deepEqual([...geo.keys()].sort(), ['cities.csv', 'countries.csv']);

    await control('POST', 'config', { listing: false });
    assert.equal((await vscode.workspace.fs.stat(root)).type, vscode.FileType.Directory, 'still a folder without listing');
    const known = new Map(await vscode.workspace.fs.readDirectory(root));
    // Read or written above; demog.csv and geo/ were never opened here.
    assert.equal(known.get('readme.md'), vscode.FileType.File);
    assert.equal(known.get('cars.csv'), vscode.FileType.File);
    assert.equal(known.get('written here'), vscode.FileType.Directory);
    assert.ok(!known.has('demog.csv'), 'never an invented entry');
    assert.ok(!known.has('geo'));
    // A file opened without listing joins the known files.
    await vscode.workspace.fs.readFile(fileUri(DEMO, 'geo/cities.csv'));
    assert.deepEqual(await vscode.workspace.fs.readDirectory(fileUri(DEMO, 'geo')), [['cities.csv', vscode.FileType.File]]);
    assert.equal((await vscode.workspace.fs.stat(fileUri(DEMO, 'geo'))).type, vscode.FileType.Directory);
  });

  it('deletes through the server when it can; otherwise refuses clearly and the file stays', async () => {
    await files.api.uploadFile(DEMO, 'doomed.txt', { data: 'bye\n' });
    const uri = fileUri(DEMO, 'doomed.txt');
    await control('POST', 'config', { deleteFiles: false });
    const message = await rejectsWith(vscode.workspace.fs.delete(uri), /not support/i);
    log(`     delete without server support: ${message}`);
    assert.ok(await fileOnServer(DEMO, 'doomed.txt'), 'the file is still there');

    await control('POST', 'config', { deleteFiles: true });
    await vscode.workspace.fs.delete(uri);
    assert.equal(await fileOnServer(DEMO, 'doomed.txt'), undefined);
    await rejectsWith(vscode.workspace.fs.stat(uri), /not found/i);
  });

  it('renames by upload + delete, and refuses before writing anything when the server cannot delete', async () => {
    await files.api.uploadFile(DEMO, 'old name.txt', { data: 'moving\n' });
    const from = fileUri(DEMO, 'old name.txt');
    const to = fileUri(DEMO, 'renamed/new name.txt');
    await control('POST', 'config', { deleteFiles: false });
    await rejectsWith(vscode.workspace.fs.rename(from, to), /not supported by this server/);
    assert.ok(await fileOnServer(DEMO, 'old name.txt'));
    assert.equal(await fileOnServer(DEMO, 'renamed/new name.txt'), undefined, 'nothing was written');

    await control('POST', 'config', { deleteFiles: true });
    await vscode.workspace.fs.rename(from, to);
    assert.equal(await fileOnServer(DEMO, 'old name.txt'), undefined);
    assert.equal((await fileOnServer(DEMO, 'renamed/new name.txt'))?.sha256, sha256('moving\n'));
  });

  it('a save that fails keeps the editor dirty and says why; the next save goes through', async () => {
    const uri = fileUri('demo:Home', 'notes.txt');
    const document = await vscode.workspace.openTextDocument(uri);
    const before = (await fileOnServer('demo:Home', 'notes.txt'))!.sha256;
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'unsaved line\n'));
    await control('POST', 'faults', { count: 1, status: 500, match: 'POST /api/public/v1/files' });
    assert.equal(await document.save(), false, 'the save failed');
    assert.equal(document.isDirty, true, 'the edit is not lost');
    assert.equal((await fileOnServer('demo:Home', 'notes.txt'))!.sha256, before);

    // The message VS Code shows comes from the file system: what failed and why.
    await control('POST', 'faults', { count: 1, status: 500, match: 'POST /api/public/v1/files' });
    const message = await rejectsWith(vscode.workspace.fs.writeFile(uri, Buffer.from(document.getText())), /Uploading demo\.Home\/notes\.txt failed.*500/);
    log(`     failed save: ${message}`);

    assert.equal(await document.save(), true);
    assert.equal((await fileOnServer('demo:Home', 'notes.txt'))!.sha256, sha256(document.getText()));
  });

  it('keeps open editors current after its own writes, with stable mtimes', async () => {
    const uri = fileUri(DEMO, 'geo/countries.csv');
    const document = await vscode.workspace.openTextDocument(uri);
    const first = await vscode.workspace.fs.stat(uri);
    assert.equal((await vscode.workspace.fs.stat(uri)).mtime, first.mtime, 'same content, same mtime');
    const text = `${document.getText()}Atlantis,0\n`;
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text));
    await eventually(() => document.getText() === text, 'the open document to show the new content');
    assert.ok((await vscode.workspace.fs.stat(uri)).mtime > first.mtime, 'a new version has a later mtime');
  });

  it('saves, renames and deletes a file read here without downloading it again (the listing answers the stat)', async () => {
    const name = 'costs/save-me.txt';
    const renamed = 'costs/renamed.txt';
    await files.api.uploadFile(APPDATA, name, { data: 'first\n' });
    const uri = fileUri(APPDATA, name);
    const downloads = (requests: EmulatorRequest[], file: string) => requests.filter((r) => r.method === 'GET' && r.path.includes(`/public/v1/files/System.AppData/${file}`));
    const show = (requests: EmulatorRequest[]) => requests.map((r) => `${r.method} ${r.path} ${r.status}`).join(', ');
    const document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document);
    for (const line of ['edited\n', 'edited again\n']) {
      await dropCachedContents(); // as after 5 s: the download of the open (or the saved bytes) no longer kept
      await clearEmulatorRequests();
      // Edited just before the save: the host's auto-save may take it first (then save() answers false),
      // either way one save; wait for it to land (a "file is newer" conflict would leave it dirty).
      await editor.edit((e) => e.insert(new vscode.Position(0, 0), line));
      await document.save();
      await eventually(async () => !document.isDirty && (await fileOnServer(APPDATA, name))?.sha256 === sha256(document.getText()), 'the save to reach the server');
      const requests = await emulatorRequests();
      log(`     requests for one save of an open file: ${requests.length} (${show(requests)})`);
      assert.deepEqual(downloads(requests, name), [], 'the save did not download the file');
      assert.equal(requests.filter((r) => r.method === 'POST').length, 1, 'one upload');
      assert.ok(
        requests.every((r) => r.method === 'POST' || r.path.includes('/connections/')),
        `only the upload and the listing: ${show(requests)}`,
      );
    }
    assert.equal((await fileOnServer(APPDATA, name))?.sha256, sha256('edited again\nedited\nfirst\n'));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    await dropCachedContents();
    await clearEmulatorRequests();
    await vscode.workspace.fs.rename(uri, fileUri(APPDATA, renamed));
    const renaming = await emulatorRequests();
    log(`     requests for one rename: ${renaming.length} (${show(renaming)})`);
    // VS Code 1.103 also asks for the old name once it is gone (a GET answered 404): no content moves.
    assert.equal(downloads(renaming, name).filter((r) => r.status === 200).length, 1, `one download, the copy: ${show(renaming)}`);
    assert.equal((await fileOnServer(APPDATA, renamed))?.sha256, sha256('edited again\nedited\nfirst\n'));

    await dropCachedContents();
    await clearEmulatorRequests();
    await vscode.workspace.fs.delete(fileUri(APPDATA, renamed));
    const deleting = await emulatorRequests();
    log(`     requests for one delete: ${deleting.length} (${show(deleting)})`);
    // VS Code may check afterwards that the file is gone (a GET answered 404): no content is downloaded.
    assert.deepEqual(
      downloads(deleting, renamed).filter((r) => r.status === 200),
      [],
      `the delete did not download the file: ${show(deleting)}`,
    );
    assert.equal(deleting.filter((r) => r.method === 'DELETE').length, 1);
    assert.equal(await fileOnServer(APPDATA, renamed), undefined);
  });

  it('handles paths with spaces, %, and unicode', async () => {
    const name = 'dir with space/100% ünïcødé ✓.txt';
    const uri = fileUri(APPDATA, name);
    await vscode.workspace.fs.writeFile(uri, Buffer.from('ok ✓\n'));
    assert.equal((await fileOnServer(APPDATA, name))?.sha256, sha256('ok ✓\n'));
    const opened = await run<vscode.Uri>('datagrok.files.open', { connector: 'System.AppData', path: name });
    assert.equal(opened.toString(), uri.toString());
    const document = await vscode.workspace.openTextDocument(opened);
    assert.equal(document.getText(), 'ok ✓\n');
    assert.deepEqual(await vscode.workspace.fs.readDirectory(fileUri(APPDATA, 'dir with space')), [['100% ünïcødé ✓.txt', vscode.FileType.File]]);
    assert.equal(await run('datagrok.files.copyPath', { uri }), `System:AppData/${name}`);
  });

  it('refuses ".." and empty path parts before any request', async () => {
    await clearEmulatorRequests();
    await rejectsWith(run('datagrok.files.open', { connector: DEMO, path: 'geo/../demog.csv' }), /cannot contain "\." or "\.\." parts/);
    await rejectsWith(run('datagrok.files.open', { connector: DEMO, path: 'geo//cities.csv' }), /empty part/);
    await rejectsWith(run('datagrok.files.open', { connector: '', path: 'x' }), /Name the connector/);
    await rejectsWith(run('datagrok.files.download', { connector: DEMO, path: '../x', target: vscode.Uri.file(path.join(files.dir, 'x')) }), /"\.\."/);
    assert.deepEqual(await emulatorRequests(), []);
  });

  it('a URI of a server without a stored key asks to sign in to that server', async () => {
    const uri = vscode.Uri.from({ scheme: 'datagrok', authority: 'other.example:8443', path: '/System.DemoFiles/demog.csv' });
    await rejectsWith(vscode.workspace.fs.stat(uri), /Sign in to other\.example:8443/);
  });

  it('mount: refuses an unknown connector; adds "Datagrok: <connector>" as a workspace folder', async () => {
    await rejectsWith(run('datagrok.files.mount', { connector: 'Nobody:Nothing' }), /no connector Nobody:Nothing/i);
    // The launcher opens a multi-root workspace: adding a folder does not restart the extension host.
    assert.ok(vscode.workspace.workspaceFile, 'the test window is a multi-root workspace');
    const isMounted = () => (vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.toString() === fileUri(DEMO).toString());
    assert.equal(isMounted(), false, 'not mounted before (the create test unmounts what it mounted)');
    const uri = await run<vscode.Uri>('datagrok.files.mount', { connector: DEMO });
    try {
      assert.equal(uri.toString(), fileUri(DEMO).toString());
      const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === uri.toString());
      assert.equal(folder?.name, 'Datagrok: System:DemoFiles');
      assert.equal((await run<vscode.Uri>('datagrok.files.mount', { connector: 'System.DemoFiles' })).toString(), uri.toString(), 'mounted once');
      assert.equal(vscode.workspace.workspaceFolders?.filter((f) => f.uri.toString() === uri.toString()).length, 1);
    } finally {
      await unmount(uri); // the suites after this one see the workspace as the launcher made it
    }
  });
});

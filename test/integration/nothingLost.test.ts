// Connector files under hostile answers and careless colleagues, through the real file system provider
// in the real extension host: nothing lost, nothing falsely reported. Each title names the failure the
// test prevents; each asserts the editor's state and the bytes on the server.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { createClient } from '../../src/api';
import type { DatagrokApi } from '../../src/api/datagrokApi';
import { APPDATA, dropCachedContents, fileOnServer, filesOnServer, fileUri, rejectsWith, sha256 } from './fileSupport';
import { clearEmulatorRequests, control, emulator, emulatorRequests, resetEmulator, signIn } from './support';

describe('Connector files: nothing lost, nothing falsely reported', () => {
  let api: DatagrokApi;

  before(async () => {
    await resetEmulator();
    await signIn();
    api = createClient({ baseUrl: emulator.url, apiKey: emulator.key });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await control('DELETE', 'faults');
    await control('POST', 'config', { caseInsensitivePaths: false, listing: true });
    await api.close();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await control('DELETE', 'faults');
  });

  /** Opens a file as an editor with an unsaved first line. */
  async function editUnsaved(path: string, line: string): Promise<vscode.TextDocument> {
    const document = await vscode.workspace.openTextDocument(fileUri(APPDATA, path));
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), line));
    return document;
  }

  it('rename onto the same server file (connector written differently) is refused: the only copy is not deleted', async () => {
    await api.uploadFile(APPDATA, 'same/only-copy.txt', { data: 'the only copy\n' });
    const from = fileUri(APPDATA, 'same/only-copy.txt');
    const to = from.with({ path: '/system.appdata/same/only-copy.txt' });
    await vscode.workspace.fs.stat(from); // as the Explorer has, listing the folder
    await clearEmulatorRequests();
    // VS Code deletes an existing target before a rename with overwrite: the other spelling must not exist for it.
    await rejectsWith(vscode.workspace.fs.rename(from, to, { overwrite: true }), /names the connector System:AppData written differently/);
    const writes = (await emulatorRequests()).filter((r) => r.method !== 'GET');
    assert.deepEqual(writes, [], 'no upload, no delete');
    assert.equal((await fileOnServer(APPDATA, 'same/only-copy.txt'))?.sha256, sha256('the only copy\n'));
  });

  for (const caseInsensitivePaths of [true, false]) {
    const store = caseInsensitivePaths ? 'a case-insensitive store (SMB, cloud shares)' : 'a case-sensitive store';
    it(`a case-only rename (report.csv -> Report.csv) on ${store} keeps the content under the new name`, async () => {
      await control('POST', 'config', { caseInsensitivePaths });
      const content = 'a,b\n1,2\n';
      await api.uploadFile(APPDATA, `cases${caseInsensitivePaths ? 'i' : 's'}/report.csv`, { data: content });
      const dir = `cases${caseInsensitivePaths ? 'i' : 's'}`;
      await vscode.workspace.fs.readDirectory(fileUri(APPDATA, dir)); // as the Explorer has
      await vscode.workspace.fs.rename(fileUri(APPDATA, `${dir}/report.csv`), fileUri(APPDATA, `${dir}/Report.csv`), { overwrite: false });
      const inDir = (await filesOnServer()).filter((f) => f.connector === APPDATA && f.path.startsWith(`${dir}/`));
      assert.deepEqual(
        inDir.map((f) => [f.path, f.sha256]),
        [[`${dir}/Report.csv`, sha256(content)]],
        'one file, the new name, the same bytes; no temporary copy left',
      );
      await control('POST', 'config', { caseInsensitivePaths: false });
    });
  }

  it('a save answered 200 with a web page (a sign-in gateway) stays dirty, and the server content is what reads show', async () => {
    await api.uploadFile(APPDATA, 'gateway/notes.txt', { data: 'server text\n' });
    const document = await editUnsaved('gateway/notes.txt', 'my edit\n');
    await control('POST', 'faults', { count: 1, status: 200, html: true, match: 'POST /api/public/v1/files' });
    assert.equal(await document.save(), false, 'the save is not reported as done');
    assert.equal(document.isDirty, true, 'the edit is kept');
    assert.equal((await fileOnServer(APPDATA, 'gateway/notes.txt'))?.sha256, sha256('server text\n'));
    const read = new TextDecoder().decode(await vscode.workspace.fs.readFile(document.uri));
    assert.equal(read, 'server text\n', 'the unsaved text was never cached as the server’s');
  });

  it('a save answered 200 with error text ("Internal error: disk full") stays dirty and says so', async () => {
    await api.uploadFile(APPDATA, 'disk/full.txt', { data: 'before\n' });
    const document = await editUnsaved('disk/full.txt', 'after\n');
    await control('POST', 'faults', { count: 2, text: 'Internal error: disk full', match: 'POST /api/public/v1/files' });
    assert.equal(await document.save(), false);
    assert.equal(document.isDirty, true);
    await rejectsWith(vscode.workspace.fs.writeFile(document.uri, Buffer.from(document.getText())), /answered "Internal error: disk full" instead of confirming/);
    assert.equal((await fileOnServer(APPDATA, 'disk/full.txt'))?.sha256, sha256('before\n'));
    assert.equal(await document.save(), true, 'once the server is well, the save goes through');
    assert.equal((await fileOnServer(APPDATA, 'disk/full.txt'))?.sha256, sha256(document.getText()));
  });

  for (const listing of [true, false]) {
    it(`a colleague's same-size save after we read is a conflict, not overwritten (${listing ? 'listing' : 'no listing'} route)`, async () => {
      await control('POST', 'config', { listing });
      const path = `colleague/${listing ? 'listed' : 'unlisted'}.txt`;
      await api.uploadFile(APPDATA, path, { data: 'version 1\n' });
      const document = await editUnsaved(path, 'mine: ');
      // A second later (Date headers have whole seconds), a colleague saves the same number of bytes.
      await new Promise((r) => setTimeout(r, 1100));
      await api.uploadFile(APPDATA, path, { data: 'version 2\n' });
      await dropCachedContents(); // as after 5 s
      assert.equal(await document.save(), false, 'VS Code reports the file is newer instead of saving over it');
      assert.equal(document.isDirty, true, 'our edit is kept');
      assert.equal((await fileOnServer(APPDATA, path))?.sha256, sha256('version 2\n'), 'the colleague’s save is kept');
      await control('POST', 'config', { listing: true });
    });
  }

  it('our own saves are not taken for a colleague’s: two saves in a row go through', async () => {
    await api.uploadFile(APPDATA, 'own/twice.txt', { data: 'start\n' });
    const document = await editUnsaved('own/twice.txt', 'one\n');
    assert.equal(await document.save(), true);
    await new Promise((r) => setTimeout(r, 1100));
    await dropCachedContents();
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'two\n'));
    assert.equal(await document.save(), true);
    assert.equal((await fileOnServer(APPDATA, 'own/twice.txt'))?.sha256, sha256('two\none\nstart\n'));
  });
});

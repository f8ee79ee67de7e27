// The Files view against the emulator: the file shares as roots, folders and files listed as the
// emulator stores them, new file / new folder / delete through the commands, upload by a drop on the
// view's drag-and-drop controller, and a failed load shown in place with Retry.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DatagrokExtensionApi } from '../../src/extension';
import type { ExplorerNode } from '../../src/ui/explorerTree';
import { DEMO, eventually, fileOnServer, filesOnServer, fileUri, run, sha256 } from './fileSupport';
import { control, resetEmulator, signIn } from './support';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';
const SHARES = ['demo:Home', 'Samples:Chemistry', 'Samples:Sales', 'Shared:Reports', 'System:AppData', 'System:DemoFiles'];

describe('Files view', () => {
  let api: DatagrokExtensionApi;
  let dir: string;

  const tree = () => api.filesTree.tree;
  const item = (node: ExplorerNode) => tree().getTreeItem(node) as vscode.TreeItem;
  const label = (node: ExplorerNode) => String(item(node).label);
  const children = (node?: ExplorerNode) => tree().getChildren(node);
  const labels = async (node?: ExplorerNode) => (await children(node)).map(label);
  async function child(parent: ExplorerNode | undefined, name: string): Promise<ExplorerNode> {
    const nodes = await children(parent);
    const found = nodes.find((n) => label(n) === name);
    assert.ok(found, `"${name}" not found among ${nodes.map(label).join(', ')}`);
    return found;
  }

  before(async () => {
    await resetEmulator();
    await signIn();
    api = (await vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.activate()) as DatagrokExtensionApi;
    await run('datagrok.files.refresh');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-files-view-'));
  });

  after(async () => {
    await control('DELETE', 'faults');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir, { recursive: true, force: true });
    await resetEmulator();
  });

  it('shows the file-share connections as roots', async () => {
    const roots = await children();
    assert.deepEqual(roots.map(label), SHARES);
    const demo = item(roots[SHARES.indexOf(DEMO)]!);
    assert.equal(demo.contextValue, 'datagrok.fileShare');
    assert.equal(demo.resourceUri?.toString(), fileUri(DEMO).toString());
    assert.equal(demo.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
  });

  it("lists a connection's folders and files as the emulator stores them, folders first", async () => {
    const onServer = (await filesOnServer()).filter((f) => f.connector === DEMO).map((f) => f.path);
    const top = [...new Set(onServer.map((p) => p.split('/')[0]!))];
    const demo = await child(undefined, DEMO);
    const listed = await children(demo);
    assert.deepEqual(new Set(listed.map(label)), new Set(top));
    assert.equal(label(listed[0]!), 'geo', 'folders come first');
    const geo = await child(demo, 'geo');
    assert.equal(item(geo).contextValue, 'datagrok.folder');
    const inGeo = await children(geo);
    assert.deepEqual(
      inGeo.map(label),
      onServer
        .filter((p) => p.startsWith('geo/'))
        .map((p) => p.slice(4))
        .sort(),
    );
    const cities = item(inGeo.find((n) => label(n) === 'cities.csv')!);
    assert.equal(cities.contextValue, 'datagrok.file');
    assert.equal(cities.resourceUri?.toString(), fileUri(DEMO, 'geo/cities.csv').toString());
    assert.equal(cities.command?.command, 'vscode.open');
    assert.equal(String(cities.command?.arguments?.[0]), fileUri(DEMO, 'geo/cities.csv').toString());
  });

  it('New Folder and New File create on the server, and the folder lists the new file', async () => {
    const folder = await run<vscode.Uri>('datagrok.files.newFolder', { connector: DEMO, path: 'made' });
    assert.equal(folder.toString(), fileUri(DEMO, 'made').toString());
    const demo = await child(undefined, DEMO);
    const made = await child(demo, 'made');
    assert.deepEqual(await labels(made), []);
    const changed = new Promise<void>((resolve) => {
      const subscription = tree().onDidChangeTreeData!(() => {
        subscription.dispose();
        resolve();
      });
    });
    const file = await run<vscode.Uri>('datagrok.files.newFile', { connector: DEMO, path: 'made/new.txt' });
    assert.equal(file.toString(), fileUri(DEMO, 'made/new.txt').toString());
    await changed; // the view reloads after a write through the file system
    const onServer = await fileOnServer(DEMO, 'made/new.txt');
    assert.equal(onServer?.bytes, 0);
    assert.deepEqual(await labels(made), ['new.txt']);
    await assert.rejects(Promise.resolve(run('datagrok.files.newFile', { connector: DEMO, path: 'made/new.txt' })), /already exists/);
  });

  it('Delete with options removes the file from the server without asking', async () => {
    assert.ok(await fileOnServer(DEMO, 'made/new.txt'));
    await run('datagrok.files.delete', { connector: DEMO, path: 'made/new.txt' });
    assert.equal(await fileOnServer(DEMO, 'made/new.txt'), undefined);
    await run('datagrok.files.newFile', { connector: DEMO, path: 'gone.txt' });
    await run('datagrok.files.delete', fileUri(DEMO, 'gone.txt'));
    assert.equal(await fileOnServer(DEMO, 'gone.txt'), undefined);
    const demo = await child(undefined, DEMO);
    assert.ok(!(await labels(demo)).includes('gone.txt'));
  });

  it('a drop of local files on a folder uploads them there, byte for byte', async () => {
    const a = path.join(dir, 'dropped.csv');
    const b = path.join(dir, 'second file.bin');
    const aBytes = 'x,y\n1,2\n3,4\n';
    const bBytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
    fs.writeFileSync(a, aBytes);
    fs.writeFileSync(b, bBytes);
    const geo = await child(await child(undefined, DEMO), 'geo');
    const transfer = new vscode.DataTransfer();
    const list = `# from the Explorer\r\n${vscode.Uri.file(a).toString()}\r\n${vscode.Uri.file(b).toString()}\r\n`;
    transfer.set('text/uri-list', new vscode.DataTransferItem(list));
    assert.ok(api.filesDragAndDrop.dropMimeTypes.includes('text/uri-list'));
    await api.filesDragAndDrop.handleDrop!(geo, transfer, new vscode.CancellationTokenSource().token);
    assert.equal((await fileOnServer(DEMO, 'geo/dropped.csv'))?.sha256, sha256(aBytes));
    assert.equal((await fileOnServer(DEMO, 'geo/second file.bin'))?.sha256, sha256(bBytes));
    await eventually(async () => (await labels(geo)).includes('second file.bin'), 'the folder to list the uploaded files');

    // Dropped on a file: into that file's folder; dragged out: the datagrok: URI as text/uri-list.
    const cities = await child(geo, 'cities.csv');
    const onFile = new vscode.DataTransfer();
    onFile.set('text/uri-list', new vscode.DataTransferItem(vscode.Uri.file(a).toString()));
    await api.filesDragAndDrop.upload(cities, onFile);
    const out = new vscode.DataTransfer();
    api.filesDragAndDrop.handleDrag([cities], out);
    assert.equal(await out.get('text/uri-list')?.asString(), fileUri(DEMO, 'geo/cities.csv').toString());
  });

  it('shows a failed load in place, and Retry loads it', async () => {
    // The first GET and its 3 retries fail.
    await control('POST', 'faults', { match: 'GET /api/public/v1/connections', status: 503, count: 4 });
    await run('datagrok.files.refresh');
    const failed = await children();
    assert.equal(failed.length, 1);
    const error = item(failed[0]!);
    assert.equal(error.contextValue, 'datagrok.error');
    assert.equal(error.command?.command, 'datagrok.files.refresh');
    await vscode.commands.executeCommand(error.command!.command, ...(error.command!.arguments ?? []));
    assert.deepEqual(await labels(), SHARES);
  });

  it('is empty while signed out', async () => {
    await run('datagrok.signOut', {});
    try {
      assert.deepEqual(await children(), []);
    } finally {
      await signIn();
    }
    assert.deepEqual(await labels(), SHARES);
  });
});

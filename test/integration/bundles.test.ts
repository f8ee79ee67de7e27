// Bundles in the real VS Code: pull through the command, the Datagrok Source Control view's entries and their
// states, a diff editor of a query's code, a push with its plan, a conflict refused, and a push that fails
// half-way (the emulator refuses one save) reported exactly, then finished by running it again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DatagrokExtensionApi } from '../../src/extension';
import { log } from './index';
import { control, emulator, resetEmulator, signIn } from './support';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';
const QUERY_FILE = 'DataQuery/Samples.TopCustomers.json';
const CONNECTION_FILE = 'DataConnection/Samples.Northwind.json';

interface Plan {
  items: Array<{ name: string; entityType: string; action: string; reason: string; detail: string }>;
  counts: Record<string, number>;
  status: string;
  remoteUrl: string;
}

function run<T = unknown>(command: string, arg?: unknown): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, arg));
}

const row = (plan: Plan, name: string) => plan.items.find((i) => i.name === name && i.entityType !== 'Entity');

async function serverQuery(): Promise<{ query: string }> {
  const res = await fetch(`${emulator.url}/connectors/queries/f0000000-0000-4000-8000-000000000103`, { headers: { Authorization: `Bearer ${emulator.key}` } });
  return (await res.json()) as { query: string };
}

describe('Bundles: pull, Source Control view, diff, push', function () {
  this.timeout(180_000);
  let dir: string;
  let folder: vscode.Uri;
  const edit = (file: string, change: (json: Record<string, unknown>) => void) => {
    const full = path.join(dir, file);
    const json = JSON.parse(fs.readFileSync(full, 'utf8'));
    change(json);
    fs.writeFileSync(full, JSON.stringify(json, null, 2));
  };
  const scm = () => vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.exports.bundles.scmResources();

  before(async () => {
    await resetEmulator();
    await signIn();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-bundle-'));
    folder = vscode.Uri.file(dir);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("pulls a query with its connection and a dashboard with its tables and layout, in grok's layout", async () => {
    const manifest = await run<{ formatVersion: number; order: Array<{ file: string }>; source: { url: string } }>('datagrok.bundle.pull', {
      folder,
      selection: ['Samples:TopCustomers', 'World overview'],
    });
    assert.equal(manifest.formatVersion, 1);
    assert.equal(manifest.source.url, emulator.url);
    assert.deepEqual(
      manifest.order.map((e) => e.file).sort(),
      [
        CONNECTION_FILE,
        QUERY_FILE,
        'Project/World overview.json',
        'TableInfo/Geo.world_cities.json',
        'TableInfo/Geo.world_countries.json',
        'ViewLayout/World overview layout.json',
      ].sort(),
    );
    assert.ok(fs.existsSync(path.join(dir, 'tables', 'b0000000-0000-4000-8000-000000000003.d42')), 'the table data travels');
    assert.doesNotMatch(fs.readFileSync(path.join(dir, CONNECTION_FILE), 'utf8'), /_{13}/, 'no masked secret on disk');
  });

  it('refuses a folder that is not a bundle, and a newer format, before any request', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-notbundle-'));
    await assert.rejects(run('datagrok.bundle.diff', { folder: vscode.Uri.file(empty) }), /not a bundle folder/);
    fs.writeFileSync(path.join(empty, 'manifest.json'), JSON.stringify({ formatVersion: 9, order: [] }));
    await control('DELETE', 'requests');
    await assert.rejects(run('datagrok.bundle.push', { folder: vscode.Uri.file(empty) }), /formatVersion 9/);
    const asked = (await control<Array<{ path: string }>>('GET', 'requests')).filter((r) =>
      /\/(entities|info|users\/current|connectors|projects|tables|layouts|scripts)/.test(r.path),
    );
    assert.deepEqual(asked, [], 'nothing was asked of the server');
    fs.rmSync(empty, { recursive: true, force: true });
  });

  it('the Source Control view lists each entity with its state; an entry opens a diff editor of its code', async () => {
    edit(QUERY_FILE, (q) => {
      q.query = String(q.query).replace('limit @limit', 'limit @limit -- reviewed');
    });
    // Another entity of that name is on the server: a conflict.
    fs.mkdirSync(path.join(dir, 'Script'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'Script/Scripts.Greet.json'),
      JSON.stringify(
        { '#type': 'Script', id: '5c000000-0000-4000-8000-000000000001', language: 'javascript', name: 'Greet', namespace: 'Scripts:', script: '//name: Greet\n' },
        null,
        2,
      ),
    );
    const manifestFile = path.join(dir, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
    manifest.order.push({ type: 'Script', id: '5c000000-0000-4000-8000-000000000001', file: 'Script/Scripts.Greet.json' });
    fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));

    const plan = await run<Plan>('datagrok.bundle.diff', { folder });
    log('bundles: diff done');
    assert.equal(plan.status, 'dry-run');
    assert.deepEqual([row(plan, 'Samples:TopCustomers')?.action, row(plan, 'Samples:TopCustomers')?.detail], ['update', 'query']);
    const groups = Object.fromEntries(scm().map((g) => [g.group, g.resources.map((r) => `${r.file}${r.detail ? ` (${r.detail})` : ''}`)]));
    assert.deepEqual(groups['Changed'], [`${QUERY_FILE} (query)`]);
    assert.deepEqual(groups['Conflicts'], ['Script/Scripts.Greet.json (name taken by f1000000-0000-4000-8000-000000000025)']);
    assert.ok(groups['Identical']?.includes(CONNECTION_FILE), JSON.stringify(groups));

    await run('datagrok.bundle.openDiff', { uri: vscode.Uri.file(path.join(dir, QUERY_FILE)) });
    log('bundles: diff editor opened');
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, `a diff editor is open: ${tab?.label}`);
    const { original, modified } = tab.input;
    assert.equal(original.scheme, 'datagrok-bundle');
    assert.match(original.path, /Samples\.TopCustomers\.sql$/, 'the query is diffed as SQL');
    const [left, right] = await Promise.all([vscode.workspace.openTextDocument(original), vscode.workspace.openTextDocument(modified)]);
    assert.equal(left.languageId, 'sql');
    assert.doesNotMatch(left.getText(), /reviewed/);
    assert.match(right.getText(), /limit @limit -- reviewed\n/, 'code, not an escaped JSON string');
    log('bundles: documents read');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('a push shows its plan first; a conflict is refused under onConflict "fail" and nothing is written', async () => {
    const dry = await run<Plan>('datagrok.bundle.push', { folder, dryRun: true, onConflict: 'skip' });
    assert.equal(dry.status, 'dry-run');
    assert.equal(row(dry, 'Samples:TopCustomers')?.action, 'update');
    assert.equal(row(dry, 'Scripts:Greet')?.action, 'skip');
    assert.doesNotMatch((await serverQuery()).query, /reviewed/, 'a dry run writes nothing');
    await assert.rejects(run('datagrok.bundle.push', { folder }), /Name conflicts on the target server; nothing was written[\s\S]*Script Scripts:Greet/);
    assert.doesNotMatch((await serverQuery()).query, /reviewed/);
    await assert.rejects(run('datagrok.bundle.push', { folder, onConflict: 'merge' }), /onConflict.*fail, skip, adopt, duplicate/);
  });

  it('a push that fails half-way says exactly what was saved and what was not; running it again finishes it', async () => {
    edit(CONNECTION_FILE, (c) => {
      c.description = 'The Northwind demo database (reviewed)';
    });
    await control('POST', 'faults', { match: 'POST /api/connectors/queries', apiError: 'Deadlock detected (injected)', status: 500, count: 1 });
    const first = await run<Plan>('datagrok.bundle.push', { folder, onConflict: 'skip' });
    assert.equal(first.status, 'failed');
    assert.equal(row(first, 'Samples:Northwind')?.action, 'update', 'the connection was saved');
    assert.equal(row(first, 'Samples:TopCustomers')?.action, 'failed');
    assert.match(row(first, 'Samples:TopCustomers')?.reason ?? '', /Deadlock detected \(injected\)/);
    assert.doesNotMatch((await serverQuery()).query, /reviewed/);

    const again = await run<Plan>('datagrok.bundle.push', { folder, onConflict: 'skip' });
    assert.equal(again.status, 'ok', JSON.stringify(again.items));
    assert.equal(row(again, 'Samples:Northwind')?.action, 'identical', 'what was saved stays saved');
    assert.equal(row(again, 'Samples:TopCustomers')?.action, 'update');
    assert.match((await serverQuery()).query, /reviewed/);
    const groups = Object.fromEntries(scm().map((g) => [g.group, g.resources.map((r) => r.file)]));
    assert.equal(groups['Changed'], undefined, 'the view was checked again after the push: nothing left to push');
  });

  it('the Explorer offers Diff and Push on a bundle folder itself: the folder is in datagrok.bundleFolders while it holds a grok manifest', async () => {
    const api = () => vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.exports.bundles;
    const until = async (what: string, ok: () => boolean) => {
      for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 150));
      assert.ok(ok(), `${what}: ${JSON.stringify(api().folders())}`);
    };
    // The menu entries name the context key the extension sets.
    const menus = (vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { menus: Record<string, Array<{ command: string; when?: string }>> } }).contributes
      .menus['explorer/context'];
    for (const command of ['datagrok.bundle.diff', 'datagrok.bundle.push']) {
      assert.ok(
        menus.some((m) => m.command === command && m.when === 'explorerResourceIsFolder && resourcePath in datagrok.bundleFolders'),
        `${command} on a bundle folder`,
      );
    }
    const root = vscode.workspace.workspaceFolders![0].uri;
    const bundle = vscode.Uri.joinPath(root, 'bundles-menu', 'dev');
    const other = vscode.Uri.joinPath(root, 'bundles-menu', 'web-extension');
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(other, 'manifest.json'), new TextEncoder().encode('{"manifest_version": 3, "name": "not a bundle"}'));
    await run('datagrok.bundle.pull', { folder: bundle, selection: ['Samples:TopCustomers'] });
    await until('the pulled folder is a bundle folder', () => api().folders().includes(bundle.fsPath));
    assert.ok(!api().folders().includes(other.fsPath), 'another manifest.json is not a bundle');
    // What the menu passes: the folder's Uri.
    const plan = await run<Plan>('datagrok.bundle.diff', bundle);
    assert.equal(row(plan, 'Samples:TopCustomers')?.action, 'identical');
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(bundle, 'manifest.json'));
    await until('a folder without its manifest is no bundle folder', () => !api().folders().includes(bundle.fsPath));
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(root, 'bundles-menu'), { recursive: true });
  });
});

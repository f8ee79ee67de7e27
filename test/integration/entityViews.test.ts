// The Tables and Dashboards views against the emulator, read through the extension's API: the server's
// lists, the remembered ones (with a note) where the server has no list route, errors in place with
// Retry, and New Dashboard from tables picked in the view.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CreationResult } from '../../src/api/types';
import type { DatagrokExtensionApi } from '../../src/extension';
import type { ExplorerNode, ExplorerTree } from '../../src/ui/explorerTree';
import { control, emulator, resetEmulator, signIn } from './support';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';

interface StateDashboard {
  ID: string;
  name: string;
  tableIds: string[];
}

function run<T = unknown>(command: string, arg?: unknown): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, arg));
}

const labelOf = (tree: ExplorerTree, node: ExplorerNode) => String(tree.getTreeItem(node).label);

async function top(tree: ExplorerTree): Promise<{ nodes: ExplorerNode[]; labels: string[] }> {
  const nodes = await tree.getChildren();
  return { nodes, labels: nodes.map((n) => labelOf(tree, n)) };
}

/** The server key the remembered entities are stored under (the normalised base URL). */
const server = () => emulator.url.replace(/\/+$/, '');

describe('Tables and Dashboards views', function () {
  this.timeout(60_000);
  let api: DatagrokExtensionApi;
  let dir: string;
  let pushed: CreationResult;

  before(async () => {
    await resetEmulator();
    await signIn();
    api = (await vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.activate()) as DatagrokExtensionApi;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-entity-views-'));
    const csv = path.join(dir, 'fresh.csv');
    fs.writeFileSync(csv, 'x,y\n1,2\n');
    pushed = await run<CreationResult>('datagrok.tables.push', { uri: csv, name: 'Entity.fresh' });
  });

  afterEach(async () => {
    await control('DELETE', 'faults');
  });

  after(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await resetEmulator();
  });

  it("lists the server's tables and dashboards, with descriptions, tooltips and actions", async () => {
    await run('datagrok.tables.refresh');
    const tables = await top(api.tablesTree);
    for (const name of ['demog', 'car_models', 'world_cities', 'molecules', 'revenue_2024q1', 'fresh'])
      assert.ok(tables.labels.includes(name), `${name} in ${tables.labels.join(', ')}`);
    const demog = tables.nodes[tables.labels.indexOf('demog')]!;
    const item = api.tablesTree.getTreeItem(demog);
    assert.match(String(item.description), /^Demo/);
    // Open in Browser only where the page is known: a table pushed from here (the data view's suite may have pushed demog).
    const pushedHere = api.remembered('tables', server()).some((r) => r.ID === 'b0000000-0000-4000-8000-000000000001' && /^https?:/.test(r.URL ?? ''));
    assert.equal(item.contextValue, pushedHere ? 'datagrok.table.browsable' : 'datagrok.table');
    assert.match((item.tooltip as vscode.MarkdownString).value, /Project: Demo/);
    assert.equal((demog as unknown as { entityId: string }).entityId, 'b0000000-0000-4000-8000-000000000001');
    // Pushed here: the server gave its web address, so Open in Browser is offered.
    const fresh = api.tablesTree.getTreeItem(tables.nodes[tables.labels.indexOf('fresh')]!);
    assert.equal(fresh.contextValue, /^https?:/.test(pushed.URL) ? 'datagrok.table.browsable' : 'datagrok.table');

    await run('datagrok.dashboards.refresh');
    const dashboards = await top(api.dashboardsTree);
    assert.deepEqual([...dashboards.labels].sort(), ['Revenue review', 'World overview']);
    const world = dashboards.nodes[dashboards.labels.indexOf('World overview')]!;
    assert.equal(api.dashboardsTree.getTreeItem(world).description, '2 tables');
    const inside = await api.dashboardsTree.getChildren(world);
    assert.deepEqual(inside.map((n) => labelOf(api.dashboardsTree, n)).sort(), ['world_cities', 'world_countries']);
  });

  it('opens a table item in the data view and copies its ID (the item is the argument)', async () => {
    const { nodes, labels } = await top(api.tablesTree);
    const demog = nodes[labels.indexOf('demog')]!;
    const uri = await run<vscode.Uri>('datagrok.tables.open', demog);
    assert.ok(uri, 'a document was opened');
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(tab instanceof vscode.TabInputCustom && tab.viewType === 'datagrok.dataView' && tab.uri.toString() === uri.toString(), 'the table is shown in the data view');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    assert.equal(await run('datagrok.copyId', demog), 'b0000000-0000-4000-8000-000000000001');
  });

  it('shows the ones remembered on this machine, with a note, where the server does not list them', async () => {
    const made = await run<CreationResult>('datagrok.dashboards.create', { name: 'Remembered board', tables: [pushed.ID] });
    await control('POST', 'faults', { match: 'GET /api/tables', status: 404, text: 'Not Found', count: 4 });
    await run('datagrok.tables.refresh');
    const tables = await top(api.tablesTree);
    assert.match(tables.labels[0]!, /does not list its tables: showing the ones pushed from this machine/);
    // Remembered under the name the server answered, owner first.
    assert.ok(tables.labels.includes(pushed.name) && pushed.name === 'demo:Entity:fresh', tables.labels.join(', '));
    assert.ok(!tables.labels.includes('demog'));

    await control('POST', 'faults', { match: 'GET /api/projects', status: 404, text: 'Not Found', count: 4 });
    await run('datagrok.dashboards.refresh');
    const dashboards = await top(api.dashboardsTree);
    assert.match(dashboards.labels[0]!, /does not list its dashboards: showing the ones created from this machine/);
    assert.ok(dashboards.labels.includes(made.name), dashboards.labels.join(', '));
  });

  it('shows a failed load in place with Retry, which loads again', async () => {
    await control('POST', 'faults', { match: 'GET /api/tables', status: 503, count: 4 });
    await run('datagrok.tables.refresh');
    const failed = await top(api.tablesTree);
    assert.equal(failed.nodes.length, 1);
    const item = api.tablesTree.getTreeItem(failed.nodes[0]!);
    assert.equal(item.contextValue, 'datagrok.error');
    assert.equal(item.command?.command, 'datagrok.tables.refresh');
    await run(item.command!.command, ...(item.command!.arguments ?? []));
    const again = await top(api.tablesTree);
    assert.ok(again.labels.includes('demog'), again.labels.join(', '));
  });

  it('lists a table pushed since, after Refresh', async () => {
    const csv = path.join(dir, 'later.csv');
    fs.writeFileSync(csv, 'a\n1\n');
    await run('datagrok.tables.push', { uri: csv, name: 'Entity.later' });
    await run('datagrok.tables.refresh');
    assert.ok((await top(api.tablesTree)).labels.includes('later'));
  });

  it('remembers pushed tables and created dashboards per server in the global state', async () => {
    const tables = api.remembered('tables', server());
    assert.ok(
      tables.some((t) => t.ID === pushed.ID),
      'the pushed table is remembered',
    );
    assert.ok(
      api.remembered('dashboards', server()).some((d) => d.name === 'Remembered board'),
      'the created dashboard is remembered',
    );
    assert.deepEqual(api.remembered('tables', 'https://elsewhere.example/api'), []);
  });

  it('creates a dashboard from two tables picked in the view (New Dashboard, with options)', async () => {
    await run('datagrok.tables.refresh');
    const { nodes, labels } = await top(api.tablesTree);
    const ids = ['demog', 'car_models'].map((name) => (nodes[labels.indexOf(name)] as unknown as { entityId: string }).entityId);
    const result = await run<CreationResult>('datagrok.tables.newDashboard', { tables: ids, name: 'Cars and people' });
    assert.equal(result.name, 'Cars and people');
    const state = await control<{ dashboards: StateDashboard[] }>('GET', 'state');
    const created = state.dashboards.find((d) => d.ID === result.ID);
    assert.ok(created, 'the dashboard is on the server');
    assert.deepEqual([...created.tableIds].sort(), [...ids].sort());
    await run('datagrok.dashboards.refresh');
    assert.ok((await top(api.dashboardsTree)).labels.includes('Cars and people'));
    await assert.rejects(run('datagrok.tables.newDashboard', { tables: [] }), /"tables"/);
  });
});

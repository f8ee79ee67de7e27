// Creating dashboards from pushed tables with a layout file, and sharing them, through the real
// commands against the emulator (which records dashboards, layouts and shares).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CreationResult } from '../../src/api/types';
import { clearEmulatorRequests, control, emulatorRequests, resetEmulator, signIn } from './support';

interface StateDashboard {
  ID: string;
  name: string;
  tableIds: string[];
  layout: unknown;
  shares: Array<{ group: string; access: string }>;
}

const DEVELOPERS = 'ba9cd191-9a50-11e6-9cc9-910bf827f0ab';
const ALICE = 'd0000000-0000-4000-8000-000000000002';

const dashboardsOnServer = async () => (await control<{ dashboards: StateDashboard[] }>('GET', 'state')).dashboards;

function run<T = unknown>(command: string, arg?: unknown): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, arg));
}

describe('Dashboards: create and share', () => {
  let dir: string;
  let sales: CreationResult;

  before(async () => {
    await resetEmulator();
    await signIn();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-dashboards-'));
    const csv = path.join(dir, 'sales.csv');
    fs.writeFileSync(csv, 'region,revenue\nnorth,10\nsouth,20\n');
    sales = await run<CreationResult>('datagrok.tables.push', { uri: csv, name: 'Sales.sales' });
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates a dashboard from tables with a layout file, then shares it with two groups', async () => {
    const layoutFile = path.join(dir, 'layout.json');
    fs.writeFileSync(layoutFile, '{\n  // two viewers side by side\n  "viewers": [{"type": "Grid"}, {"type": "Scatter plot", "x": "AGE"}],\n}\n');
    const result = await run<CreationResult>('datagrok.dashboards.create', {
      name: 'Sales overview',
      tables: [sales.ID, 'Demo:demog'],
      layout: vscode.Uri.file(layoutFile),
    });
    assert.equal(result.name, 'Sales overview');
    assert.ok(result.URL.startsWith('http'));
    const created = (await dashboardsOnServer()).find((d) => d.ID === result.ID);
    assert.ok(created, 'the dashboard is on the server');
    assert.equal(created.tableIds.length, 2);
    assert.ok(created.tableIds.includes(sales.ID));
    assert.deepEqual(created.layout, { viewers: [{ type: 'Grid' }, { type: 'Scatter plot', x: 'AGE' }] });

    const shared = await run('datagrok.dashboards.share', { id: result.ID, groups: ['Developers', 'alice'], access: 'Edit' });
    assert.equal(shared, undefined);
    const after = (await dashboardsOnServer()).find((d) => d.ID === result.ID)!;
    assert.deepEqual(
      after.shares.map((s) => [s.group, s.access]).sort(),
      [
        [ALICE, 'Edit'],
        [DEVELOPERS, 'Edit'],
      ].sort(),
    );

    // Access defaults to View.
    await run('datagrok.dashboards.share', { id: result.ID, groups: ['Chemists'] });
    const viewed = (await dashboardsOnServer()).find((d) => d.ID === result.ID)!;
    assert.equal(viewed.shares.find((s) => s.group !== ALICE && s.group !== DEVELOPERS)?.access, 'View');
  });

  it('refuses a broken layout file and creates nothing', async () => {
    const broken = path.join(dir, 'broken.json');
    fs.writeFileSync(broken, '{\n  "viewers": [\n}\n');
    const array = path.join(dir, 'array.json');
    fs.writeFileSync(array, '[1, 2]');
    const before = (await dashboardsOnServer()).length;
    await clearEmulatorRequests();
    await assert.rejects(run('datagrok.dashboards.create', { name: 'Broken', tables: [sales.ID], layout: broken }), /"broken\.json" is not valid JSON: .* at line 3, column 1/);
    await assert.rejects(run('datagrok.dashboards.create', { name: 'Broken', tables: [sales.ID], layout: array }), /must contain a JSON object/);
    await assert.rejects(run('datagrok.dashboards.create', { name: 'Broken', tables: [sales.ID], layout: path.join(dir, 'missing.json') }), /cannot be read/);
    assert.deepEqual(await emulatorRequests(), [], 'nothing was sent');
    assert.equal((await dashboardsOnServer()).length, before);
  });

  it('validates options before calling the server', async () => {
    await clearEmulatorRequests();
    await assert.rejects(run('datagrok.dashboards.create', { name: '', tables: [sales.ID] }), /"name"/);
    await assert.rejects(run('datagrok.dashboards.create', { name: 'X', tables: [] }), /"tables"/);
    await assert.rejects(run('datagrok.dashboards.share', { id: 'x', groups: ['Developers'], access: 'Owner' }), /Invalid access "Owner": use "View" or "Edit"/);
    await assert.rejects(run('datagrok.dashboards.share', { id: 'x', groups: [] }), /"groups"/);
    await assert.rejects(run('datagrok.dashboards.share', { groups: ['Developers'] }), /"id"/);
    assert.deepEqual(await emulatorRequests(), []);
  });

  it("shows the server's message when a table or group does not exist", async () => {
    await assert.rejects(run('datagrok.dashboards.create', { name: 'Ghost', tables: ['Nope.nothing'] }), /not found/i);
    const dashboard = (await dashboardsOnServer())[0];
    await assert.rejects(run('datagrok.dashboards.share', { id: dashboard.ID, groups: ['nobody-such'] }), /Group nobody-such not found/);
  });
});

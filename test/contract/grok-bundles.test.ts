// Contract: bundles interchangeable with Datagrok's own CLI. The published datagrok-tools (pinned in
// devDependencies) runs `grok s pull | diff | push` against two emulators; the extension's bundle code
// (src/platform/bundles over src/api) runs against the same emulators. Each side reads what the other wrote.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { createClient, type DatagrokClient } from '../../src/api';
import { diffFolder, pullToFolder, pushFolder } from '../../src/platform/bundles';
import { type Emulator, startEmulator } from '../emulator/server';

const run = promisify(execFile);
const GROK = require.resolve('datagrok-tools/bin/grok.js');
const QUERY = 'f0000000-0000-4000-8000-000000000103';

interface Plan {
  items: Array<{ name: string; entityType: string; action: string; reason: string; detail: string }>;
  counts: Record<string, number>;
  status: string;
  remoteUrl: string;
}

describe('contract: bundles with the grok CLI (datagrok-tools, pinned)', function () {
  this.timeout(120_000);
  let a: Emulator;
  let b: Emulator;
  let home: string;
  let work: string;
  let clientA: DatagrokClient;
  let clientB: DatagrokClient;

  /** `grok s …` as a user runs it, with its own config (~/.grok/config.yaml) naming both emulators. */
  const grok = async (...args: string[]) => {
    try {
      const { stdout } = await run(process.execPath, [GROK, 's', ...args], {
        env: { ...process.env, HOME: home, USERPROFILE: home, GROK_PRIVATE_KEY: '' },
        cwd: work,
        maxBuffer: 16 << 20,
      });
      return stdout;
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string; code?: number };
      throw new Error(`grok s ${args.join(' ')} exited ${err.code}: ${err.stderr}\n${err.stdout}`);
    }
  };
  const grokJson = async (...args: string[]): Promise<Plan> => {
    const out = await grok(...args, '--output', 'json');
    return JSON.parse(out.slice(out.indexOf('{'))) as Plan;
  };
  const actions = (plan: Plan) => Object.fromEntries(plan.items.filter((i) => i.entityType !== 'Entity').map((i) => [i.name, i.action]));

  before(async () => {
    [a, b] = await Promise.all([startEmulator({ key: 'key-a' }), startEmulator({ key: 'key-b' })]);
    home = await mkdtemp(path.join(tmpdir(), 'grok-home-'));
    work = await mkdtemp(path.join(tmpdir(), 'grok-bundles-'));
    await mkdir(path.join(home, '.grok'), { recursive: true });
    await writeFile(path.join(home, '.grok', 'config.yaml'), `default: a\nservers:\n  a:\n    url: ${a.baseUrl}\n    key: key-a\n  b:\n    url: ${b.baseUrl}\n    key: key-b\n`);
    clientA = createClient({ baseUrl: a.baseUrl, apiKey: 'key-a' });
    clientB = createClient({ baseUrl: b.baseUrl, apiKey: 'key-b' });
  });
  after(async () => {
    await Promise.all([clientA?.close(), clientB?.close(), a?.close(), b?.close()]);
    await rm(home, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await Promise.all([a.reset(), b.reset()]);
  });

  it('grok pulls → our diff says identical, we push to a second server, grok agrees it is identical there', async () => {
    const dir = path.join(work, 'from-grok');
    await grok('pull', 'Samples:TopCustomers', 'World overview', '--out', dir);
    const diff = await diffFolder(clientA.entities, a.baseUrl, dir);
    assert.equal(diff.status, 'dry-run');
    // grok keeps no record of what the server held at the pull: one row says so, the rest is grok's plan.
    assert.deepEqual(
      diff.items.filter((i) => i.reason === 'base_unknown').map((i) => [i.name, i.entityType, i.action]),
      [[dir, 'Bundle', 'info']],
    );
    assert.deepEqual(actions(diff), {
      [dir]: 'info',
      'Samples:Northwind': 'identical',
      'World overview': 'identical',
      'Samples:TopCustomers': 'identical',
      'Geo:world_cities': 'identical',
      'Geo:world_countries': 'identical',
      'World overview layout': 'identical',
    });
    // The second server lacks the query (deleted there): our push creates it, and only it.
    await clientB.entities.remove('/connectors/queries', QUERY);
    const pushed = await pushFolder(clientB.entities, b.baseUrl, dir);
    assert.equal(pushed.status, 'ok', JSON.stringify(pushed.items));
    assert.equal(actions(pushed)['Samples:TopCustomers'], 'create');
    assert.equal(pushed.counts.create, 1);
    const there = await grokJson('diff', dir, '--host', 'b');
    assert.deepEqual(new Set(Object.values(actions(there))), new Set(['identical']));
  });

  it('we pull → grok s diff says identical and grok s push accepts it (to the second server)', async () => {
    const dir = path.join(work, 'from-us');
    const { manifest } = await pullToFolder(clientA.entities, a.baseUrl, dir, ['Samples:TopCustomers', 'World overview']);
    assert.equal(manifest.formatVersion, 1);
    assert.equal(manifest.source.userNamespace, 'demo:');
    assert.deepEqual(
      manifest.order.map((e) => e.file),
      [
        'DataConnection/Samples.Northwind.json',
        'Project/World overview.json',
        'DataQuery/Samples.TopCustomers.json',
        'TableInfo/Geo.world_cities.json',
        'TableInfo/Geo.world_countries.json',
        'ViewLayout/World overview layout.json',
      ],
    );
    const connection = JSON.parse(await readFile(path.join(dir, 'DataConnection/Samples.Northwind.json'), 'utf8'));
    assert.deepEqual(connection._credentials, ['password'], 'the masked password is listed by name, never written');
    assert.equal(connection.parameters.password, undefined);
    // Our record of the pull sits in the folder; grok's diff and push below read the bundle around it.
    assert.ok(JSON.parse(await readFile(path.join(dir, '.datagrok-base.json'), 'utf8')).servers[a.baseUrl.toLowerCase()]);
    const diff = await grokJson('diff', dir);
    assert.deepEqual(new Set(Object.values(actions(diff))), new Set(['identical']));
    await clientB.entities.remove('/connectors/queries', QUERY);
    const pushed = await grokJson('push', dir, '--host', 'b');
    assert.equal(pushed.status, 'ok');
    assert.equal(actions(pushed)['Samples:TopCustomers'], 'create');
    const after = await diffFolder(clientB.entities, b.baseUrl, dir);
    assert.deepEqual(new Set(Object.values(actions(after))), new Set(['identical']));
  });

  it('an edit shows as an update in both, with the changed key; our push writes it and grok then says identical', async () => {
    const dir = path.join(work, 'edit');
    await pullToFolder(clientA.entities, a.baseUrl, dir, [QUERY]);
    const file = path.join(dir, 'DataQuery/Samples.TopCustomers.json');
    const query = JSON.parse(await readFile(file, 'utf8'));
    query.query = query.query.replace('limit @limit', 'limit @limit -- top only');
    await writeFile(file, JSON.stringify(query, null, 2));
    const ours = await diffFolder(clientB.entities, b.baseUrl, dir);
    const theirs = await grokJson('diff', dir, '--host', 'b');
    const row = (p: Plan) => p.items.find((i) => i.name === 'Samples:TopCustomers');
    assert.deepEqual([row(ours)?.action, row(ours)?.detail], ['update', 'query']);
    assert.deepEqual([row(theirs)?.action, row(theirs)?.detail], ['update', 'query']);
    assert.deepEqual(ours.counts, theirs.counts, 'the same plan, row for row');
    const dry = await grokJson('push', dir, '--host', 'b', '--dry-run');
    const ourDry = await pushFolder(clientB.entities, b.baseUrl, dir, { dryRun: true });
    assert.deepEqual(ourDry.counts, dry.counts);
    assert.equal(ourDry.status, 'dry-run');
    const pushed = await pushFolder(clientB.entities, b.baseUrl, dir);
    assert.equal(row(pushed)?.action, 'update');
    assert.deepEqual(new Set(Object.values(actions(await grokJson('diff', dir, '--host', 'b')))), new Set(['identical']));
  });

  it('grok pushes a new dashboard with its layout to a server without them → grok s diff and ours say identical for every entity', async () => {
    // A table and a dashboard made on the first server only (the public routes a user's script would call).
    const key = { Authorization: 'Bearer key-a' };
    const upload = await fetch(`${a.baseUrl}/public/v1/tables/Sales.q1`, {
      method: 'POST',
      headers: { ...key, 'Content-Type': 'text/csv' },
      body: 'region,amount\nnorth,12\nsouth,7\n',
    });
    const table = (await upload.json()) as { ID: string };
    const layout = {
      viewers: [
        { type: 'Grid', table: 'q1' },
        { type: 'Bar chart', table: 'q1', split: 'region' },
      ],
    };
    const made = await fetch(`${a.baseUrl}/public/v1/dashboards/Sales%20board/${table.ID}`, {
      method: 'POST',
      headers: { ...key, 'Content-Type': 'application/json' },
      body: JSON.stringify(layout),
    });
    assert.equal(made.status, 200, await made.text());
    const dir = path.join(work, 'new-dashboard');
    await grok('pull', 'Sales board', '--out', dir);
    const bundled = JSON.parse(await readFile(path.join(dir, 'ViewLayout/Sales board layout.json'), 'utf8'));
    assert.deepEqual(JSON.parse(bundled.viewState), layout);

    const pushed = await grokJson('push', dir, '--host', 'b');
    assert.equal(pushed.status, 'ok', JSON.stringify(pushed.items));
    const created = actions(pushed);
    assert.deepEqual([created['Sales board'], created['demo:Sales:q1'], created['Sales board layout']], ['create', 'create', 'create']);
    const expected = { 'Sales board': 'identical', 'demo:Sales:q1': 'identical', 'Sales board layout': 'identical' };
    const theirs = await grokJson('diff', dir, '--host', 'b');
    assert.deepEqual(actions(theirs), expected, JSON.stringify(theirs.items));
    const ours = await diffFolder(clientB.entities, b.baseUrl, dir);
    assert.deepEqual(actions(ours), expected, JSON.stringify(ours.items));
    // The same with our push to a fresh second server: nothing reported as not kept, and grok agrees.
    await b.reset();
    const ourPush = await pushFolder(clientB.entities, b.baseUrl, dir);
    assert.equal(ourPush.status, 'ok', JSON.stringify(ourPush.items));
    assert.deepEqual(
      ourPush.items.filter((i) => i.reason === 'not_kept_as_sent'),
      [],
    );
    assert.deepEqual(actions(await grokJson('diff', dir, '--host', 'b')), expected);
  });

  it("a group's members: grok pulls them, our plan says what a push changes, our push and grok's leave the same members (added, never removed)", async () => {
    const CHEMISTS = 'c0000000-0000-4000-8000-000000000001';
    const dir = path.join(work, 'members');
    await grok('pull', CHEMISTS, '--out', dir);
    const bundled = JSON.parse(await readFile(path.join(dir, 'UserGroup/Chemists.json'), 'utf8'));
    assert.deepEqual(bundled._members.map((m: { login: string; isAdmin: boolean }) => [m.login, m.isAdmin]).sort(), [
      ['alice', false],
      ['demo', true],
    ]);
    /** The second server's Chemists as a colleague changed them: alice gone, bob added. */
    const drift = async () => {
      const group = (await clientB.entities.group(CHEMISTS)) as { children: Array<{ child: { name: string }; isAdmin: boolean }> };
      const bob = (await clientB.entities.lookupGroups('bob')).find((g) => g.personal === true) as { id: string };
      const children = group.children.filter((r) => r.child.name !== 'alice');
      await clientB.entities.saveGroupRelations({
        ...group,
        children: [...children, { id: 'e9000000-0000-4000-8000-000000000001', parent: { id: CHEMISTS }, child: { id: bob.id }, isAdmin: false }],
      });
    };
    const members = async () =>
      ((await clientB.entities.group(CHEMISTS)) as { children: Array<{ child: { name: string }; isAdmin: boolean }> }).children
        .map((r) => `${r.child.name}${r.isAdmin ? ' (admin)' : ''}`)
        .sort();
    const row = (p: Plan) => p.items.find((i) => i.entityType === 'UserGroup' && i.name === 'Chemists');

    await drift();
    assert.deepEqual(await members(), ['bob', 'demo (admin)']);
    const dry = await pushFolder(clientB.entities, b.baseUrl, dir, { dryRun: true });
    const theirDry = await grokJson('push', dir, '--host', 'b', '--dry-run');
    assert.deepEqual(dry.counts, theirDry.counts, "the same rows as grok's dry run");
    assert.equal(row(dry)?.action, row(theirDry)?.action);
    assert.equal(row(dry)?.detail, 'members to add: alice; members only on remote, kept (a push never removes members): Bob Brown');
    assert.deepEqual(await members(), ['bob', 'demo (admin)'], 'a dry run changes nothing');
    const ours = await pushFolder(clientB.entities, b.baseUrl, dir);
    assert.equal(ours.status, 'ok', JSON.stringify(ours.items));
    assert.equal(row(ours)?.detail, 'members: 2 matched (added alice)', JSON.stringify(ours.items));
    const afterOurs = await members();
    assert.deepEqual(afterOurs, ['alice', 'bob', 'demo (admin)'], 'alice added, bob kept');
    // Again: nothing left to change, as grok's words say.
    assert.equal(row(await pushFolder(clientB.entities, b.baseUrl, dir))?.detail, 'members: 2 matched');

    await b.reset();
    await drift();
    const theirs = await grokJson('push', dir, '--host', 'b');
    assert.equal(theirs.status, 'ok');
    assert.match(row(theirs)?.detail ?? '', /^members: 2 matched$/);
    assert.deepEqual(await members(), afterOurs, "grok's push leaves the members ours left");

    // The bundle edited: alice an admin, and a login the server does not have.
    bundled._members = [
      ...bundled._members.map((m: { login: string }) => (m.login === 'alice' ? { ...m, isAdmin: true } : m)),
      { email: 'zed@example.com', isAdmin: false, kind: 'user', login: 'zed' },
    ];
    await writeFile(path.join(dir, 'UserGroup/Chemists.json'), JSON.stringify(bundled, null, 2));
    await b.reset();
    assert.equal(row(await pushFolder(clientB.entities, b.baseUrl, dir, { dryRun: true }))?.detail, 'member rights to set: alice admin; members not on remote: zed');
    const edited = await pushFolder(clientB.entities, b.baseUrl, dir);
    const warnings = (p: Plan) => p.items.filter((i) => i.reason === 'member_not_found').map((i) => i.detail);
    assert.deepEqual(warnings(edited), ["zed: No group matching 'zed' (personal)"]);
    assert.equal(row(edited)?.detail, 'members: 2 matched, 1 not on remote (updated alice (admin))');
    const afterEdit = await members();
    assert.deepEqual(afterEdit, ['alice (admin)', 'demo (admin)']);
    await b.reset();
    const theirEdit = await grokJson('push', dir, '--host', 'b');
    assert.deepEqual(warnings(theirEdit), warnings(edited));
    assert.equal(row(theirEdit)?.detail, 'members: 2 matched, 1 not on remote');
    assert.deepEqual(await members(), afterEdit);
  });
});

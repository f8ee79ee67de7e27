// Bundles against the emulator over real HTTP: a colleague's change made through the API between the pull and
// the push is never overwritten unseen (refused, then take mine / take theirs), a change only on the server is
// left there, a bundle without a record says its base is unknown; a hostile server's ids and names are refused.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createClient, type DatagrokClient } from '../../src/api';
import { diffFolder, pullToFolder, pushFolder } from '../../src/platform/bundles';
import { BASE_FILE, CHANGED_BOTH, CHANGED_ON_SERVER } from '../../src/platform/bundles/base';
import { resolveEntity } from '../../src/platform/bundles/resolve';
import { bundleStatus } from '../../src/platform/bundles/states';
import { type Emulator, startEmulator } from '../emulator/server';

const GREET = 'f1000000-0000-4000-8000-000000000025';
const FILE = 'Script/Scripts.Greet.json';
type Json = Record<string, unknown>;

describe("bundles: a colleague's change and a hostile server", function () {
  this.timeout(30_000);
  let emu: Emulator;
  let client: DatagrokClient;
  let root: string;
  let dir: string;

  const serverScript = async () => (await client.entities.get('/scripts', GREET)) as Json;
  const colleague = async (text: string) => client.entities.save('/scripts', { ...(await serverScript()), script: `${(await serverScript()).script}\n// ${text}` });
  const edit = async (text: string) => {
    const json = JSON.parse(await readFile(path.join(dir, FILE), 'utf8'));
    json.script = `${json.script}\n// ${text}`;
    await writeFile(path.join(dir, FILE), JSON.stringify(json, null, 2));
  };
  const row = (plan: { items: Array<{ name: string; action: string; reason: string }> }) => plan.items.find((i) => i.name === 'Scripts:Greet');
  const control = (route: string, body: unknown) => fetch(`${emu.origin}/__emulator/${route}`, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.json());

  before(async () => {
    emu = await startEmulator({ key: 'k' });
    client = createClient({ baseUrl: emu.baseUrl, apiKey: 'k' });
  });
  after(async () => {
    await client.close();
    await emu.close();
  });
  beforeEach(async () => {
    await emu.reset();
    root = await mkdtemp(path.join(tmpdir(), 'bundle-api-'));
    dir = path.join(root, 'one', 'two', 'bundle');
    await pullToFolder(client.entities, emu.baseUrl, dir, [GREET]);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('changed here and on the server since the pull: the plan says so, the push is refused and writes nothing; take mine pushes', async () => {
    await colleague('colleague');
    await edit('mine');
    const diff = await diffFolder(client.entities, emu.baseUrl, dir);
    assert.equal(row(diff)?.action, 'failed');
    assert.match(row(diff)?.reason ?? '', new RegExp(`^${CHANGED_BOTH}`));
    await assert.rejects(
      pushFolder(client.entities, emu.baseUrl, dir),
      /An entity was changed here and on the server since your pull; nothing was written[\s\S]*Script Scripts:Greet \(they differ in: script\)/,
    );
    assert.match(String((await serverScript()).script), /colleague/);
    const mine = await pushFolder(client.entities, emu.baseUrl, dir, { onChanged: 'mine' });
    assert.equal(row(mine)?.action, 'update', JSON.stringify(mine.items));
    assert.match(String((await serverScript()).script), /mine/);
    assert.doesNotMatch(String((await serverScript()).script), /colleague/);
    // The push recorded what it saved: the next change on the server alone is no change of ours.
    await colleague('again');
    assert.equal(row(await diffFolder(client.entities, emu.baseUrl, dir))?.reason, CHANGED_ON_SERVER);
  });

  it("changed only on the server: the push leaves the colleague's copy and says why", async () => {
    await colleague('colleague');
    const pushed = await pushFolder(client.entities, emu.baseUrl, dir);
    assert.deepEqual([row(pushed)?.action, row(pushed)?.reason], ['skip', CHANGED_ON_SERVER]);
    assert.match(String((await serverScript()).script), /colleague/);
  });

  it("take theirs: the bundle file becomes the server's copy, the server is untouched; one entity resolved by hand likewise", async () => {
    await colleague('colleague');
    await edit('mine');
    const theirs = await pushFolder(client.entities, emu.baseUrl, dir, { onChanged: 'theirs' });
    assert.equal(row(theirs)?.action, 'skip');
    assert.match(await readFile(path.join(dir, FILE), 'utf8'), /colleague/);
    assert.equal(row(await diffFolder(client.entities, emu.baseUrl, dir))?.action, 'identical');

    await colleague('second');
    await edit('mine again');
    await resolveEntity(client.entities, emu.baseUrl, dir, FILE, 'mine');
    assert.equal(row(await diffFolder(client.entities, emu.baseUrl, dir))?.action, 'update', 'taken as mine: the next push overwrites');
  });

  it('a bundle without a record (as grok s pull writes it) is compared as grok compares, with one row saying the base is unknown', async () => {
    await rm(path.join(dir, BASE_FILE));
    await colleague('colleague');
    await edit('mine');
    const plan = await pushFolder(client.entities, emu.baseUrl, dir, { dryRun: true });
    assert.equal(row(plan)?.action, 'update');
    const info = plan.items.filter((i) => i.reason === 'base_unknown');
    assert.equal(info.length, 1);
    assert.match(info[0].detail, /no record of what 127\.0\.0\.1:\d+ held when this bundle was pulled .*a push overwrites it/);
  });

  it('a reference the bundle does not carry names what the target holds under that id and what it means', async () => {
    const json = JSON.parse(await readFile(path.join(dir, FILE), 'utf8'));
    json.options = { files: 'f0000000-0000-4000-8000-000000000001' };
    await writeFile(path.join(dir, FILE), JSON.stringify(json, null, 2));
    const info = (await diffFolder(client.entities, emu.baseUrl, dir)).items.find((i) => i.reason === 'orphan_ref');
    // grok's row (the id as its name), with a detail a user can act on: the type, the name, what the push does.
    assert.equal(info?.name, 'f0000000-0000-4000-8000-000000000001');
    assert.match(
      info?.detail ?? '',
      /^DataConnection System:DemoFiles is not in the bundle; the target has it under this id, so Scripts:Greet will use the target's own — nothing to do$/,
    );
  });

  it("a name conflict's server side is the server's entity that holds the name, for the diff", async () => {
    // The bundle's Greet under another id: the server holds the name with its own.
    const other = 'a1b2c3d4-0000-4000-8000-00000000beef';
    const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8'));
    for (const e of manifest.order) if (e.id === GREET) e.id = other;
    await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
    const json = JSON.parse(await readFile(path.join(dir, FILE), 'utf8'));
    await writeFile(path.join(dir, FILE), JSON.stringify({ ...json, id: other }, null, 2));
    const status = await bundleStatus(client.entities, emu.baseUrl, dir);
    const greet = status.entities.find((e) => e.file === FILE);
    assert.equal(greet?.state, 'conflict');
    assert.equal(greet?.detail, `name taken by ${GREET}`);
    assert.equal(greet?.server?.id, GREET, 'the diff shows the entity that holds the name');
    assert.equal(greet?.server?.script, json.script);
    assert.equal(greet?.hash, undefined, 'take mine / take theirs do not treat it as this entity');
  });

  it('a hostile server: a table id "../../../x" is not fetched unencoded nor written above the folder; it is a warning', async () => {
    await control('entities', { '#type': 'TableInfo', id: '../../../x', name: 'evil_table', friendlyName: 'evil_table' });
    await control('faults', { match: 'GET /api/tables/../../../x/data', text: 'pwned', status: 200 });
    emu.state.log.splice(0);
    const { manifest, pulled } = await pullToFolder(client.entities, emu.baseUrl, dir, { text: 'evil_table', types: ['table'] });
    assert.deepEqual(
      manifest.order.filter((e) => e.type === 'TableInfo'),
      [],
    );
    assert.deepEqual(
      pulled.notes.map((n) => [n.name, n.action, n.reason]),
      [['evil_table', 'warn', 'bad_id']],
    );
    assert.ok(!existsSync(path.join(root, 'one', 'x.d42')), 'nothing written two levels above the bundle');
    assert.deepEqual(
      emu.state.log.filter((r) => r.path.includes('/../')),
      [],
      'no path built from the id',
    );
  });

  it('hostile names from the server: distinct files within the folder, none differing only in case', async () => {
    const names = ['.', '..', 'x'.repeat(300), 'y'.repeat(5000), 'CON', 'Case', 'case'];
    const ids = names.map((_, i) => `ad000000-0000-4000-8000-00000000000${i}`);
    await control(
      'entities',
      names.map((name, i) => ({ '#type': 'Script', id: ids[i], name, language: 'javascript', script: '//x' })),
    );
    const { manifest, notes } = await pullToFolder(client.entities, emu.baseUrl, dir, ids);
    assert.deepEqual(notes, []);
    const files = manifest.order.filter((e) => ids.includes(e.id)).map((e) => e.file);
    assert.equal(files.length, names.length);
    assert.equal(new Set(files.map((f) => f.toLowerCase())).size, names.length, files.join(', '));
    assert.equal((await readdir(path.join(dir, 'Script'))).length, names.length + 1);
    assert.deepEqual(await readdir(path.join(root, 'one')), ['two']);
  });
});

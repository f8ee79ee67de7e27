// A push's name conflicts resolved per entity against the emulator over real HTTP: one entity adopted (written
// into the server's twin, recorded in idmap.json), another skipped, one pushed as a duplicate beside its twin (which
// the emulator, like a real server, refuses: names are unique in a namespace), while `onConflict` stays the default for the rest (grok's `--on-conflict` semantics, per entity).
import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createClient, type DatagrokClient } from '../../src/api';
import { choicesById, pullToFolder, pushFolder, readBundle } from '../../src/platform/bundles';
import { type Emulator, startEmulator } from '../emulator/server';

const GREET = 'f1000000-0000-4000-8000-000000000025';
const QUERY = 'f0000000-0000-4000-8000-000000000103';
const MY_GREET = '5c000000-0000-4000-8000-000000000001';
const MY_QUERY = '5c000000-0000-4000-8000-000000000002';
type Json = Record<string, unknown>;

describe('bundles: name conflicts chosen per entity', function () {
  this.timeout(30_000);
  let emu: Emulator;
  let client: DatagrokClient;
  let dir: string;

  /** The bundle holds a script and a query of its own whose names the server's own script and query hold. */
  const addTwins = async () => {
    const query = (await client.entities.get('/connectors/queries', QUERY)) as Json;
    const files: Array<[string, string, Json]> = [
      ['Script', 'Script/Scripts.Greet.json', { '#type': 'Script', id: MY_GREET, language: 'javascript', name: 'Greet', namespace: 'Scripts:', script: '//name: Greet\n// mine' }],
      ['DataQuery', 'DataQuery/Samples.TopCustomers-5c000000.json', { ...query, id: MY_QUERY, query: `${query.query} -- mine` }],
    ];
    const manifestFile = path.join(dir, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    for (const [type, file, json] of files) {
      await writeFile(path.join(dir, file), JSON.stringify(json, null, 2)).catch(async () => {
        const { mkdir } = await import('node:fs/promises');
        await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
        await writeFile(path.join(dir, file), JSON.stringify(json, null, 2));
      });
      manifest.order.push({ type, id: json.id, file });
    }
    await writeFile(manifestFile, JSON.stringify(manifest, null, 2));
  };
  const row = (plan: { items: Array<{ name: string; entityType: string; action: string; reason: string }> }, type: string) =>
    plan.items.find((i) => i.entityType === type && (i.name === 'Scripts:Greet' || i.name === 'Samples:TopCustomers'));

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
    dir = path.join(await mkdtemp(path.join(tmpdir(), 'bundle-choices-')), 'bundle');
    await pullToFolder(client.entities, emu.baseUrl, dir, ['Samples:Northwind']);
    await addTwins();
  });
  afterEach(() => rm(path.dirname(dir), { recursive: true, force: true }));

  it('without choices the default refuses both; one adopted and one skipped, the push writes the adopted one into its twin', async () => {
    await assert.rejects(pushFolder(client.entities, emu.baseUrl, dir), /Name conflicts[\s\S]*Script Scripts:Greet[\s\S]*DataQuery Samples:TopCustomers/);
    const choices = choicesById(await readBundle(dir), { 'Scripts:Greet': 'adopt', [MY_QUERY]: 'skip' });
    const plan = await pushFolder(client.entities, emu.baseUrl, dir, { choices });
    assert.equal(plan.status, 'ok', JSON.stringify(plan.items));
    assert.deepEqual([row(plan, 'Script')?.action, row(plan, 'Script')?.reason], ['update', `adopted ${GREET}`]);
    assert.deepEqual([row(plan, 'DataQuery')?.action, row(plan, 'DataQuery')?.reason], ['skip', `name taken by ${QUERY}`]);
    assert.match(String(((await client.entities.get('/scripts', GREET)) as Json).script), /\/\/ mine/, "the server's Greet now holds the bundle's");
    assert.doesNotMatch(String(((await client.entities.get('/connectors/queries', QUERY)) as Json).query), /-- mine/, 'the skipped query is left alone');
    assert.equal(await client.entities.get('/connectors/queries', MY_QUERY), null, 'nothing made for the skipped one');
    assert.deepEqual(JSON.parse(await readFile(path.join(dir, 'idmap.json'), 'utf8'))[MY_GREET], GREET, 'the adoption is recorded');
  });

  it('a duplicate is saved under its own id beside its twin (a server that keeps names unique refuses it: that row fails, nothing else); onConflict stays the default for the rest', async () => {
    const choices = choicesById(await readBundle(dir), { 'Scripts:Greet': 'duplicate' });
    const plan = await pushFolder(client.entities, emu.baseUrl, dir, { onConflict: 'skip', choices });
    assert.equal(row(plan, 'DataQuery')?.action, 'skip', 'onConflict skip for the query');
    assert.equal(row(plan, 'Script')?.action, 'failed', JSON.stringify(plan.items));
    assert.match(row(plan, 'Script')?.reason ?? '', /A Script named Scripts:Greet already exists/, "the server's own reason");
    assert.equal(plan.status, 'failed');
    assert.equal(await client.entities.get('/scripts', MY_GREET), null);
    assert.doesNotMatch(String(((await client.entities.get('/scripts', GREET)) as Json).script), /\/\/ mine/, 'the twin is untouched');
  });
});

// Contract: the routes the explorer views will read (README "(explorer)"), as the Python client and the
// grok CLI call them: functions with signatures, connections, tables, projects and dashboards.
import * as assert from 'node:assert/strict';
import { startEmulator } from '../emulator/server';
import { grok, ID, type Json, python, useEmulator } from './clients';
const PROPERTY_TYPES = ['int', 'double', 'string', 'bool', 'dataframe', 'column', 'datetime', 'list', 'dynamic'];

describe('contract: the explorer routes', () => {
  const emu = useEmulator();

  it('lists functions with a smart-search filter (source = "script"), each with a full signature', async () => {
    const py = python(emu());
    const all = (await py('GET', '/public/v1/functions')).json<Json[]>();
    assert.ok(all.length >= 20, `tens of functions, got ${all.length}`);
    assert.ok(new Set(all.map((f) => f.package.name)).size >= 5, 'several packages');
    for (const f of all) {
      assert.ok(f.params.some((p: Json) => p.isInput) || f.nqName === 'Demo:Fail', `${f.nqName} has inputs`);
      for (const p of f.params) {
        assert.ok(PROPERTY_TYPES.includes(p.propertyType), `${f.nqName}.${p.name}: ${p.propertyType}`);
        for (const key of ['name', 'isInput', 'description', 'defaultValue', 'nullable']) assert.ok(key in p, `${f.nqName}.${p.name} has ${key}`);
      }
      assert.ok(f.params.some((p: Json) => !p.isInput) || f.nqName === 'Demo:Fail', `${f.nqName} has outputs`);
    }
    const scripts = (await py('GET', '/public/v1/functions', { query: { text: 'source = "script"' } })).json<Json[]>();
    assert.ok(scripts.length >= 3 && scripts.every((f) => f.source === 'script' && f['#type'] === 'Script' && f.language));
    const queries = (await py('GET', '/public/v1/functions', { query: { text: 'source="data-query"' } })).json<Json[]>();
    assert.ok(queries.length >= 2 && queries.every((f) => f['#type'] === 'DataQuery' && f.connection?.nqName));
    const chem = (await py('GET', '/public/v1/functions', { query: { text: 'package = "Chem" and name contains "weight"' } })).json<Json[]>();
    assert.deepEqual(
      chem.map((f) => f.nqName),
      ['Chem:MolecularWeight'],
    );
    assert.ok((await py('GET', '/public/v1/functions', { query: { text: '#geo' } })).json<Json[]>().length >= 2);
  });

  it('reads one function by name or id with params / parameterInfos (choices where relevant), and it runs', async () => {
    const py = python(emu());
    const byName = (await py('GET', '/public/v1/functions/Queries.CountriesByContinent')).json();
    assert.equal(byName.nqName, 'Queries:CountriesByContinent');
    assert.deepEqual(byName.params, byName.parameterInfos);
    const continent = byName.params.find((p: Json) => p.name === 'continent');
    assert.equal(continent.propertyType, 'string');
    assert.equal(continent.defaultValue, 'Europe');
    assert.ok(continent.choices.includes('Asia'));
    const byId = (await py('GET', `/public/v1/functions/${byName.id}`)).json();
    assert.equal(byId.nqName, byName.nqName);
    const asia = (await py('POST', '/public/v1/functions/Queries.CountriesByContinent/call', { json: { continent: 'Asia' } })).json<string>();
    assert.match(asia, /^country,code,continent/);
    assert.deepEqual(
      asia
        .trim()
        .split('\n')
        .slice(1)
        .map((l: string) => l.split(',')[0])
        .sort(),
      ['China', 'India', 'Japan'],
    );
    const bad = await py('POST', '/public/v1/functions/Queries.CountriesByContinent/call', { json: { continent: 'Atlantis' } });
    assert.equal(bad.status, 400);
    assert.equal((await py('GET', '/public/v1/functions/Nope.Nothing')).status, 404);
    // The original demo functions keep their behaviour and gain a signature.
    const add = (await py('GET', '/public/v1/functions/Demo:Add')).json();
    assert.deepEqual(
      add.params.map((p: Json) => `${p.name}:${p.propertyType}:${p.isInput}`),
      ['a:double:true', 'b:double:true', 'sum:double:false'],
    );
    assert.equal((await py('POST', '/public/v1/functions/Demo.Add/call', { json: { a: 1, b: 2 } })).json<number>(), 3);
  });

  it('lists file-share connections with a text filter', async () => {
    const py = python(emu());
    const all = (await py('GET', '/public/v1/connections')).json<Json[]>();
    const files = all.filter((c) => c.dataSource === 'Files');
    assert.ok(files.length >= 4, 'several file shares');
    assert.ok(files.every((c) => c.namespace.endsWith(':') && c.namespace + c.name === c.nqName));
    const sales = (await py('GET', '/public/v1/connections', { query: { text: 'sales' } })).json<Json[]>();
    assert.deepEqual(
      sales.map((c) => c.nqName),
      ['Samples:Sales'],
    );
    const listing = await py('GET', `/connectors/connections/${sales[0].id}/files/2023/`);
    assert.deepEqual(
      listing.json<Json[]>().map((f) => f.name),
      ['q1.csv', 'q2.csv'],
    );
  });

  it('lists tables of several projects (/api/tables, paged) and reads one by id', async () => {
    const cli = await grok(emu());
    const all = (await cli('GET', '/tables')).json<Json[]>();
    assert.ok(new Set(all.map((t) => t.projectName)).size >= 3, 'tables in several projects');
    assert.ok(all.some((t) => t.id === ID.demogTable && t.nqName === 'Demo:demog'));
    const first = (await cli('GET', '/tables', { query: { limit: 3, page: 1 } })).json<Json[]>();
    const second = (await cli('GET', '/tables', { query: { limit: 3, page: 2 } })).json<Json[]>();
    assert.deepEqual(
      [...first, ...second].map((t) => t.id),
      all.slice(0, 6).map((t) => t.id),
    );
    const geo = (await cli('GET', '/tables', { query: { text: 'world' } })).json<Json[]>();
    assert.deepEqual(geo.map((t) => t.nqName).sort(), ['Geo:world_cities', 'Geo:world_countries']);
    const one = (await cli('GET', `/tables/${geo[0].id}`)).json();
    assert.equal(one.id, geo[0].id);
    assert.ok(one.projectId);
    assert.equal((await cli('GET', '/tables/00000000-0000-4000-8000-00000000dead')).status, 404);
  });

  it('lists projects and dashboards (isDashboard), each with its tables', async () => {
    const cli = await grok(emu());
    const all = (await cli('GET', '/projects')).json<Json[]>();
    const dashboards = all.filter((p) => p.isDashboard === true);
    assert.ok(dashboards.length >= 2 && all.some((p) => p.isDashboard === false));
    const world = dashboards.find((d) => d.name === 'World overview')!;
    assert.deepEqual(world.tables.map((t: Json) => t.nqName).sort(), ['Geo:world_cities', 'Geo:world_countries']);
    assert.equal((await cli('GET', `/projects/${world.id}`)).json().isDashboard, true);
    // A dashboard created through the public API is listed as one.
    await cli('POST', `/public/v1/dashboards/Fresh/${ID.demogTable}`, { json: {} });
    const fresh = (await cli('GET', '/projects', { query: { text: 'Fresh' } })).json<Json[]>();
    assert.deepEqual(
      fresh.map((p) => [p.name, p.isDashboard]),
      [['Fresh', true]],
    );
  });

  it('scales the function count with --functions N (startEmulator extraFunctions)', async () => {
    const big = await startEmulator({ port: 0, extraFunctions: 500 });
    try {
      const py = python(big);
      const all = (await py('GET', '/public/v1/functions')).json<Json[]>();
      const bench = all.filter((f) => f.package.name === 'Bench');
      assert.equal(bench.length, 500);
      assert.equal((await py('POST', `/public/v1/functions/${bench[9].nqName.replace(':', '.')}/call`, { json: { x: 1.5 } })).json<number>(), 15);
    } finally {
      await big.close();
    }
  });
});

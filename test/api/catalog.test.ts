// The catalog routes the explorer views read, over real HTTP, and the platform's Catalog on top of them.
import * as assert from 'node:assert/strict';
import { Catalog, byPackage } from '../../src/platform/functions/catalog';
import { useEmulator } from './harness';

describe('catalog: functions, connections, tables and dashboards', () => {
  const h = useEmulator();

  it('lists functions with a smart-search text and reads one with its signature', async () => {
    const all = await h.client.listFunctions();
    assert.ok(all.length >= 20, `${all.length} functions`);
    assert.ok(all.some((f) => f.kind === 'script') && all.some((f) => f.kind === 'query') && all.some((f) => f.kind === 'function'));
    const chem = await h.client.listFunctions('package = "Chem"');
    assert.ok(chem.length > 0 && chem.every((f) => f.package === 'Chem'), JSON.stringify(chem.map((f) => f.nqName)));
    const add = await h.client.getFunction('Demo:Add');
    assert.equal(add.nqName, 'Demo:Add');
    assert.deepEqual(
      add.params?.map((p) => [p.name, p.propertyType, p.isInput]),
      [
        ['a', 'double', true],
        ['b', 'double', true],
        ['sum', 'double', false],
      ],
    );
    await h.fails(h.client.getFunction('Demo:NoSuchThing'), 'notFound');
  });

  it('lists connections, tables and dashboards (projects with isDashboard)', async () => {
    const connections = await h.client.listConnections();
    assert.ok(connections.some((c) => c.nqName === 'System:DemoFiles' && c.dataSource === 'Files'));
    const tables = await h.client.listTables({ limit: 2, page: 1 });
    assert.equal(tables.length, 2);
    const dashboards = (await h.client.listProjects()).filter((p) => p.isDashboard);
    assert.ok(dashboards.length >= 1 && dashboards.every((d) => d.tables.length >= 1));
  });

  it('a server without the list routes says so as unsupported', async () => {
    await h.fault({ match: 'GET /api/tables', status: 404, text: 'Not Found', count: 1 });
    await h.fails(h.client.listTables(), 'unsupported', /does not list them/);
  });

  it('the platform catalog keeps answers per server and text, groups by package, and asks again after reload', async () => {
    const catalog = new Catalog({ client: async () => h.client, currentUser: () => h.client.currentUserGroup() });
    const first = await catalog.searchFunctions('');
    const before = h.log.length;
    assert.deepEqual(await catalog.searchFunctions(''), first);
    assert.equal(h.log.length, before, 'from the cache');
    const packages = [...byPackage(first).keys()];
    assert.deepEqual(
      packages,
      [...packages].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true })),
    );
    let changes = 0;
    catalog.onDidChange(() => changes++);
    catalog.reload();
    await catalog.searchFunctions('');
    assert.equal(changes, 1);
    assert.equal(h.log.length, before + 1, 'asked again');
    assert.ok((await catalog.fileShares()).every((c) => c.dataSource === 'Files'));
    assert.ok((await catalog.listDashboards()).every((d) => d.isDashboard));
  });

  it("offline, the catalog's language-feature lookups answer from the last answer (however old); the views' lookups fail", async () => {
    const catalog = new Catalog({ client: async () => h.client, currentUser: () => h.client.currentUserGroup() });
    const add = await catalog.func('Demo:Add');
    const all = await catalog.searchFunctions('');
    catalog.reload();
    await h.fault({ match: 'GET /api/public/v1/functions', status: 503, count: 20 });
    assert.deepEqual(await catalog.funcOrLastKnown('Demo:Add'), add);
    assert.deepEqual(await catalog.allFunctionsOrLastKnown(), all);
    // Nothing known for that name: the failure itself; the views' lookups show the failure too.
    await h.fails(catalog.funcOrLastKnown('Demo:Filter'), 'unavailable');
    await h.fails(catalog.func('Demo:Add'), 'unavailable');
  });
  it('the whole function list last listed answers at once, with no request, also after a reload (for Pull Script to show it while asking again)', async () => {
    const catalog = new Catalog({ client: async () => h.client, currentUser: () => h.client.currentUserGroup() });
    assert.equal(await catalog.lastListedFunctions(), undefined, 'nothing listed yet');
    const listed = await catalog.searchFunctions('');
    await catalog.searchFunctions('package = "Chem"');
    catalog.reload();
    const before = h.log.length;
    assert.deepEqual(await catalog.lastListedFunctions(), listed, 'the whole list, not the last search');
    assert.equal(h.log.length, before, 'no request');
  });
});

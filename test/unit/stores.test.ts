import * as assert from 'node:assert/strict';
import { KnownFiles } from '../../src/platform/files/known';
import { KnownUsers } from '../../src/platform/knownUsers';
import { RecentEntities } from '../../src/platform/recent';
import { MemoryStore } from './memoryStore';

describe('known connector files', () => {
  const server = 'http://127.0.0.1:1/api';

  it('remembers files per server and connector, and lists a folder from them', async () => {
    const store = new MemoryStore();
    const known = new KnownFiles(store);
    await known.add(server, 'System.DemoFiles', 'geo/cities.csv');
    await known.add(server, 'System.DemoFiles', 'readme.md');
    await known.add(server, 'System.DemoFiles', 'geo/deep/x.csv');
    await known.add('http://other/api', 'System.DemoFiles', 'elsewhere.csv');
    assert.ok(known.has(server, 'System.DemoFiles', 'readme.md'));
    assert.ok(!known.has(server, 'System.AppData', 'readme.md'));
    assert.ok(known.isFolder(server, 'System.DemoFiles', 'geo'));
    assert.ok(!known.isFolder(server, 'System.DemoFiles', 'readme.md'));
    assert.deepEqual(known.children(server, 'System.DemoFiles', ''), [
      { name: 'geo', isFile: false },
      { name: 'readme.md', isFile: true },
    ]);
    assert.deepEqual(known.children(server, 'System.DemoFiles', 'geo'), [
      { name: 'cities.csv', isFile: true },
      { name: 'deep', isFile: false },
    ]);
  });

  it('skips a needless write and forgets a removed file', async () => {
    const store = new MemoryStore();
    const known = new KnownFiles(store);
    await known.add(server, 'C', 'a.txt');
    await known.add(server, 'C', 'a.txt');
    assert.equal(store.writes, 1);
    await known.remove(server, 'C', 'a.txt');
    await known.remove(server, 'C', 'a.txt');
    assert.equal(store.writes, 2);
    assert.deepEqual(known.list(server, 'C'), []);
  });
});

describe('recent tables and dashboards', () => {
  it('keeps the newest first, one entry per ID, per server, and survives a new instance', async () => {
    const store = new MemoryStore();
    const tables = new RecentEntities(store, 'tables');
    await tables.remember('s1', { ID: 't1', name: 'sales', URL: 'u1' } as never);
    await tables.remember('s1', { ID: 't2', name: 'costs', URL: 'u2' } as never);
    await tables.remember('s2', { ID: 't3', name: 'other', URL: 'u3' } as never);
    await tables.remember('s1', { ID: 't1', name: 'sales v2', URL: 'u1' } as never);
    assert.deepEqual(
      new RecentEntities(store, 'tables').list('s1').map((e) => [e.ID, e.name]),
      [
        ['t1', 'sales v2'],
        ['t2', 'costs'],
      ],
    );
    assert.deepEqual(new RecentEntities(store, 'dashboards').list('s1'), []);
  });

  it('keeps at most 50 per kind', async () => {
    const tables = new RecentEntities(new MemoryStore(), 'tables');
    for (let i = 0; i < 60; i++) await tables.remember('s', { ID: `t${i}`, name: `n${i}`, URL: '' } as never);
    const list = tables.list('s');
    assert.equal(list.length, 50);
    assert.equal(list[0].ID, 't59');
  });
});

describe('KnownUsers (the user per server, for the status bar after a reload)', () => {
  const alice = { id: 'a1', name: 'alice', friendlyName: 'Alice Smith', personal: true, description: 'not kept' };

  it('remembers per server only what the status bar shows, and forgets on delete', async () => {
    const store = new MemoryStore();
    const users = new KnownUsers(store);
    await users.set('https://a.example/api', alice);
    assert.deepEqual(users.get('https://a.example/api'), { id: 'a1', name: 'alice', friendlyName: 'Alice Smith', personal: true });
    assert.equal(users.get('https://b.example/api'), undefined);
    assert.deepEqual(store.get<Record<string, unknown>>('datagrok.knownUsers', {}), {
      'https://a.example/api': { id: 'a1', name: 'alice', friendlyName: 'Alice Smith' },
    });
    await users.delete('https://a.example/api');
    assert.equal(users.get('https://a.example/api'), undefined);
  });

  it('writes only when the user changed, and ignores a malformed stored value', async () => {
    const store = new MemoryStore();
    const users = new KnownUsers(store);
    await users.set('s', alice);
    await users.set('s', { ...alice });
    await users.delete('other');
    assert.equal(store.writes, 1);
    await store.update('datagrok.knownUsers', ['not', 'a', 'map']);
    assert.equal(users.get('s'), undefined);
    await store.update('datagrok.knownUsers', { s: { id: 7 } });
    assert.equal(users.get('s'), undefined);
  });
});

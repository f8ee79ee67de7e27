import * as assert from 'node:assert/strict';
import { DatagrokError } from '../../src/api/errors';
import type { TableInfo } from '../../src/api/types';
import type { Catalog } from '../../src/platform/functions/catalog';
import { type RememberedEntity, RecentEntities } from '../../src/platform/recent';
import { missingTablesProblem, tableOnServer } from '../../src/ui/entitySearch';
import { MemoryStore } from './memoryStore';

const entry = (ID: string, at: string, server = 's1'): RememberedEntity => ({ ID, name: ID, URL: '', server, at });

describe('remembered tables and dashboards move to the global state', () => {
  it('merges the workspace entries once, newest first, and empties the workspace key', async () => {
    const workspace = new MemoryStore();
    const global = new MemoryStore();
    await workspace.update('datagrok.recent.tables', [entry('old', '2024-01-02T00:00:00.000Z'), entry('both', '2024-01-01T00:00:00.000Z')]);
    await global.update('datagrok.recent.tables', [entry('both', '2024-03-01T00:00:00.000Z'), entry('global', '2024-02-01T00:00:00.000Z')]);
    const tables = new RecentEntities(global, 'tables', workspace);
    // Before the migration ran, the list already shows both.
    assert.deepEqual(
      tables.list('s1').map((e) => e.ID),
      ['both', 'global', 'old'],
    );
    await tables.migrate();
    await tables.migrate();
    assert.equal(workspace.get('datagrok.recent.tables', undefined), undefined);
    assert.deepEqual(
      new RecentEntities(global, 'tables').list('s1').map((e) => [e.ID, e.at.slice(0, 7)]),
      [
        ['both', '2024-03'],
        ['global', '2024-02'],
        ['old', '2024-01'],
      ],
    );
    // A later push lands in the global state, on top.
    await tables.remember('s1', { ID: 'new', name: 'new', URL: 'https://x/t/new', Markup: '' } as never);
    assert.equal(new RecentEntities(global, 'tables').list('s1')[0]!.ID, 'new');
    assert.equal(new RecentEntities(global, 'tables').find('s1', 'new')?.URL, 'https://x/t/new');
  });

  it('writes nothing when the workspace held nothing', async () => {
    const workspace = new MemoryStore();
    const global = new MemoryStore();
    await new RecentEntities(global, 'dashboards', workspace).migrate();
    assert.equal(global.writes + workspace.writes, 0);
  });
});

describe('the tables step checks that tables are on the server', () => {
  const demog: TableInfo = { id: 'b1', name: 'demog', nqName: 'Demo:demog', projectName: 'Demo' };
  const catalog = (tables: TableInfo[], unsupported = false) =>
    ({
      listTables: async (text = '') => {
        if (unsupported) throw new DatagrokError('unsupported', 'Listing tables failed: this server does not list them.');
        return tables.filter((t) => !text || t.name.includes(text));
      },
    }) as unknown as Catalog;

  it('knows a table by ID, Project:table, Project.table or name (any case)', async () => {
    for (const v of ['b1', 'Demo:demog', 'demo.DEMOG', 'demog']) assert.equal(await tableOnServer(catalog([demog]), v), true, v);
    assert.equal(await tableOnServer(catalog([demog]), 'Demo:nope'), false);
  });

  it('knows a table the server names owner first by its full name and by <project>.<table>', async () => {
    const q1: TableInfo = { id: 'b2', name: 'q1', nqName: 'Admin:Sales:q1', projectName: 'Sales' };
    for (const v of ['Admin:Sales:q1', 'admin.sales.q1', 'Sales.q1', 'Sales:Q1', 'q1', 'b2']) assert.equal(await tableOnServer(catalog([q1]), v), true, v);
    for (const v of ['Other:Sales:q1', 'Admin:q1', 'Sales:q2']) assert.equal(await tableOnServer(catalog([q1]), v), false, v);
  });

  it('names what is missing, and cannot tell on a server without the list', async () => {
    assert.equal(await missingTablesProblem(catalog([demog]), ['b1', 'Demo:demog'], 'h'), undefined);
    assert.equal(await missingTablesProblem(catalog([demog]), ['b1', 'Demo:typo'], 'h'), 'Table "Demo:typo" is not on h: untick it or type another ID or name');
    assert.equal(await missingTablesProblem(catalog([], true), ['anything'], 'h'), undefined);
  });
});

import * as assert from 'node:assert/strict';
import { isDatagrokError } from '../../src/api/errors';
import { OpenedTables } from '../../src/platform/tables/opened';
import { checkTableName, defaultTableName, finalTableName, safeFileName, sameTableName, tableNamePreview, tableNameProblem } from '../../src/platform/tables/names';

describe('table names', () => {
  it('accepts table, <project>.<table>, Project:table and <owner>:<project>:<table>', () => {
    for (const name of ['sales', 'Demo.sales', 'Demo:sales', ' spaced ', 'Admin.Demo.sales', 'Admin:Demo:sales']) assert.equal(tableNameProblem(name), undefined, name);
    assert.match(tableNameProblem('a.b.c.d') ?? '', /at most three parts: <owner>\.<project>\.<table>/);
    assert.equal(checkTableName('  Demo:sales '), 'Demo:sales');
  });

  it('refuses empty names, empty parts and slashes with a message that shows the accepted forms', () => {
    assert.match(tableNameProblem('  ') ?? '', /Enter a table name/);
    assert.match(tableNameProblem('Demo.') ?? '', /empty part/);
    assert.match(tableNameProblem(':sales') ?? '', /empty part/);
    assert.match(tableNameProblem('a/b') ?? '', /cannot contain "\/"/);
    assert.match(tableNameProblem('a\\b') ?? '', /cannot contain/);
  });

  it('checkTableName throws badInput naming the bad name, and refuses non-text', () => {
    assert.throws(
      () => checkTableName('x..y'),
      (e: unknown) => isDatagrokError(e, 'badInput') && /Invalid table name "x\.\.y"/.test(e.message),
    );
    assert.throws(
      () => checkTableName(42),
      (e: unknown) => isDatagrokError(e, 'badInput') && /must be text/.test(e.message),
    );
  });

  it('says the final name before a push as a server gives it: the owner first, a bare name a project of its own', () => {
    // The grok CLI's documentation of `tables upload`: a REST upload of `MyTable` is `Admin:MyTable:MyTable`.
    assert.equal(finalTableName('MyTable', 'Admin'), 'Admin:MyTable:MyTable');
    assert.equal(finalTableName(' Sales.q1 ', 'Admin'), 'Admin:Sales:q1');
    assert.equal(finalTableName('Sales:q1', 'Admin'), 'Admin:Sales:q1');
    // Three parts keep their owner; the user's own is spelt as the server spells the login.
    assert.equal(finalTableName('admin.Sales.q1', 'Admin'), 'Admin:Sales:q1');
    assert.equal(finalTableName('alice:Sales.q1', 'Admin'), 'alice:Sales:q1');
    // The login not known: no owner is invented.
    assert.equal(finalTableName('planets'), 'planets:planets');
    assert.equal(finalTableName('Sales.q1'), 'Sales:q1');
    assert.equal(finalTableName('admin:Sales.q1'), 'admin:Sales:q1');
  });

  it('the name box says "Saved as Admin:planets:planets", and without the login says what is known', () => {
    const bare = tableNamePreview('planets', 'Admin');
    assert.deepEqual(bare, {
      final: 'Admin:planets:planets',
      note: 'Saved as Admin:planets:planets (a name without a project gets a project of its own; type <project>.<table> to choose one).',
    });
    const full = tableNamePreview('Demo.x', 'Admin');
    assert.ok('note' in full && full.note === 'Saved as Admin:Demo:x.', JSON.stringify(full));
    const unknown = tableNamePreview('Demo.x');
    assert.ok('note' in unknown && unknown.note === 'Saved as Demo:x in your namespace (the server puts your login first).', JSON.stringify(unknown));
    const unknownBare = tableNamePreview('planets');
    assert.ok('note' in unknownBare && /^Saved as planets:planets in your namespace .*\(a name without a project/.test(unknownBare.note), JSON.stringify(unknownBare));
    const foreign = tableNamePreview('alice.Demo.x', 'Admin');
    assert.ok(
      'note' in foreign && foreign.note === "Saved as alice:Demo:x. alice is not you (Admin): the server may refuse to save into another user's namespace.",
      JSON.stringify(foreign),
    );
    assert.deepEqual(tableNamePreview('Demo.', 'Admin'), { problem: tableNameProblem('Demo.') });
  });

  it("compares names with the owner's part on either side (the owner, when known, must be the user)", () => {
    assert.ok(sameTableName('Sales:q1', 'Admin.Sales.q1'));
    assert.ok(sameTableName('Admin:Sales:q1', 'sales.Q1', 'admin'));
    assert.ok(sameTableName('Admin:Sales:q1', 'ADMIN.sales.q1', 'alice'), 'the same full name is the same table');
    assert.ok(!sameTableName('alice:Sales:q1', 'Sales.q1', 'Admin'), "without the owner the server reads the user's own table");
    assert.ok(!sameTableName('Admin:Sales:q1', 'Admin:Sales:q2'));
    assert.ok(!sameTableName('Admin:Sales:q1', 'q1'), 'a bare name is not a project and a table');
    assert.ok(sameTableName('planets', 'PLANETS'));
  });

  it('a file opened from the server takes the name the server answered after a push of that table', () => {
    const opened = new OpenedTables();
    const server = 'https://dg.example';
    opened.remember('/t/q1.csv', { name: 'Sales:q1', server });
    assert.equal(opened.pushName('/t/q1.csv', server), 'Sales:q1');
    opened.pushed('/t/q1.csv', server, { ID: 'id-1', name: 'Admin:Sales:q1', URL: 'https://dg.example/p/Admin.Sales/q1' }, 'Admin');
    assert.deepEqual(opened.get('/t/q1.csv'), { name: 'Admin:Sales:q1', server, id: 'id-1', url: 'https://dg.example/p/Admin.Sales/q1' });
    assert.equal(opened.pushName('/t/q1.csv', server), 'Admin:Sales:q1');
    // Another table pushed from that file (another ID), or another server: the file keeps its table.
    opened.pushed('/t/q1.csv', server, { ID: 'id-2', name: 'Admin:Other:q1' }, 'Admin');
    opened.pushed('/t/q1.csv', 'https://other.example', { ID: 'id-1', name: 'x:y:z' });
    assert.equal(opened.get('/t/q1.csv')?.name, 'Admin:Sales:q1');
    opened.remember('/t/d.csv', { name: 'Demo:demog', server });
    opened.pushed('/t/d.csv', server, { ID: 'id-3', name: 'alice:Demo:demog' }, 'Admin');
    assert.equal(opened.get('/t/d.csv')?.name, 'Demo:demog', "another user's table is not the one the file came from");
  });

  it('derives a default name from a file name: no extension, separators become underscores', () => {
    assert.equal(defaultTableName('/data/sales.csv'), 'sales');
    assert.equal(defaultTableName('C:\\data\\sales.2024.csv'), 'sales_2024');
    assert.equal(defaultTableName('a:b.tsv'), 'a_b');
    assert.equal(defaultTableName('.csv'), 'table');
    assert.equal(defaultTableName('Report.TXT'), 'Report');
  });

  it('makes safe file names for downloaded tables', () => {
    assert.equal(safeFileName('Demo:sales 2024'), 'Demo_sales_2024');
    assert.equal(safeFileName('..hidden'), '_hidden');
    assert.equal(safeFileName(''), 'table');
    assert.equal(safeFileName('x'.repeat(300)).length, 120);
  });
});

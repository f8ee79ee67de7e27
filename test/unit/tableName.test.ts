import * as assert from 'node:assert/strict';
import { isDatagrokError } from '../../src/api/errors';
import { checkTableName, defaultTableName, finalTableName, safeFileName, tableNamePreview, tableNameProblem } from '../../src/platform/tableName';

describe('table names', () => {
  it('accepts table, <project>.<table> and Project:table', () => {
    for (const name of ['sales', 'Demo.sales', 'Demo:sales', ' spaced ']) assert.equal(tableNameProblem(name), undefined, name);
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
    assert.throws(() => checkTableName('x..y'), (e: unknown) => isDatagrokError(e, 'badInput') && /Invalid table name "x\.\.y"/.test(e.message));
    assert.throws(() => checkTableName(42), (e: unknown) => isDatagrokError(e, 'badInput') && /must be text/.test(e.message));
  });

  it('says the final name before a push: a bare name gets a project of its own, periods become colons', () => {
    assert.equal(finalTableName('planets'), 'planets:planets');
    assert.equal(finalTableName(' Sales.q1 '), 'Sales:q1');
    assert.equal(finalTableName('Sales:q1'), 'Sales:q1');
    assert.equal(finalTableName('admin:Sales.q1'), 'admin:Sales:q1');
    const bare = tableNamePreview('planets');
    assert.ok('final' in bare && bare.final === 'planets:planets' && /Saved as planets:planets \(a name without a project/.test(bare.note), JSON.stringify(bare));
    const full = tableNamePreview('Demo.x');
    assert.ok('note' in full && full.note === 'Saved as Demo:x.', JSON.stringify(full));
    assert.deepEqual(tableNamePreview('Demo.'), { problem: tableNameProblem('Demo.') });
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

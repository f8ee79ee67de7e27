import * as assert from 'node:assert/strict';
import { isDatagrokError } from '../../src/api/errors';
import { checkTableName, defaultTableName, safeFileName, tableNameProblem } from '../../src/platform/tableName';

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

import * as assert from 'node:assert/strict';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DatagrokError } from '../../src/api/errors';
import { missingTableOf, missingTableProblems, placeholderProblems, tableReferences, valueNaming } from '../../src/functions/parameterTableChecks';
import { readHeader, type TableColumnsAnswer } from '../../src/platform/tables/columns';
import { describeFunc } from './funcFixture';

const func = describeFunc([
  { name: 'table', propertyType: 'dataframe', isInput: true },
  { name: 'column', propertyType: 'column', isInput: true },
  { name: 'other', propertyType: 'column', isInput: true, nullable: true },
]);

const server: Record<string, TableColumnsAnswer> = { 'Demo:demog': { columns: ['AGE', 'SEX'] }, 'Demo:nope': 'missing' };
const columnsOf = async (table: string) => {
  const answer = server[table];
  if (!answer) throw new DatagrokError('network', 'offline');
  return answer;
};

describe('parameter files: tables and columns on the server', () => {
  it('finds the tables the values name; $csv objects and placeholders name none', () => {
    const text = '{ "table": "Demo:demog", "column": "Demo:demog/AGE", "other": "table/column" }';
    assert.deepEqual(
      tableReferences(text, func).map((r) => [r.input, r.table, r.column]),
      [
        ['table', 'Demo:demog', undefined],
        ['column', 'Demo:demog', 'AGE'],
      ],
    );
    assert.deepEqual(tableReferences('{ "table": { "$csv": "./a.csv" } }', func), []);
  });

  it('flags the placeholder "table/column" on its value', () => {
    const text = '{ "column": "table/column" }';
    const [p] = placeholderProblems(text, func);
    assert.equal(p?.code, 'placeholder');
    assert.equal(text.slice(p!.offset, p!.offset + p!.length), '"table/column"');
  });

  it('reports a missing table and a missing column (with the near name), not what the server cannot tell', async () => {
    const text = '{ "table": "Demo:nope", "column": "Demo:demog/age", "other": "Offline:t/x" }';
    const problems = await missingTableProblems(text, func, 'example.org', columnsOf);
    assert.deepEqual(
      problems.map((p) => p.code),
      ['missingTable', 'missingColumn'],
    );
    assert.match(problems[0]!.message, /example\.org has no table "Demo:nope"/);
    assert.match(problems[1]!.message, /no column "age"; did you mean "AGE"\? \(its columns: AGE, SEX\)/);
    assert.deepEqual(await missingTableProblems('{ "table": "Demo:demog", "column": "Demo:demog/SEX" }', func, 'h', columnsOf), []);
  });

  it("reads the name of a missing table from the server's message, and finds the value that names it", () => {
    assert.equal(missingTableOf('Calling Demo:RowCount failed: not found (404): Table Demo:nope not found.'), 'Demo:nope');
    assert.equal(missingTableOf('Table table not found'), 'table');
    assert.equal(missingTableOf('Function Demo:X not found'), undefined);
    const text = '{ "$function": "Demo:ColumnStats", "column": "demo.nope/AGE" }';
    assert.equal(valueNaming(text, 'Demo:nope'), text.indexOf('"demo.nope/AGE"') + 1);
    assert.equal(valueNaming(text, 'Other:t'), undefined);
    // The server may name the table owner first.
    assert.equal(valueNaming(text, 'Admin:Demo:nope'), text.indexOf('"demo.nope/AGE"') + 1);
    const full = '{ "$function": "Demo:RowCount", "table": "Admin.Sales.q1" }';
    assert.equal(valueNaming(full, 'Sales:q1'), full.indexOf('"Admin.Sales.q1"') + 1);
    assert.equal(valueNaming(full, 'Admin:Sales:q1'), full.indexOf('"Admin.Sales.q1"') + 1);
  });

  it("reads a table's columns from its first line and stops the download", async () => {
    let aborted = false;
    const answer = await readHeader('t', async (target, signal) => {
      signal.addEventListener('abort', () => {
        aborted = true;
      });
      const body = Readable.from([Buffer.from('"A b",C'), Buffer.from('\n1,2\n'), Buffer.from('3,4\n'.repeat(1000))]);
      await pipeline(body, target.stream as Writable, { signal }).catch((e) => {
        throw signal.aborted ? new DatagrokError('cancelled', 'stopped') : e;
      });
    });
    assert.deepEqual(answer, { columns: ['A b', 'C'] });
    assert.ok(aborted, 'the download was not stopped after the header');
    assert.equal(await readHeader('t', async () => Promise.reject(new DatagrokError('notFound', 'Table t not found'))), 'missing');
    await assert.rejects(
      readHeader('t', async () => Promise.reject(new DatagrokError('network', 'offline'))),
      /offline/,
    );
  });
});

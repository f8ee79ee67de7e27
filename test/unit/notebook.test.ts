// The notebook's pure parts: the .dgnb file (round trip, diffs, outputs kept only when asked), the call
// cell's syntax, the variables and which cells a change makes stale.
import * as assert from 'node:assert/strict';
import { type CellSyntaxError, cellKind, parseCallCell } from '../../src/platform/notebook/cells';
import { type NotebookFormatError, type NotebookText, parseNotebook, serializeNotebook } from '../../src/platform/notebook/format';
import { describeVariable, staleBelow } from '../../src/platform/notebook/variables';

const chain: NotebookText = {
  settings: {},
  cells: [
    { language: 'markdown', text: '# Orders\n\nA query, a script, a call.' },
    { language: 'sql', text: '--connection: Demo:Northwind\n--output: dataframe orders\nselect * from orders' },
    { language: 'python', text: '#language: python\n#input: dataframe orders\n#output: dataframe cleaned\ncleaned = orders.dropna()\n' },
    { language: 'datagrok-call', text: 'Demo:RowCount(table: cleaned)' },
    { language: 'jsonc', text: '{ "$function": "Demo:Describe", "table": "cleaned" }' },
  ],
};

/** The lines that differ between two texts of the same number of lines or more (a simple line diff). */
function changedLines(a: string, b: string): number {
  const x = a.split('\n');
  const y = b.split('\n');
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start++;
  let endX = x.length - 1;
  let endY = y.length - 1;
  while (endX >= start && endY >= start && x[endX] === y[endY]) {
    endX--;
    endY--;
  }
  return Math.max(endX - start + 1, 0) + Math.max(endY - start + 1, 0);
}

describe('notebook file format', () => {
  it('reads back what it wrote: languages, texts (trailing newlines and blank lines kept), settings', () => {
    const text = serializeNotebook(chain);
    assert.deepEqual(parseNotebook(text), chain);
    const odd: NotebookText = {
      settings: { saveOutputs: false },
      cells: [
        { language: 'python', text: '' },
        { language: 'r', text: '\n\nx <- 1\n\n' },
        { language: 'markdown', text: '' },
      ],
    };
    assert.deepEqual(parseNotebook(serializeNotebook(odd)), odd);
  });

  it('writes each cell as a marker line and its text as is: readable in a review', () => {
    const text = serializeNotebook(chain);
    assert.match(text, /^%% datagrok-notebook\n\n%% markdown\n# Orders\n/);
    assert.match(text, /\n%% sql\n--connection: Demo:Northwind\n--output: dataframe orders\nselect \* from orders\n\n%% python\n/);
    assert.ok(text.endsWith('\n'));
  });

  it('a one-line edit in a cell is a one-line change of the file; a new cell adds only its lines', () => {
    const before = serializeNotebook(chain);
    const edited = structuredClone(chain);
    edited.cells[2].text = edited.cells[2].text.replace('dropna()', 'dropna(how="all")');
    assert.equal(changedLines(before, serializeNotebook(edited)), 2);
    const added = structuredClone(chain);
    added.cells.splice(1, 0, { language: 'markdown', text: 'Step one' });
    assert.equal(changedLines(before, serializeNotebook(added)), 3);
  });

  it("a text line starting with %% stays the cell's (escaped with one more %)", () => {
    const nb: NotebookText = { settings: {}, cells: [{ language: 'python', text: '%% not a marker\n%%% neither\nx = 1' }] };
    const text = serializeNotebook(nb);
    assert.match(text, /\n%%% not a marker\n%%%% neither\n/);
    assert.deepEqual(parseNotebook(text), nb);
  });

  it('leaves outputs out unless the notebook says saveOutputs; then a table only by its reference and shape', () => {
    const outputs = [
      { name: 'orders', type: 'dataframe', table: 'a1b2', rows: 1_000_000, columns: 14 },
      { name: 'count', type: 'int', value: 3 },
    ];
    const nb: NotebookText = { settings: {}, cells: [{ language: 'sql', text: 'select 1', outputs }] };
    assert.ok(!serializeNotebook(nb).includes('%% output'));
    const saved: NotebookText = {
      settings: { saveOutputs: true },
      cells: [
        { language: 'sql', text: 'select 1', outputs },
        { language: 'markdown', text: 'end' },
      ],
    };
    const text = serializeNotebook(saved);
    assert.match(text, /^%% datagrok-notebook {"saveOutputs":true}\n/);
    assert.match(text, /%% output {"name":"orders","type":"dataframe","table":"a1b2","rows":1000000,"columns":14}\n/);
    assert.deepEqual(parseNotebook(text), saved);
  });

  it('reads CRLF files and an empty file', () => {
    assert.deepEqual(parseNotebook('%% datagrok-notebook\r\n\r\n%% python\r\nx = 1\r\n'), { settings: {}, cells: [{ language: 'python', text: 'x = 1' }] });
    assert.deepEqual(parseNotebook(''), { settings: {}, cells: [] });
  });

  it('refuses a file that is not a notebook, naming the line', () => {
    assert.throws(
      () => parseNotebook('{"cells": []}'),
      (e: NotebookFormatError) => e.line === 1 && /starts with "%% datagrok-notebook"/.test(e.message),
    );
    assert.throws(
      () => parseNotebook('%% datagrok-notebook {bad'),
      (e: NotebookFormatError) => e.line === 1 && /JSON/.test(e.message),
    );
    assert.throws(
      () => parseNotebook('%% datagrok-notebook\nstray text\n%% python\n'),
      (e: NotebookFormatError) => e.line === 2,
    );
    assert.throws(
      () => parseNotebook('%% datagrok-notebook\n%% python\nx\n%% output {"name": 1}\n'),
      (e: NotebookFormatError) => e.line === 4 && /"name"/.test(e.message),
    );
  });
});

describe('notebook cells', () => {
  it('tells the kinds apart by language', () => {
    assert.deepEqual(['markdown', 'sql', 'python', 'r', 'javascript', 'datagrok-call', 'jsonc'].map(cellKind), ['markdown', 'query', 'script', 'script', 'script', 'call', 'call']);
  });

  it('reads a call: JSON values, variables by name, an assigned name, comments and lines', () => {
    assert.deepEqual(parseCallCell('Chem:Descriptors(table: scored, column: "smiles", n: 10, flags: [1, 2], o: {"a": "b,c"})'), {
      function: 'Chem:Descriptors',
      assignTo: undefined,
      args: { table: { variable: 'scored' }, column: { value: 'smiles' }, n: { value: 10 }, flags: { value: [1, 2] }, o: { value: { a: 'b,c' } } },
    });
    assert.deepEqual(parseCallCell('// count them\ntop = Demo:Top(\n  table: orders,\n  ok: true,\n)'), {
      function: 'Demo:Top',
      assignTo: 'top',
      args: { table: { variable: 'orders' }, ok: { value: true } },
    });
    assert.deepEqual(parseCallCell('Demo:Now()').args, {});
  });

  it('says what is wrong with a call and on which line of the cell', () => {
    const fails = (text: string, line: number, message: RegExp) =>
      assert.throws(
        () => parseCallCell(text),
        (e: CellSyntaxError) => e.line === line && message.test(e.message),
      );
    fails('', 0, /empty/);
    fails('select 1', 0, /not a function call/);
    fails('Demo:Top(\n  table: orders,\n  n: 1 2\n)', 2, /value of n/);
    fails('Demo:Top(table: orders', 0, /closing/);
    fails('Demo:Top(a: 1, a: 2)', 0, /twice/);
    fails('Demo:Top(a 1)', 0, /name: value/);
  });
});

describe('notebook variables and staleness', () => {
  it('marks the cells below that read what a changed cell writes, in turn', () => {
    const flows = [
      { reads: [], writes: ['orders'] },
      { reads: ['orders'], writes: ['cleaned'] },
      { reads: [], writes: ['other'] },
      { reads: ['cleaned'], writes: ['count'] },
      { reads: ['other'], writes: [] },
    ];
    assert.deepEqual(staleBelow(flows, 0), [1, 3]);
    assert.deepEqual(staleBelow(flows, 2), [4]);
    assert.deepEqual(staleBelow(flows, 4), []);
    // A name written again in between no longer comes from the changed cell.
    assert.deepEqual(
      staleBelow(
        [
          { reads: [], writes: ['t'] },
          { reads: [], writes: ['t'] },
          { reads: ['t'], writes: [] },
        ],
        0,
      ),
      [],
    );
  });

  it('describes a table by its shape and a scalar by its value', () => {
    assert.equal(describeVariable({ name: 't', type: 'dataframe', cell: 0, rows: 830, columns: 14 }), '830 rows × 14 columns');
    assert.equal(describeVariable({ name: 'n', type: 'int', cell: 1, value: 3 }), 'int 3');
  });
});

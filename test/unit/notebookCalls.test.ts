// A notebook's function-call cells as the user types them: where the cursor is, what the cells above make,
// and the checks (an unreadable call, an unknown function, an argument naming no input, a required input
// missing, a variable no cell above makes) with the offending text's offsets.
import * as assert from 'node:assert/strict';
import type { FuncParam } from '../../src/api/types';
import { callProblems, callSpotAt, scriptCellProblems } from '../../src/platform/notebook/callAssist';
import { parseCallLayout } from '../../src/platform/notebook/cells';
import { declaredOutputs, describeKnown, type KnownVariable, variablesAt } from '../../src/platform/notebook/notebookFlow';
import { describeFunc } from './funcFixture';

const param = (name: string, propertyType: string, isInput = true, more: Partial<FuncParam> = {}): FuncParam => ({ name, propertyType, isInput, ...more });
const normalize = describeFunc(
  [
    param('table', 'dataframe'),
    param('column', 'string'),
    param('method', 'string', true, { defaultValue: 'z-score', choices: ['z-score', 'min-max'] }),
    param('result', 'dataframe', false),
  ],
  { nqName: 'Scripts:Normalize', name: 'Normalize', package: 'Scripts' },
);
const OUTPUTS: Record<string, FuncParam[]> = { 'scripts:normalize': [param('result', 'dataframe', false)], 'demo:rowcount': [param('count', 'int', false)] };
const outputsOf = (name: string) => OUTPUTS[name.toLowerCase()];

/** The text a problem's span covers. */
const at = (text: string, p: { span: { start: number; end: number } }) => text.slice(p.span.start, p.span.end);

const known = (name: string, type: string, cell: number): KnownVariable => ({ name, type, cell, made: false });

describe('notebook call cells: where the cursor is', () => {
  const spot = (marked: string) => callSpotAt(marked.replace('|', ''), marked.indexOf('|'));

  it("on the function's name, before the call's parenthesis (also after `name =`)", () => {
    assert.deepEqual(spot('Scripts:Nor|'), { kind: 'function', span: { start: 0, end: 11 } });
    assert.deepEqual(spot('top = Scr|ipts:X(a: 1)'), { kind: 'function', span: { start: 6, end: 15 } });
    assert.deepEqual(spot('|'), { kind: 'function', span: { start: 0, end: 0 } });
    assert.equal(spot('// a comment |\nDemo:Add(a: 1)').kind, 'none');
  });

  it("on an argument's name: the function, the names given elsewhere, the argument's place", () => {
    assert.deepEqual(spot('Scripts:Normalize(table: t, co|'), { kind: 'argument', function: 'Scripts:Normalize', span: { start: 28, end: 30 }, given: ['table'], index: 1 });
    assert.deepEqual(spot('x = Demo:Add(|)'), { kind: 'argument', function: 'Demo:Add', span: { start: 13, end: 13 }, given: [], index: 0 });
    assert.deepEqual(spot('Demo:Add(\n  a: 1,\n  |\n)').kind, 'argument');
  });

  it("in an argument's value: its key (quotes and brackets respected)", () => {
    const s = spot('Scripts:Normalize(method: "z-|", table: t)');
    assert.equal(s.kind, 'value');
    assert.deepEqual(s.kind === 'value' && [s.key, s.given, s.index], ['method', ['table'], 0]);
    const t = spot('Demo:F(a: [1, 2], b: {"x": "y,z"}, c: |');
    assert.deepEqual(t.kind === 'value' && [t.key, t.given, t.index], ['c', ['a', 'b'], 2]);
    assert.equal(spot('Demo:Add(a: 1) |').kind, 'none');
  });
});

describe('notebook call cells: the variables the cells above make', () => {
  const cells = [
    { language: 'markdown', text: '# A' },
    { language: 'sql', text: '--connection: Samples:Northwind\n--output: dataframe orders\nselect 1' },
    { language: 'datagrok-call', text: 'scored = Scripts:Normalize(table: orders, column: "x")' },
    { language: 'datagrok-call', text: 'Demo:RowCount(table: scored)' },
    { language: 'python', text: '#input: dataframe late\n#output: dataframe later\nlater = late' },
    { language: 'jsonc', text: '{ "$function": "Demo:RowCount", "table": "orders" }' },
  ];

  it("are declared by headers and by the functions' outputs (the first named by `name =`)", () => {
    assert.deepEqual(declaredOutputs(cells[1], outputsOf), [{ name: 'orders', type: 'dataframe' }]);
    assert.deepEqual(declaredOutputs(cells[2], outputsOf), [{ name: 'scored', type: 'dataframe' }]);
    assert.deepEqual(declaredOutputs(cells[3], outputsOf), [{ name: 'count', type: 'int' }]);
    assert.deepEqual(declaredOutputs(cells[5], outputsOf), [{ name: 'count', type: 'int' }]);
    assert.deepEqual(
      declaredOutputs({ language: 'datagrok-call', text: 'x = Unknown:F()' }, () => undefined),
      [{ name: 'x', type: 'dynamic' }],
    );
    assert.deepEqual(declaredOutputs({ language: 'datagrok-call', text: 'Demo:RowCount(' }, outputsOf), [], 'an unreadable cell makes nothing');
  });

  it('above: the last cell making a name, with the shape of what a run made; below: the first cell making a name not above', () => {
    const made = [{ name: 'orders', type: 'dataframe', cell: 1, rows: 830, columns: 14 }];
    const declared = cells.map((c) => declaredOutputs(c, outputsOf));
    const { above, below } = variablesAt(declared, 3, made);
    assert.deepEqual([...above.keys()], ['orders', 'scored']);
    assert.deepEqual(above.get('orders'), { name: 'orders', type: 'dataframe', cell: 1, rows: 830, columns: 14, value: undefined, made: true });
    assert.equal(describeKnown(above.get('orders')!), 'dataframe, 830 rows × 14 columns, made by cell 2');
    assert.equal(describeKnown(above.get('scored')!), 'dataframe, made by cell 3 (not run yet)');
    assert.deepEqual(
      [...below],
      [
        ['later', 4],
        ['count', 5],
      ],
    );
    assert.equal(variablesAt(declared, 5, []).above.get('count')?.cell, 3);
    assert.equal(describeKnown({ name: 'n', type: 'int', cell: 0, value: 3, made: true }), 'int 3, made by cell 1');
  });
});

describe('notebook call cells: checks as you type', () => {
  const above = new Map([
    ['orders', known('orders', 'dataframe', 1)],
    ['n', known('n', 'int', 2)],
  ]);
  const facts = { func: normalize, above, below: new Map([['scored', 6]]) };

  it('a sound call has no problem', () => {
    assert.deepEqual(callProblems('Scripts:Normalize(table: orders, column: "x")', facts), []);
  });

  it('an unreadable call: where, on the offending text', () => {
    const text = 'Scripts:Normalize(\n  table: orders,\n  column "x"\n)';
    const [p] = callProblems(text, facts);
    assert.match(p.message, /^Line 3: Each argument is "name: value"/);
    assert.equal(at(text, p), 'column "x"');
    const open = 'Scripts:Normalize(table: orders';
    assert.equal(at(open, callProblems(open, facts)[0]), '(');
    const bad = 'Scripts:Normalize(table: orders, column: "x)';
    assert.equal(at(bad, callProblems(bad, facts)[0]), '"x');
  });

  it('an argument naming no input, a required input missing, a choice not offered', () => {
    const text = 'Scripts:Normalize(table: orders, colum: "x", method: "max")';
    const problems = callProblems(text, facts);
    assert.deepEqual(
      problems.map((p) => [p.severity, at(text, p), p.message]),
      [
        ['error', 'colum', 'Scripts:Normalize has no input "colum": did you mean "column"? Its inputs: table, column, method.'],
        ['warning', '"max"', 'method is one of "z-score", "min-max" (not "max").'],
        ['error', 'Scripts:Normalize', 'Scripts:Normalize needs its input column (string): add "column: <value>".'],
      ],
    );
  });

  it('a variable no cell above makes: which cell below would; else the closest name above', () => {
    const text = 'Scripts:Normalize(table: scored, column: "x")';
    const [p] = callProblems(text, facts);
    assert.equal(at(text, p), 'scored');
    assert.equal(p.message, 'No cell above makes "scored": cell 7, below this one, does. Move this cell below it.');
    assert.equal(callProblems('Scripts:Normalize(table: order, column: "x")', facts)[0].message, 'No cell above makes "order": did you mean "orders"?');
    const typed = 'Scripts:Normalize(table: n, column: "x")';
    assert.deepEqual(
      callProblems(typed, facts).map((p) => [p.severity, at(typed, p), p.message]),
      [['warning', 'n', '"n" is a int (cell 3), but the input table takes a dataframe.']],
    );
  });

  it('an unknown function only when the server said so, with the closest name', () => {
    const text = 'Scripts:Normalise(table: orders)';
    const problems = callProblems(text, { above, below: new Map(), missing: true, functionNames: ['Scripts:Normalize', 'Demo:Add'] });
    assert.deepEqual(
      problems.map((p) => [at(text, p), p.message]),
      [['Scripts:Normalise', 'The server has no function "Scripts:Normalise": did you mean Scripts:Normalize?']],
    );
    assert.deepEqual(callProblems(text, { above, below: new Map() }), [], 'nothing known: nothing said');
  });

  it('layout: the spans of the name, the assignment and each argument', () => {
    const text = '// note\nout = Demo:Add(a: 1,\n  b: n)';
    const layout = parseCallLayout(text);
    assert.equal(text.slice(layout.functionSpan.start, layout.functionSpan.end), 'Demo:Add');
    assert.equal(text.slice(layout.assignSpan!.start, layout.assignSpan!.end), 'out');
    assert.deepEqual(
      layout.args.map((a) => [text.slice(a.keySpan.start, a.keySpan.end), text.slice(a.valueSpan.start, a.valueSpan.end)]),
      [
        ['a', '1'],
        ['b', 'n'],
      ],
    );
  });

  it('a script cell: a table input no cell above makes (one with an initial value is fine)', () => {
    const text = '#input: dataframe orders\n#input: dataframe scored\n#input: dataframe other = "t"\nx = 1';
    const problems = scriptCellProblems({ language: 'python', text }, facts);
    assert.deepEqual(
      problems.map((p) => at(text, p)),
      ['scored'],
    );
    assert.match(problems[0].message, /cell 7, below this one, does/);
  });
});

// The header parser on the documented examples of the annotation format (datagrok-ai/public,
// help/datagrok/concepts/functions/func-params-annotation.md), in each comment style.
import * as assert from 'node:assert/strict';
import { mayBeScript, scriptPrefix } from '../../src/core/scriptFileNames';
import { choiceList, parseOptions, parseScriptHeader } from '../../src/platform/scripts/header';
import { prefixOfFile } from '../../src/platform/scripts/vocabulary';
import { headerProblems, headerSignature, initialInputs } from '../../src/platform/scripts/signature';
import { headerSpot, inFirstCommentBlock } from '../../src/platform/scripts/headerContext';

const lines = (...l: string[]) => l.join('\n');

describe('script headers', () => {
  it("reads the reference's simple Python script: keys, a dataframe input and an int output with descriptions", () => {
    const h = parseScriptHeader(
      lines(
        '#language: python',
        '#name: GetCellNumber',
        '#description: Calculates number of cells in the table',
        '#tags: demo',
        '#input: dataframe table [Data table]',
        '#output: int count [Number of cells in table]',
        'count = table.shape[0] * table.shape[1]',
      ),
      '#',
    );
    assert.ok(h);
    assert.equal(h.value('name'), 'GetCellNumber');
    assert.equal(h.value('language'), 'python');
    assert.equal(h.lastLine, 5);
    assert.deepEqual(
      h.inputs.map((p) => [p.type, p.name, p.description]),
      [['dataframe', 'table', 'Data table']],
    );
    assert.deepEqual(
      h.outputs.map((p) => [p.type, p.name, p.description]),
      [['int', 'count', 'Number of cells in table']],
    );
    const sig = headerSignature(h, 'cells.py');
    assert.equal(sig.nqName, 'GetCellNumber');
    assert.equal(sig.kind, 'script');
    assert.deepEqual(sig.tags, ['demo']);
    assert.deepEqual(headerProblems(h), []);
  });

  it('reads choices, a plain input and an output (the inputs-and-outputs example)', () => {
    const h = parseScriptHeader(
      lines('#name: Ship', '#language: python', '#input: string country {choices: ["USA", "Canada"]} [Country to ship from]', '#input: double weight', '#output: double price'),
      '#',
    );
    assert.ok(h);
    const [country, weight] = h.inputs;
    assert.deepEqual(country.choices, ['USA', 'Canada']);
    assert.equal(country.description, 'Country to ship from');
    assert.equal(weight.type, 'double');
    assert.equal(weight.initial, undefined);
    assert.equal(h.outputs[0].name, 'price');
  });

  it('reads JavaScript headers: initial values, captions and descriptions', () => {
    const h = parseScriptHeader(
      lines(
        '//name: ParameterTestFunction',
        '//description: Small function to illustrate parameter mapping',
        '//language: javascript',
        '//input: int one=1 {caption: First} [First parameter]',
        '//input: int two=2 {caption: Second} [Second parameter]',
        'export function f(two, one) {}',
      ),
      '//',
    );
    assert.ok(h);
    assert.deepEqual(
      h.inputs.map((p) => [p.name, p.initial, p.options.caption, p.description]),
      [
        ['one', 1, 'First', 'First parameter'],
        ['two', 2, 'Second', 'Second parameter'],
      ],
    );
    assert.deepEqual(initialInputs(h), { one: 1, two: 2 });
  });

  it('reads SQL query headers: connection, quoted initial values, query choices, list<string> with separators', () => {
    const h = parseScriptHeader(
      lines(
        '--name: OrdersByEmployee',
        '--friendlyName: OrdersByEmployee',
        '--connection: PostgresNorthwind',
        '--input: string shipCountry = "Spain" {choices: Query("SELECT DISTINCT shipCountry FROM orders")}',
        '--input: string shipCity = "Barcelona" {choices: Query("SELECT DISTINCT shipcity FROM orders WHERE shipCountry = @shipCountry")}',
        '--input: list<string> employee {inputType: TextArea; separators: ,}',
        '',
        'SELECT * FROM orders',
      ),
      '--',
    );
    assert.ok(h);
    assert.equal(h.value('connection'), 'PostgresNorthwind');
    const [country, city, employee] = h.inputs;
    assert.equal(country.initial, 'Spain');
    assert.equal(country.options.choices, 'Query("SELECT DISTINCT shipCountry FROM orders")');
    assert.equal(country.choices, undefined, 'choices a query gives are not a list');
    assert.equal(city.initial, 'Barcelona');
    assert.equal(employee.type, 'list<string>');
    assert.equal(employee.baseType, 'list');
    assert.deepEqual(employee.options, { inputType: 'TextArea', separators: ',' });
    const sig = headerSignature(h, 'orders.sql');
    assert.equal(sig.kind, 'query');
    assert.deepEqual(headerProblems(h, ['Demo:PostgresNorthwind']), []);
    assert.match(headerProblems(h, ['Demo:PostgresNorthwnd'])[0].message, /no connection "PostgresNorthwind": did you mean/);
  });

  it('reads nullable initial values, single-quoted and bracketed choices, list initial values', () => {
    const h = parseScriptHeader(
      lines(
        '--name: q',
        '--connection: db',
        '--input: string shipCountry = "France" { nullable: true }',
        "--input: string c2 = \"France\" {choices: ['France', 'Italy', 'Germany']}",
        "--input: list<string> shipCountries = [\"France\", \"Germany\"] {choices: ['France', 'Italy', 'Germany']}",
        '--input: string freightValue = >= 10.0 {pattern: double}',
      ),
      '--',
    );
    assert.ok(h);
    const [a, b, c, d] = h.inputs;
    assert.equal(a.options.nullable, 'true');
    assert.equal(headerSignature(h, 'q.sql').params?.[0].nullable, true);
    assert.deepEqual(b.choices, ['France', 'Italy', 'Germany']);
    assert.deepEqual(c.initial, ['France', 'Germany']);
    assert.deepEqual(c.choices, ['France', 'Italy', 'Germany']);
    assert.equal(d.initial, '>= 10.0');
    assert.equal(d.options.pattern, 'double');
  });

  it('reads options with expressions, units, regex validators and comma-separated options', () => {
    const h = parseScriptHeader(
      lines(
        '//name: car',
        '//language: javascript',
        "//input: string type = 'ICE' { choices: ['Electric', 'ICE'] }",
        "//input: bool tankExtension = false { visible: type == 'ICE'; enabled: tankVolume > 50 }",
        '//input: double bar = 2 { min: 0; max: 10 }',
        '//input: string code = "1234" {validator: /^[0-9]{4}$/}',
        '//input: string fruit { choices: ["Apple", "Banana"], inputType: Radio }',
        '//output: dataframe res {meta: {".data-connection": "System:Datagrok"}}',
      ),
      '//',
    );
    assert.ok(h);
    const [type, ext, bar, code, fruit] = h.inputs;
    assert.equal(type.initial, 'ICE');
    assert.equal(ext.initial, false);
    assert.deepEqual(ext.options, { visible: "type == 'ICE'", enabled: 'tankVolume > 50' });
    assert.equal(bar.initial, 2);
    assert.deepEqual(bar.options, { min: '0', max: '10' });
    assert.equal(code.options.validator, '/^[0-9]{4}$/');
    assert.deepEqual(fruit.choices, ['Apple', 'Banana']);
    assert.equal(fruit.options.inputType, 'Radio');
    assert.equal(h.outputs[0].options.meta, '{".data-connection": "System:Datagrok"}');
    assert.deepEqual(headerProblems(h), []);
  });

  it('reads the complex annotation example: every table type, range, bool, graphics', () => {
    const h = parseScriptHeader(
      lines(
        '#name: PCA',
        '#language: python',
        '#input: dataframe t1 {columns:numerical} [first input data table]',
        '#input: column x {type:numerical; table:t1} [x axis column name]',
        '#input: column date {type:datetime; format:mm/dd/yyyy} [date column name]',
        '#input: column_list numdata {type:numerical; table:t1} [numerical columns names]',
        '#input: int numcomp = 2 {range:2-7} [number of components]',
        '#input: bool center = true [number of components]',
        '#input: string type = high {choices: ["high", "low"]} [type of filter]',
        '#input: datetime since',
        '#input: file f',
        '#input: blob b',
        '#output: dataframe result {action:join(t1)} [pca components]',
        '#output: graphics scatter [scatter plot]',
      ),
      '#',
    );
    assert.ok(h);
    assert.deepEqual(
      h.inputs.map((p) => p.baseType),
      ['dataframe', 'column', 'column', 'column_list', 'int', 'bool', 'string', 'datetime', 'file', 'blob'],
    );
    assert.equal(h.inputs[0].options.columns, 'numerical');
    assert.deepEqual(h.inputs[2].options, { type: 'datetime', format: 'mm/dd/yyyy' });
    assert.equal(h.inputs[4].initial, 2);
    assert.equal(h.inputs[4].options.range, '2-7');
    assert.equal(h.inputs[5].initial, true);
    assert.equal(h.inputs[6].initial, 'high');
    assert.equal(h.outputs[0].options.action, 'join(t1)');
    assert.equal(h.outputs[1].baseType, 'graphics');
    assert.deepEqual(headerProblems(h), []);
    assert.deepEqual(initialInputs(h), { numcomp: 2, center: true, type: 'high' });
  });

  it('reads R headers, meta keys and a query without inputs', () => {
    const r = parseScriptHeader(
      lines('#name: Fit', '#language: r', '#meta.categoryGroups: {"Model": ["Input Data"]}', '#input: dataframe data {category: Input Data}', 'x <- 1'),
      '#',
    );
    assert.equal(r?.value('meta.categoryGroups'), '{"Model": ["Input Data"]}');
    assert.equal(r?.inputs[0].options.category, 'Input Data');
    const q = parseScriptHeader(lines('--name: protein classification', '--connection: chembl', 'select * from protein_classification;', '--end'), '--');
    assert.equal(q?.value('name'), 'protein classification');
    assert.equal(q?.lastLine, 1);
    assert.deepEqual(q?.inputs, []);
  });

  it('finds an unknown type, a duplicate input, a missing name and language', () => {
    const h = parseScriptHeader(lines('#description: x', '#input: dataframe table', '#input: integer n', '#input: int table'), '#');
    assert.ok(h);
    const problems = headerProblems(h).map((p) => p.message);
    assert.ok(problems.some((m) => /no name/.test(m)));
    assert.ok(problems.some((m) => /no language/.test(m)));
    assert.ok(problems.some((m) => /Unknown type "integer": did you mean "int"\?/.test(m)));
    assert.ok(problems.some((m) => /"table" is declared twice \(first on line 2\)/.test(m)));
    const bad = headerProblems(h).find((p) => /integer/.test(p.message));
    assert.deepEqual([bad?.line, bad?.start, bad?.end], [2, 8, 15]);
  });

  it('knows a header only in the first comment block of a Datagrok script', () => {
    assert.equal(parseScriptHeader(lines('# just a comment', 'import os'), '#'), undefined);
    assert.equal(parseScriptHeader(lines('import os', '#name: late'), '#'), undefined);
    assert.ok(parseScriptHeader(lines('#!/usr/bin/env python', '', '#name: x', '#language: python'), '#'));
    assert.equal(prefixOfFile('a/b.R'), '#');
    assert.equal(prefixOfFile('q.sql'), '--');
    assert.equal(prefixOfFile('s.js'), '//');
    assert.equal(prefixOfFile('n.txt'), undefined);
  });

  it('splits options and choice lists the way the reference writes them', () => {
    assert.deepEqual(parseOptions('choices: Samples:countries'), { choices: 'Samples:countries' });
    assert.deepEqual(parseOptions(' choices: OpenFile("System:AppData/Compute/cars.csv"); propagateChoice: all '), {
      choices: 'OpenFile("System:AppData/Compute/cars.csv")',
      propagateChoice: 'all',
    });
    assert.deepEqual(parseOptions('validators: ["containslettersonly"]'), { validators: '["containslettersonly"]' });
    assert.deepEqual(choiceList('[A, B c]'), ['A', 'B c']);
  });
});

describe('script header editing context', () => {
  it('tells what the cursor completes: a key, a value, a type, an option', () => {
    assert.deepEqual(headerSpot('#lang', '#'), { kind: 'key', typed: 'lang', start: 1 });
    assert.deepEqual(headerSpot('--connection: North', '--'), { kind: 'value', key: 'connection', typed: 'North', start: 14 });
    assert.deepEqual(headerSpot('//input: data', '//'), { kind: 'type', direction: 'input', typed: 'data', start: 9 });
    assert.deepEqual(headerSpot('#input: int n = 2 {min: 0; ca', '#'), { kind: 'option', typed: 'ca', start: 27 });
    assert.deepEqual(headerSpot('#input: int n = 2 {min: 0} [x', '#'), { kind: 'none' });
    assert.deepEqual(headerSpot('x = 1', '#'), { kind: 'none' });
    assert.equal(inFirstCommentBlock(['', '#name: a', '#in'], 2, '#'), true);
    assert.equal(inFirstCommentBlock(['#name: a', 'x = 1', '#in'], 2, '#'), false);
  });

  it('finds scripts cheaply by file name and first lines, without the parser', () => {
    assert.equal(
      mayBeScript('python', '/a/cells.py', () => '#name: Cells\n#language: python\n'),
      true,
    );
    assert.equal(
      mayBeScript('python', '/a/tool.py', () => '# a tool\nimport os\n'),
      false,
    );
    assert.equal(
      mayBeScript('sql', '/a/q.sql', () => '--connection: db\nselect 1'),
      true,
    );
    assert.equal(
      mayBeScript('json', '/a/x.json', () => '#name: x'),
      false,
    );
    assert.equal(scriptPrefix('javascript', 'Untitled-1'), '//');
    assert.equal(scriptPrefix('plaintext', '/a/b.R'), '#');
  });
});

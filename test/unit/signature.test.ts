import * as assert from 'node:assert/strict';
import { parseParameterFile } from '../../src/functions/parameterFile';
import { jsonTypeOf, parameterFileText, signatureLine } from '../../src/platform/functions/signature';
import { describeFunc } from './funcFixture';

const func = describeFunc(
  [
    { name: 'digits', propertyType: 'int', isInput: true, defaultValue: 2, description: 'Rounding' },
    { name: 'table', propertyType: 'dataframe', isInput: true, description: 'The data' },
    { name: 'method', propertyType: 'string', isInput: true, choices: ['mean', 'median'], nullable: false },
    { name: 'result', propertyType: 'dataframe', isInput: false },
  ],
  { description: 'Column statistics' },
);

describe('function signatures', () => {
  it('reads as one line: inputs with types and defaults, then outputs', () => {
    assert.equal(signatureLine(func), 'Stats:Describe(digits: int = 2, table: dataframe, method: string) → result: dataframe');
  });

  it('maps platform types to what a parameter file holds', () => {
    assert.equal(jsonTypeOf('double'), 'number');
    assert.equal(jsonTypeOf('bool'), 'boolean');
    assert.match(jsonTypeOf('dataframe'), /\$csv/);
    assert.equal(jsonTypeOf('column'), '"<table>/<column>"');
    assert.equal(jsonTypeOf('list'), 'array');
  });

  it('writes a parameter file that parses, required inputs first, with types and descriptions as comments', () => {
    const text = parameterFileText(func);
    const parsed = parseParameterFile(text, 'the new file');
    assert.equal(parsed.functionName, 'Stats:Describe');
    assert.deepEqual(Object.keys(parsed.params), ['table', 'method', 'digits']);
    assert.deepEqual(parsed.params, { table: '', method: 'mean', digits: 2 });
    assert.match(text, /\/\/ table ID or name, or \{ "\$csv": "\.\/file\.csv" \}, required: The data/);
    assert.match(text, /\/\/ string, required, one of "mean", "median"/);
    assert.match(text, /\/\/ number, optional: Rounding/);
  });

  it('a function without inputs still makes a valid file', () => {
    const parsed = parseParameterFile(parameterFileText({ ...func, params: [] }), 'f');
    assert.deepEqual(parsed, { functionName: 'Stats:Describe', params: {} });
  });
});

import * as assert from 'node:assert/strict';
import { isDatagrokError } from '../../src/api/errors';
import { parseJsonObject, positionOf } from '../../src/core/jsonc';
import { csvShape, looksLikeCsv, outputsOf } from '../../src/functions/outputs';
import { checkFunctionName, declaredFunction, functionNameProblem, PARAMETER_FILE_NAME, parseParameterFile, withoutToolingKeys } from '../../src/functions/parameterFile';

const badInput = (message: RegExp) => (e: unknown) => isDatagrokError(e, 'badInput') && message.test(e.message);

describe('JSONC reading', () => {
  it('allows comments and trailing commas', () => {
    assert.deepEqual(parseJsonObject('// c\n{ "a": 1, /* b */ "b": [1,], }', 'x'), { a: 1, b: [1] });
  });

  it('says where the text is broken, and that the root must be an object', () => {
    assert.throws(() => parseJsonObject('{\n  "a": 1\n  "b": 2\n}', 'The file "p.json"'), badInput(/"p\.json" is not valid JSON: CommaExpected at line 3, column 3/));
    assert.throws(() => parseJsonObject('[1, 2]', 'The layout'), badInput(/must contain a JSON object/));
    assert.deepEqual(positionOf('ab\ncd', 4), { line: 2, column: 2 });
  });
});

describe('parameter files', () => {
  it('reads $function and the inputs, without the tooling keys', () => {
    const file = parseParameterFile('{ "$schema": "s", "$function": " Demo:Add ", "a": 1, "b": 2 }', 'p');
    assert.deepEqual(file, { functionName: 'Demo:Add', params: { a: 1, b: 2 } });
    assert.deepEqual(parseParameterFile('  ', 'p'), { params: {} });
    assert.deepEqual(withoutToolingKeys({ $function: 'x', $schema: 'y', $csv: 'z' }), { $csv: 'z' });
  });

  it('refuses a function name without its package, with spaces or slashes', () => {
    assert.match(functionNameProblem('Add') ?? '', /with its package/);
    assert.match(functionNameProblem('Demo: Add') ?? '', /cannot contain spaces/);
    assert.match(functionNameProblem('') ?? '', /Package:Name/);
    assert.equal(functionNameProblem('Chem:Descriptors:v2'), undefined);
    assert.throws(() => checkFunctionName('Add', 'the file'), badInput(/Invalid function "Add" in the file/));
    assert.throws(() => parseParameterFile('{ "$function": 3 }', 'p'), badInput(/"\$function" key of p/));
  });

  it('finds the declared function cheaply, with its offset for the CodeLens', () => {
    const text = '{\n  // run me\n  "$function": "Demo:Add",\n  "a": 1\n}';
    assert.deepEqual(declaredFunction(text), { name: 'Demo:Add', offset: text.indexOf('"$function"') });
    assert.equal(declaredFunction('{ "a": 1 }'), undefined);
    assert.equal(declaredFunction('{ "$function": 1 }'), undefined);
    assert.equal(declaredFunction('[ "$function" ]'), undefined);
  });

  it('recognises parameter file names', () => {
    for (const name of ['add.datagrok.json', 'x.DGPARAMS.jsonc', 'a.datagrok.jsonc']) assert.ok(PARAMETER_FILE_NAME.test(name), name);
    for (const name of ['datagrok.json', 'add.json', 'add.datagrok.json.bak']) assert.ok(!PARAMETER_FILE_NAME.test(name), name);
  });
});

describe('function outputs', () => {
  it('reads an array result as several outputs, anything else as one', () => {
    assert.deepEqual(outputsOf([1, 'a']), [1, 'a']);
    assert.deepEqual(outputsOf(3), [3]);
  });

  it('tells a dataframe (CSV text) from ordinary text', () => {
    assert.ok(looksLikeCsv('a,b\n1,2'));
    assert.ok(looksLikeCsv('x\ty\n1\t2\n3\t4\n'));
    assert.ok(looksLikeCsv('count\n3\n'));
    assert.ok(!looksLikeCsv('Hello, world\nSecond line'));
    assert.ok(!looksLikeCsv('a,b'));
    assert.ok(!looksLikeCsv('{"a": 1}\n{"a": 2}'));
    assert.ok(!looksLikeCsv('The result\nis fine'));
    assert.ok(!looksLikeCsv(42));
    assert.deepEqual(csvShape('a,b\n1,2\n3,4\n'), { rows: 2, columns: 2 });
  });
});

import * as assert from 'node:assert/strict';
import { checkParameters, closestName, smallestEdit, typeProblem, withMissingInputs, withoutInput } from '../../src/functions/parameterChecks';
import { describeFunc } from './funcFixture';

const func = describeFunc([
  { name: 'table', propertyType: 'dataframe', isInput: true, description: 'The data' },
  { name: 'digits', propertyType: 'int', isInput: true, defaultValue: 2 },
  { name: 'method', propertyType: 'string', isInput: true, choices: ['mean', 'median'] },
  { name: 'since', propertyType: 'int', isInput: true, nullable: true },
  { name: 'flags', propertyType: 'list', isInput: true, nullable: true },
  { name: 'result', propertyType: 'dataframe', isInput: false },
]);

const at = (text: string, needle: string) => text.indexOf(needle);

describe('parameter checks', () => {
  it('a correct file has no problems; tooling keys are not inputs', () => {
    const text = '{\n  // comment\n  "$schema": "x",\n  "$function": "Stats:Describe",\n  "table": "demog",\n  "method": "mean",\n}\n';
    assert.deepEqual(checkParameters(text, func), []);
    assert.deepEqual(
      checkParameters('{ "$function": "Stats:Describe", "table": { "$csv": "./a.csv" }, "method": "median", "since": null, "flags": [1] }', func, () => true),
      [],
    );
  });

  it('reports an unknown input on its key', () => {
    const text = '{ "$function": "Stats:Describe", "table": "t", "method": "mean", "digitz": 3 }';
    const problems = checkParameters(text, func);
    assert.equal(problems.length, 1);
    assert.equal(problems[0].code, 'unknownInput');
    assert.equal(problems[0].input, 'digitz');
    assert.equal(problems[0].offset, at(text, '"digitz"'));
    assert.equal(problems[0].length, '"digitz"'.length);
    assert.match(problems[0].message, /has no input "digitz".*table, digits, method, since, flags/);
  });

  it('reports the missing required inputs once, on the "$function" key', () => {
    const text = '{ "$function": "Stats:Describe" }';
    const [problem, ...rest] = checkParameters(text, func);
    assert.deepEqual(rest, []);
    assert.equal(problem.code, 'missingInput');
    assert.equal(problem.offset, at(text, '"$function"'));
    assert.equal(problem.message, 'Stats:Describe needs the inputs "table", "method".');
  });

  it('reports values of the wrong JSON type on the value', () => {
    const text = '{ "$function": "Stats:Describe", "table": 5, "method": "mean", "digits": "2", "flags": "a" }';
    const problems = checkParameters(text, func);
    assert.deepEqual(
      problems.map((p) => [p.code, p.input]),
      [
        ['wrongType', 'table'],
        ['wrongType', 'digits'],
        ['wrongType', 'flags'],
      ],
    );
    assert.equal(problems[1].offset, at(text, '"2"'));
    assert.match(problems[1].message, /"digits" \(int\) expects an integer, not the string "2"/);
    assert.match(typeProblem(func.params![1], 2.5) ?? '', /expects an integer, not the number 2.5/);
    assert.match(typeProblem(func.params![0], null) ?? '', /is required/);
    assert.equal(typeProblem(func.params![3], null), undefined);
    assert.match(typeProblem(func.params![0], { path: 'x' }) ?? '', /not an object/);
  });

  it('reports a value outside the choices', () => {
    const problems = checkParameters('{ "$function": "Stats:Describe", "table": "t", "method": "mode" }', func);
    assert.deepEqual(
      problems.map((p) => p.code),
      ['notAChoice'],
    );
    assert.equal(problems[0].message, '"method" must be one of "mean", "median".');
  });

  it('reports a $csv path that does not exist, on the path', () => {
    const text = '{ "$function": "Stats:Describe", "table": { "$csv": "./missing.csv" }, "method": "mean" }';
    const seen: string[] = [];
    const problems = checkParameters(text, func, (p) => {
      seen.push(p);
      return false;
    });
    assert.deepEqual(seen, ['./missing.csv']);
    assert.equal(problems[0].code, 'missingCsv');
    assert.equal(problems[0].offset, at(text, '"./missing.csv"'));
    assert.deepEqual(checkParameters(text, func), []);
  });

  it('adds the missing inputs with defaults or placeholders, keeping the rest', () => {
    const text = '{\n  "$function": "Stats:Describe",\n  "digits": 1 // kept\n}\n';
    const fixed = withMissingInputs(text, func);
    assert.ok(fixed);
    // The placeholder of a table is empty: still to be filled in.
    assert.deepEqual(
      checkParameters(fixed, func).map((p) => [p.code, p.input, p.message]),
      [['wrongType', 'table', '"table" (dataframe) expects table ID or name, or { "$csv": "./file.csv" }, not an empty string.']],
    );
    assert.match(fixed, /"digits": 1/);
    assert.match(fixed, /"table": ""/);
    assert.match(fixed, /"method": "mean"/);
    assert.equal(withMissingInputs(fixed, func), undefined);
    assert.equal(withMissingInputs('{ "$function": "Stats:Describe", }', func)?.includes('"table"'), true);
  });

  it('removes an input and finds the smallest edit', () => {
    const text = '{\n  "$function": "Stats:Describe",\n  "x": 1,\n  "table": "t"\n}';
    const without = withoutInput(text, 'x');
    assert.equal(without, '{\n  "$function": "Stats:Describe",\n  "table": "t"\n}');
    const edit = smallestEdit(text, without);
    assert.equal(text.slice(0, edit.offset) + edit.text + text.slice(edit.offset + edit.length), without);
    assert.equal(edit.text, '');
  });

  it('suggests the closest known name only for a near miss', () => {
    const known = ['Demo:Add', 'Demo:Echo', 'Math:Round'];
    assert.equal(closestName('Demo:Ad', known), 'Demo:Add');
    assert.equal(closestName('demo:echo', known), 'Demo:Echo');
    assert.equal(closestName('Math:Rnd', known), 'Math:Round');
    assert.equal(closestName('Something:Else', known), undefined);
  });
});

describe('parameter checks: a test\'s "$expect"', () => {
  const add = describeFunc([
    { name: 'a', propertyType: 'double', isInput: true },
    { name: 'sum', propertyType: 'double', isInput: false },
  ]);

  it('takes "$expect", "$name", "$writes" and "$tolerance" for what they are, not unknown inputs', () => {
    assert.deepEqual(checkParameters('{ "$function": "Stats:Describe", "a": 1, "$expect": 1, "$name": "x", "$writes": false, "$tolerance": 0.1 }', add), []);
  });

  it('reports an "$expect" that does not fit the outputs, at its value', () => {
    const text = '{ "$function": "Stats:Describe", "a": 1, "$expect": "one" }';
    const [problem] = checkParameters(text, add);
    assert.equal(problem.code, 'badExpect');
    assert.match(problem.message, /"sum" is double: expect a number/);
    assert.equal(text.slice(problem.offset, problem.offset + problem.length), '"one"');
  });
});

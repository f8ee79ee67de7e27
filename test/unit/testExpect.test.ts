// Test cases and their expectations: parsing test files, judging answers (tolerance, types, dataframe
// checks, expected errors) and recording an answer as "$expect".
import * as assert from 'node:assert/strict';
import type { FuncParam } from '../../src/api/types';
import { junitXml } from '../../src/platform/tests/junit';
import { columnTypeOf, dataframeFacts } from '../../src/platform/tests/dataframeFacts';
import { caseId, parseTestFile } from '../../src/platform/tests/cases';
import { difference, errorMatches, expectationProblem, expectationSkeleton, judge, recordedExpectation } from '../../src/platform/tests/expect';

const out = (name: string, propertyType: string): FuncParam => ({ name, propertyType, isInput: false });
const CSV = 'name,age,height,member,born\nAnn,34,1.72,true,1990-01-02\nBob,41,1.80,false,1983-05-06\nCy,,1.65,true,2001-11-12\n';

describe('test files', () => {
  it('a parameter file without "$expect" is not a test', () => {
    assert.deepEqual(parseTestFile('{ "$function": "Demo:Add", "a": 1, "b": 2 }').cases, []);
    assert.deepEqual(parseTestFile('[{ "$function": "Demo:Add", "a": 1 }]').cases, []);
  });

  it('reads one case: its inputs without the tooling and test keys, its expectation, tolerance and write flag', () => {
    const [c] = parseTestFile('// a comment\n{ "$function": "Demo:Add", "$schema": "x", "a": 1, "b": 2, "$expect": 3, "$tolerance": 0.5, "$writes": true, }').cases;
    assert.deepEqual(c.params, { a: 1, b: 2 });
    assert.equal(c.expect, 3);
    assert.equal(c.tolerance, 0.5);
    assert.equal(c.writes, true);
    assert.equal(c.name, 'Demo:Add');
    assert.equal(c.inArray, false);
    assert.equal(caseId('tests/add.datagrok.json', c), 'tests/add.datagrok.json');
  });

  it('reads an array of cases: names made unique, "$function" carried over, ids with #name', () => {
    const { cases } = parseTestFile(
      '[{ "$function": "Demo:Add", "$name": "small", "a": 1, "b": 2, "$expect": 3 }, { "$name": "small", "a": 2, "b": 2, "$expect": 4 }, { "a": 0, "b": 0, "$expect": 0 }]',
    );
    assert.deepEqual(
      cases.map((c) => [c.name, c.functionName]),
      [
        ['small', 'Demo:Add'],
        ['small (2)', 'Demo:Add'],
        ['case 3', 'Demo:Add'],
      ],
    );
    assert.equal(caseId('t.datagrok.json', cases[1]), 't.datagrok.json#small (2)');
  });

  it('says why a case or a file cannot run', () => {
    assert.match(parseTestFile('{ "a": 1, "$expect": 1 }').cases[0].problem ?? '', /names no function/);
    assert.match(parseTestFile('{ "$function": "Add", "$expect": 1 }').cases[0].problem ?? '', /Package:Name/);
    assert.match(parseTestFile('{ "$function": "Demo:Add", "$expect": 1, "$tolerance": -1 }').cases[0].problem ?? '', /tolerance/);
    assert.match(parseTestFile('{ "$function": "Demo:Add", "$expect": 1, ').problem ?? '', /Not valid JSON/);
  });
});

describe('judging values', () => {
  it('deep-equal, with the first difference named by its path', () => {
    assert.equal(difference({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] }), undefined);
    assert.equal(difference({ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] }), 'a[1].b: expected "x", got "y"');
    assert.equal(difference([1, 2], [1, 2, 3]), 'the value: expected 2 items, got 3');
    assert.equal(difference({ a: 1 }, { a: 1, b: 2 }), 'the value: unexpected key "b"');
  });

  it('numbers within the tolerance pass, outside it fail', () => {
    assert.equal(judge(0.3, { ok: true, result: 0.1 + 0.2 }, { tolerance: 1e-9 }).pass, true);
    assert.equal(judge(0.3, { ok: true, result: 0.1 + 0.2 }).pass, false);
    const v = judge(3.14, { ok: true, result: 3.2 }, { tolerance: 0.01 });
    assert.equal(v.pass, false);
    assert.match(v.message, /expected 3.14, got 3.2 \(tolerance 0.01\)/);
    assert.equal(v.expected, '3.14');
    assert.equal(v.actual, '3.2');
  });

  it('types are not coerced: "5" is not 5, null is not 0', () => {
    assert.match(judge(5, { ok: true, result: '5' }).message, /expected number 5, got string "5"/);
    assert.equal(judge(null, { ok: true, result: 0 }).pass, false);
    assert.equal(judge(true, { ok: true, result: true }).pass, true);
  });

  it('several outputs by name: only the named ones are checked, the actual shown by name', () => {
    const outputs = [out('min', 'double'), out('max', 'double'), out('mean', 'double'), out('count', 'int')];
    const ok = judge({ max: 10, count: 4 }, { ok: true, result: [1, 10, 5.5, 4] }, { outputs });
    assert.equal(ok.pass, true);
    const bad = judge({ mean: 5 }, { ok: true, result: [1, 10, 5.5, 4] }, { outputs, tolerance: 0.1 });
    assert.equal(bad.message, 'mean: expected 5, got 5.5 (tolerance 0.1)');
    assert.deepEqual(JSON.parse(bad.actual), { mean: 5.5 });
  });
});

describe('expected errors', () => {
  it('passes when the call fails with a message containing the text, case-insensitive', () => {
    assert.equal(judge({ $error: 'MUST NOT be negative' }, { ok: false, error: 'x must not be negative' }).pass, true);
    assert.equal(errorMatches('/neg.*ve$/', 'x must not be negative'), true);
    const other = judge({ $error: 'timeout' }, { ok: false, error: 'x must not be negative' });
    assert.equal(other.pass, false);
    assert.deepEqual(JSON.parse(other.actual), { $error: 'x must not be negative' });
  });

  it('fails when the call answers, and a failed call fails a value expectation', () => {
    assert.match(judge({ $error: 'x' }, { ok: true, result: 2 }).message, /expected the call to fail/);
    assert.match(judge(2, { ok: false, error: 'boom' }).message, /the call failed: boom/);
  });
});

describe('dataframe checks', () => {
  it('infers column types from the values', () => {
    assert.deepEqual(
      dataframeFacts(CSV).columns.map((c) => c.type),
      ['string', 'int', 'double', 'bool', 'datetime'],
    );
    assert.equal(columnTypeOf(['', ' ']), 'string');
    assert.equal(columnTypeOf(['1', '2.5e3']), 'double');
  });

  it('the checksum ignores line endings and quoting, not content', () => {
    const a = dataframeFacts(CSV).checksum;
    assert.match(a, /^sha256:[0-9a-f]{64}$/);
    assert.equal(dataframeFacts(CSV.replace(/\n/g, '\r\n').replace('Ann', '"Ann"')).checksum, a);
    assert.notEqual(dataframeFacts(CSV.replace('Ann', 'Anne')).checksum, a);
  });

  it('checks rows, columns with types, the checksum and first rows', () => {
    const outputs = [out('result', 'dataframe')];
    const ok = { ok: true as const, result: CSV };
    assert.equal(judge({ rows: 3, columns: ['name', 'age', 'height', 'member', 'born'] }, ok, { outputs }).pass, true);
    assert.equal(judge({ columns: { name: 'string', age: 'double', height: 'number', member: 'bool', born: 'datetime' } }, ok, { outputs }).pass, true);
    assert.equal(judge({ checksum: dataframeFacts(CSV).checksum }, ok, { outputs }).pass, true);
    assert.equal(judge({ firstRows: [{ name: 'Ann', height: 1.7 }] }, ok, { outputs, tolerance: 0.05 }).pass, true);
    const rows = judge({ rows: 2, columns: ['name'] }, ok, { outputs });
    assert.equal(rows.message, 'rows: expected 2, got 3');
    assert.deepEqual(JSON.parse(rows.actual), { rows: 3, columns: ['name', 'age', 'height', 'member', 'born'] });
    assert.equal(
      judge({ columns: { name: 'string', age: 'string', height: 'double', member: 'bool', born: 'datetime' } }, ok, { outputs }).message,
      'column "age": expected type string, got int',
    );
    assert.equal(judge({ firstRows: [{ name: 'Ann' }, { age: 40 }] }, ok, { outputs }).message, 'firstRows[1].age: expected 40, got "41"');
  });

  it('a dataframe output is recognised without a signature, and compared as CSV text when "$expect" is text', () => {
    assert.equal(judge({ rows: 3 }, { ok: true, result: CSV }).pass, true);
    assert.equal(judge(CSV.replace(/\n/g, '\r\n'), { ok: true, result: CSV }).pass, true);
  });
});

describe('recording and checking "$expect"', () => {
  it('records a value, several outputs by name, a dataframe as rows, columns and checksum, an error as $error', () => {
    assert.equal(recordedExpectation({ ok: true, result: 5 }, [out('sum', 'double')]), 5);
    assert.deepEqual(recordedExpectation({ ok: true, result: [1, 2] }, [out('min', 'double'), out('max', 'double')]), { min: 1, max: 2 });
    const df = recordedExpectation({ ok: true, result: CSV }, [out('result', 'dataframe')]) as Record<string, unknown>;
    assert.deepEqual(df.columns, { name: 'string', age: 'int', height: 'double', member: 'bool', born: 'datetime' });
    assert.equal(df.rows, 3);
    assert.equal(judge(df, { ok: true, result: CSV }, { outputs: [out('result', 'dataframe')] }).pass, true);
    assert.deepEqual(recordedExpectation({ ok: false, error: 'boom' }), { $error: 'boom' });
  });

  it('says when "$expect" does not fit the outputs, and offers a skeleton that does', () => {
    assert.match(expectationProblem('x', [out('sum', 'double')]) ?? '', /expect a number/);
    assert.match(expectationProblem({ foo: 1 }, [out('result', 'dataframe')]) ?? '', /dataframe/);
    assert.match(expectationProblem({ avg: 1 }, [out('min', 'double'), out('max', 'double')]) ?? '', /no output "avg"/);
    assert.match(expectationProblem({ $error: 1 }, []) ?? '', /"\$error" is the text/);
    assert.equal(expectationProblem({ $error: 'x' }, [out('sum', 'double')]), undefined);
    const outputs = [out('min', 'double'), out('table', 'dataframe')];
    assert.deepEqual(expectationSkeleton(outputs), { min: 0, table: { rows: 0, columns: {} } });
    assert.equal(expectationProblem(expectationSkeleton(outputs), outputs), undefined);
  });
});

describe('JUnit XML', () => {
  it('writes one suite with a failure, an error and a skipped case, escaped', () => {
    const xml = junitXml(
      'Datagrok functions',
      [
        { id: 'a.datagrok.json', name: 'Demo:Add', outcome: 'passed', durationMs: 12 },
        { id: 'b.datagrok.json#big <one>', name: 'big <one>', outcome: 'failed', message: 'expected "5" & got 6', durationMs: 1500 },
        { id: 'c.datagrok.json', name: 'Demo:Fail', outcome: 'errored', message: 'not signed in\u0001' },
        { id: 'd.datagrok.json', name: 'writer', outcome: 'skipped', message: 'writes data' },
      ],
      new Date(0),
    );
    assert.match(xml, /<testsuite name="Datagrok functions" tests="4" failures="1" errors="1" skipped="1" time="1.512" timestamp="1970-01-01T00:00:00.000Z">/);
    assert.match(xml, /<testcase classname="b.datagrok.json" name="big &lt;one&gt;" time="1.500">\n {6}<failure message="expected &quot;5&quot; &amp; got 6">/);
    assert.match(xml, /<error message="not signed in">/);
    assert.match(xml, /<skipped message="writes data"\/>/);
    assert.equal(xml.match(/<testcase /g)?.length, 4);
  });
});

// What ▶ Run on Datagrok asks for a script's inputs (which, how, prefilled with what, checked how), how a
// script's own error is told, and how a script run's result is labelled.
import * as assert from 'node:assert/strict';
import { resultView } from '../../src/functions/resultParts';
import { parseScriptHeader } from '../../src/platform/scripts/header';
import { inputParams, inputProblem, inputPrompts, inputValue, promptText } from '../../src/platform/scripts/inputPrompts';
import { readRaised, scriptRaised } from '../../src/platform/scripts/scriptErrors';
import { DatagrokError } from '../../src/api/errors';

const header = (...lines: string[]) => {
  const h = parseScriptHeader(lines.join('\n'), '#');
  assert.ok(h);
  return h;
};

const SCRIPT = header(
  '#name: Everything',
  '#language: python',
  '#input: int a',
  '#input: double b = 2.5 [The factor]',
  '#input: bool flag = true',
  '#input: string mode = "fast" {choices: ["fast", "slow"]}',
  '#input: string note {optional: true; caption: Your note}',
  '#input: dataframe table',
  '#input: column col',
  '#input: list<string> tags = ["x", "y"]',
  '#input: datetime when',
  '#output: int c',
);

describe('script inputs asked before a run', () => {
  it('asks every named input in order, by its type, prefilled with the initial value as written', () => {
    const prompts = inputPrompts(SCRIPT);
    assert.deepEqual(
      prompts.map((p) => [p.name, p.kind, p.initialText]),
      [
        ['a', 'int', ''],
        ['b', 'number', '2.5'],
        ['flag', 'bool', 'true'],
        ['mode', 'choice', 'fast'],
        ['note', 'text', ''],
        ['table', 'dataframe', ''],
        ['col', 'column', ''],
        ['tags', 'list', 'x, y'],
        ['when', 'datetime', ''],
      ],
    );
    assert.deepEqual(prompts[2].choices, ['true', 'false']);
    assert.deepEqual(prompts[3].choices, ['fast', 'slow']);
    assert.equal(prompts[4].caption, 'Your note');
    assert.equal(prompts[4].optional, true);
    assert.equal(promptText(prompts[1]), 'b (double): The factor');
    assert.match(promptText(prompts[4]), /optional, leave empty to send nothing/);
  });

  it('checks each answer by type, in words that say what to type', () => {
    const [a, b, flag, mode, note, , col, , when] = inputPrompts(SCRIPT);
    assert.match(inputProblem(a, '') ?? '', /a has no default: type a value/);
    assert.match(inputProblem(a, '2.5') ?? '', /a is an int: type a whole number/);
    assert.equal(inputProblem(a, ' -3 '), undefined);
    assert.match(inputProblem(b, 'many') ?? '', /b is a double: type a number/);
    assert.equal(inputProblem(b, '1e3'), undefined);
    assert.match(inputProblem(flag, 'yes') ?? '', /one of true, false/);
    assert.match(inputProblem(mode, 'medium') ?? '', /one of fast, slow/);
    assert.equal(inputProblem(note, ''), undefined, 'an optional input may stay empty');
    assert.match(inputProblem(col, 'age') ?? '', /<table>\/<column>/);
    assert.equal(inputProblem(col, 'Demo:demog/age'), undefined);
    assert.match(inputProblem(when, 'someday') ?? '', /datetime/);
    assert.equal(inputProblem(when, '2024-05-31'), undefined);
  });

  it('sends values of the right JSON type; an empty optional input is left out', () => {
    const prompts = inputPrompts(SCRIPT);
    const texts = ['3', '2.5', 'false', 'slow', '', 'Demo:demog', 'Demo:demog/age', 'x, y ,z', '2024-05-31'];
    const params = inputParams(
      prompts,
      prompts.map((p, i) => inputValue(p, texts[i])),
    );
    assert.deepEqual(params, { a: 3, b: 2.5, flag: false, mode: 'slow', table: 'Demo:demog', col: 'Demo:demog/age', tags: ['x', 'y', 'z'], when: '2024-05-31' });
  });

  it('a script without inputs asks nothing', () => {
    assert.deepEqual(inputPrompts(header('#name: Hello', '#language: python', '#output: string s')), []);
  });
});

describe("a script's own error", () => {
  const names = { name: 'SumSq', called: 'SumSq_vscode_run_82a2cfea', fileName: 'sumsq.py' };

  it("reads the emulator's text: the line and the error, the temporary name replaced", () => {
    assert.deepEqual(readRaised("Error in python script SumSq_vscode_run_82a2cfea, line 6: NameError: name 'x' is not defined", names), {
      text: "NameError: name 'x' is not defined",
      line: 6,
    });
  });

  it("reads a Python traceback (as one line, as servers' messages arrive): the script's innermost frame, the exception", () => {
    const traceback =
      'Traceback (most recent call last): File "/opt/grok/runner.py", line 88, in run File "<string>", line 7, in <module> File "<string>", line 3, in helper File "/usr/lib/python3/site-packages/pandas/core/frame.py", line 4102, in __getitem__ KeyError: \'agee\'';
    assert.deepEqual(readRaised(traceback, names), { text: "KeyError: 'agee'", line: 3 });
  });

  it("tells a server error of a script's call as the script's error, without advice about the server", () => {
    const server = new DatagrokError(
      'server',
      'Calling SumSq_vscode_run_82a2cfea failed: the server reported an error (500): Error in python script SumSq_vscode_run_82a2cfea, line 6: ZeroDivisionError: division by zero. Try again; if it persists, ask the server administrator.',
      { status: 500, serverMessage: 'Error in python script SumSq_vscode_run_82a2cfea, line 6: ZeroDivisionError: division by zero' },
    );
    const told = scriptRaised(server, names);
    assert.ok(told);
    assert.equal(told.message, 'SumSq: the script raised an error on line 6 of sumsq.py: ZeroDivisionError: division by zero. Fix the script and run it again.');
    assert.doesNotMatch(told.message, /administrator|vscode_run/);
    assert.equal(told.status, 500);
  });

  it('leaves other failures as they are: refused inputs (400), an unreachable server', () => {
    assert.equal(scriptRaised(new DatagrokError('server', 'x', { status: 400, serverMessage: 'Missing parameter "a"' }), names), undefined);
    assert.equal(scriptRaised(new DatagrokError('network', 'could not connect'), names), undefined);
    assert.equal(scriptRaised(new Error('boom'), names), undefined);
  });
});

describe("a script run's result, labelled by the header's outputs", () => {
  it('one output: "c = 25", the document {"c": 25}', () => {
    const view = resultView('SumSq', 25, ['c'], { labelled: true });
    assert.equal(view.summary, 'c = 25');
    assert.deepEqual(view.parts, [{ name: 'SumSq — result', language: 'json', text: '{\n  "c": 25\n}\n' }]);
  });

  it('one list output stays one value', () => {
    assert.equal(resultView('Tags', ['a', 'b'], ['tags'], { labelled: true }).summary, 'tags = ["a","b"]');
  });

  it('several outputs, a dataframe among them: each labelled, the dataframe named after its output', () => {
    const view = resultView('Stats', [3, 'x,y\n1,2\n'], ['n', 'table'], { labelled: true });
    assert.equal(view.summary, 'n = 3, table = dataframe: 1 row × 2 columns');
    assert.deepEqual(
      view.parts.map((p) => p.name),
      ['Stats — result', 'Stats — table.csv'],
    );
  });

  it('a function run is shown as before (unlabelled)', () => {
    assert.equal(resultView('Demo:Add', 5, ['result']).summary, '5');
  });
});

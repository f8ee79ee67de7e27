// A function's table answer streamed to a file (callFunctionToFile, the notebook's outputs) against the
// emulator over real HTTP: the file holds exactly what callFunction's answer holds (escapes and non-ASCII
// text decoded); any other answer comes back as its value; a failure writes no file. And the notebook's
// cells with output files: a table's rows go to its file (shape, typed columns, first rows beside it), a
// later cell uploads it from there once, a string output that is not a table stays a value. An answer of
// several outputs (an array), given a file for each string, has each string in its own file.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DatagrokError } from '../../src/api/errors';
import { parseCallCell } from '../../src/platform/notebook/cells';
import { OutputFiles } from '../../src/platform/notebook/outputFiles';
import { type CellContext, runCell, variablesOf } from '../../src/platform/notebook/runCell';
import { NotebookVariables } from '../../src/platform/notebook/variables';
import { useEmulator } from './harness';

describe('a function answer streamed to a file (emulator over HTTP)', function () {
  this.timeout(60_000);
  const h = useEmulator();
  let dir = '';

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-call-to-file-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes a CSV answer to the file, byte for byte what callFunction answers', async () => {
    const params = { table: 'Demo.demog', column: 'AGE', min: 60 };
    const text = (await h.client.callFunction('Demo:Filter', params)) as string;
    const file = path.join(dir, 'out.csv');
    const answer = await h.client.callFunctionToFile('Demo:Filter', params, file);
    assert.deepEqual(answer, { file, bytes: Buffer.byteLength(text) });
    assert.equal(fs.readFileSync(file, 'utf8'), text);
  });

  it('decodes escapes and non-ASCII text; other answers come back as values; a failure writes nothing', async () => {
    const value = 'a,"b ""q"""\n\tπ,😀 \\ / \u0001\r\n';
    const file = path.join(dir, 'echo.csv');
    assert.deepEqual(await h.client.callFunctionToFile('Demo:Echo', { value }, file), { file, bytes: Buffer.byteLength(value) });
    assert.equal(fs.readFileSync(file, 'utf8'), value);
    assert.deepEqual(await h.client.callFunctionToFile('Demo:Add', { a: 1, b: 2 }, path.join(dir, 'add')), { value: 3 });
    assert.deepEqual(await h.client.callFunctionToFile('Demo:Echo', { value: { x: [1, 'y'] } }, path.join(dir, 'obj')), { value: { x: [1, 'y'] } });
    await assert.rejects(
      h.client.callFunctionToFile('Demo:Fail', { message: 'boom' }, path.join(dir, 'fail')),
      (e: unknown) => e instanceof DatagrokError && /boom/.test(e.message),
    );
    assert.deepEqual(fs.readdirSync(dir), ['echo.csv']);
  });

  it('an answer of several outputs: each string in a file of its own, the other values parsed; a bad answer leaves files for the caller to remove', async () => {
    const value = ['a,b\n1,2\n', 7, { x: ['"]'] }, 'π,😀\n'];
    let n = 0;
    const made: string[] = [];
    const nextFile = async () => {
      const file = path.join(dir, `out-${n++}.csv`);
      made.push(file);
      return file;
    };
    const answer = await h.client.callFunctionToFile('Demo:Echo', { value }, nextFile);
    assert.deepEqual(answer, {
      elements: [
        { file: made[0], bytes: Buffer.byteLength(value[0] as string) },
        { value: 7 },
        { value: { x: ['"]'] } },
        { file: made[1], bytes: Buffer.byteLength(value[3] as string) },
      ],
    });
    assert.deepEqual(
      made.map((f) => fs.readFileSync(f, 'utf8')),
      [value[0], value[3]],
    );
    // One file given: the array comes back as its value, as before.
    assert.deepEqual(await h.client.callFunctionToFile('Demo:Echo', { value }, path.join(dir, 'one')), { value });
    // A single string with files(): one file from it.
    assert.deepEqual(await h.client.callFunctionToFile('Demo:Echo', { value: 'x,y\n' }, nextFile), { file: made[2], bytes: 4 });
    // The strings are not held: an answer far past the answer limit reads, with each other value within it.
    const big = 'n\n'.repeat(50_000);
    const small = h.newClient({ maxAnswerBytes: 4096 });
    const bigAnswer = await small.callFunctionToFile('Demo:Echo', { value: [big, 5] }, nextFile);
    assert.deepEqual(bigAnswer, { elements: [{ file: made[3], bytes: 100_000 }, { value: 5 }] });
    await assert.rejects(small.callFunctionToFile('Demo:Echo', { value: [{ big }] }, nextFile), (e: unknown) => e instanceof DatagrokError && e.kind === 'tooLarge');
    // An answer cut before its "]": a clear error; the files it began are the caller's to remove.
    await h.fault({ match: 'POST /api/public/v1/Demo.Echo/call', text: '["a,b\\n1,2\\n", 7', contentType: 'application/json' });
    await assert.rejects(
      h.client.callFunctionToFile('Demo:Echo', { value }, nextFile),
      (e: unknown) => e instanceof DatagrokError && /not the list of outputs it should be \(it ended before its closing "\]"\)/.test(e.message),
    );
    assert.equal(made.length, 5, 'the cut answer began one file');
  });

  it("a server that says nothing for the request timeout fails as a call does (not after a transfer's idle time); cancel stops it", async () => {
    const client = h.newClient({ timeouts: { requestMs: 200 }, retries: 0 });
    await h.fault({ match: 'POST /api/public/v1/Demo.Echo/call', delayMs: 1000 });
    await h.fails(client.callFunctionToFile('Demo:Echo', { value: 'x' }, path.join(dir, 'slow')), 'timeout', /did not answer within 0.2 s/);
    await h.fault({ match: 'POST /api/public/v1/Demo.Echo/call', delayMs: 2000 });
    await h.fails(h.client.callFunctionToFile('Demo:Echo', { value: 'x' }, path.join(dir, 'slow'), { signal: AbortSignal.timeout(50) }), 'cancelled');
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it("a notebook cell's table goes to its file, with its shape and first rows; a later cell uploads it from there once", async () => {
    const files = new OutputFiles(dir);
    const variables = new NotebookVariables();
    const ctx: CellContext = { api: h.client, variables, signal: new AbortController().signal, tablePrefix: 'Notebook_file_', leftBehind: () => undefined, outputFiles: files };
    const script = ['//output: dataframe t', 't = "id,name\\n" + Array.from({ length: 5000 }, (_, i) => i + ",n" + i).join("\\n");'].join('\n');
    const made = await runCell(ctx, { index: 0, language: 'javascript', text: script });
    const [t] = made.outputs;
    assert.equal(t.csv, undefined, 'the rows are not held');
    assert.ok(t.file && t.id && t.head);
    assert.equal(fs.readFileSync(t.file, 'utf8').split('\n').length, 5001);
    assert.deepEqual([t.rows, t.columns, t.head.columns.map((c) => c.type), t.head.first.length, t.head.first[7]], [5000, 2, ['int', 'string'], 200, ['7', 'n7']]);
    for (const v of variablesOf(0, made)) variables.set(v);
    const text = 'Demo:RowCount(table: t)';
    const counted = await runCell(ctx, { index: 1, language: 'datagrok-call', text, call: parseCallCell(text) });
    assert.deepEqual(counted.outputs, [{ name: 'count', type: 'int', value: 5000 }]);
    const uploads = (await h.requests()).filter((r) => r.method === 'POST' && /\/public\/v1\/tables\//.test(r.path));
    assert.equal(uploads.length, 1);
    const named = await runCell(ctx, { index: 2, language: 'javascript', text: '//output: string s\ns = "plain words";' });
    assert.deepEqual(named.outputs, [{ name: 's', type: 'string', value: 'plain words' }]);
    assert.deepEqual(fs.readdirSync(files.dir), [`${t.id}.csv`], 'only the table has a file');
    // Two outputs, a table and a number: the table's rows go to its own file as they arrive, the number is a value.
    const describe = 'Stats:Describe(table: t)';
    const described = await runCell(ctx, { index: 3, language: 'datagrok-call', text: describe, call: parseCallCell(describe) });
    const [summary, rows] = described.outputs;
    assert.deepEqual([summary.name, summary.type, summary.csv, summary.rows, summary.columns], ['summary', 'dataframe', undefined, 1, 4]);
    assert.ok(summary.file && summary.id);
    assert.equal(fs.readFileSync(summary.file, 'utf8').split('\n')[0], 'column,min,max,mean');
    assert.deepEqual(rows, { name: 'rows', type: 'int', value: 5000 });
    assert.deepEqual(fs.readdirSync(files.dir).sort(), [`${t.id}.csv`, `${summary.id}.csv`].sort());
    // Cut half-way: the cell fails and leaves no file behind.
    await h.fault({ match: 'POST /api/public/v1/Stats.Describe/call', text: '["column,min,max,mean\\nid,0', contentType: 'application/json' });
    await assert.rejects(runCell(ctx, { index: 4, language: 'datagrok-call', text: describe, call: parseCallCell(describe) }), /ended before its closing/);
    assert.deepEqual(fs.readdirSync(files.dir).sort(), [`${t.id}.csv`, `${summary.id}.csv`].sort());
    files.dispose();
  });
});

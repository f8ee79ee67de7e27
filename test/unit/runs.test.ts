import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { curlText, pythonLiteral, pythonText } from '../../src/platform/runs/snippets';
import { DEFAULT_RUN_LIMITS, FolderBlobStore, type NewRun, RunsStore } from '../../src/platform/runs/store';
import { MemoryStore } from './memoryStore';

const A = 'https://a.example/api';
const B = 'https://b.example/api';

function newRun(id: string, server: string, at: number, extra: Partial<NewRun> = {}): NewRun {
  return { id, server, functionName: 'Demo:Add', startedAt: at, durationMs: 12, outcome: 'ok', summary: '3', inputs: { a: 1, b: 2 }, result: 3, ...extra };
}

describe('runs store', () => {
  let dir = '';
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-runs-unit-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("lists a server's runs newest first, never another server's", async () => {
    const state = new MemoryStore();
    const store = new RunsStore(state, new FolderBlobStore(dir));
    await store.add(newRun('1', A, 1000));
    await store.add(newRun('2', B, 2000));
    await store.add(newRun('3', A, 3000));
    // Finished out of order (a long run started earlier): still by start time.
    await store.add(newRun('0', A, 500));
    assert.deepEqual(
      store.list(A).map((r) => r.id),
      ['3', '1', '0'],
    );
    assert.deepEqual(
      store.list(B).map((r) => r.id),
      ['2'],
    );
    // A fresh store on the same state (a restart) sees the same.
    assert.deepEqual(
      new RunsStore(state, new FolderBlobStore(dir)).list(A).map((r) => r.id),
      ['3', '1', '0'],
    );
  });

  it('keeps at most maxRuns per server, forgetting the oldest with their files', async () => {
    const state = new MemoryStore();
    let limits = { ...DEFAULT_RUN_LIMITS, maxRuns: 2, inlineChars: 10 };
    const store = new RunsStore(state, new FolderBlobStore(dir), () => limits);
    await store.add(newRun('1', A, 1000, { result: 'x'.repeat(100) }));
    await store.add(newRun('2', A, 2000, { result: 'y'.repeat(100) }));
    await store.add(newRun('b', B, 2500));
    assert.ok(fs.existsSync(path.join(dir, '1.result.json')));
    await store.add(newRun('3', A, 3000));
    assert.deepEqual(
      store.list(A).map((r) => r.id),
      ['3', '2'],
    );
    assert.deepEqual(
      store.list(B).map((r) => r.id),
      ['b'],
      "another server's runs are not counted",
    );
    assert.ok(!fs.existsSync(path.join(dir, '1.result.json')), "the forgotten run's file is deleted");
    // A lower limit applies at once.
    limits = { ...limits, maxRuns: 1 };
    await store.trim();
    assert.deepEqual(
      store.list(A).map((r) => r.id),
      ['3'],
    );
    assert.ok(!fs.existsSync(path.join(dir, '2.result.json')));
  });

  it('keeps small values inline and large ones in files, drops what is too large; reads them back', async () => {
    const state = new MemoryStore();
    const store = new RunsStore(state, new FolderBlobStore(dir), () => ({ maxRuns: 10, inlineChars: 20, maxStoredChars: 1000 }));
    const small = await store.add(newRun('s', A, 1));
    assert.deepEqual(small.result, { inline: '3' });
    const csv = `a,b\n${'1,2\n'.repeat(50)}`;
    const big = await store.add(newRun('big', A, 2, { result: csv, inputs: { text: 'z'.repeat(40) } }));
    assert.ok(big.result && 'file' in big.result);
    assert.ok(big.inputs && 'file' in big.inputs);
    assert.ok(JSON.stringify(state.values.get('datagrok.runs')).length < 1000, 'the global state holds no large value');
    assert.deepEqual(await store.result(big), { value: csv });
    assert.deepEqual(await store.inputs(big), { value: { text: 'z'.repeat(40) } });
    const huge = await store.add(newRun('huge', A, 3, { result: 'q'.repeat(2000) }));
    assert.ok(huge.result && 'dropped' in huge.result);
    assert.match(String(((await store.result(huge)) as { missing: string }).missing), /too large to keep \(2,002 characters\)/);
    const failed = await store.add(newRun('f', A, 4, { outcome: 'failed', summary: 'boom', result: undefined }));
    assert.equal(failed.result, undefined);
    assert.match(((await store.result(failed)) as { missing: string }).missing, /failed: it has no result/);
  });

  it('keeps the text of a script run before saving (inline, in a file, or dropped with why) and removes it with its run', async () => {
    const state = new MemoryStore();
    const store = new RunsStore(state, new FolderBlobStore(dir), () => ({ maxRuns: 10, inlineChars: 40, maxStoredChars: 1000 }));
    const script = (code: string) => ({ uri: 'file:///w/rows.py', fileName: 'rows.py', prefix: '#' as const, code });
    const small = await store.add(newRun('s', A, 1, { functionName: 'RowTimes_vscode_run_0a1b2c3d', script: script('#name: R\nx = 1\n') }));
    assert.deepEqual(await store.script(small), { value: script('#name: R\nx = 1\n') });
    const code = `#name: R\n${'x = 1\n'.repeat(20)}`;
    const large = await store.add(newRun('l', A, 2, { script: script(code) }));
    assert.ok(large.script && 'file' in large.script.code);
    assert.deepEqual(await new RunsStore(state, new FolderBlobStore(dir)).script(store.get('l')!), { value: script(code) }, 'read back after a restart');
    const huge = await store.add(newRun('h', A, 3, { script: script('x'.repeat(2000)) }));
    assert.match(((await store.script(huge)) as { missing: string }).missing, /script's text was too large to keep \(2,002 characters\)/);
    assert.match(((await store.script(store.get('h')!)) as { missing: string }).missing, /too large/);
    assert.match(((await store.script(await store.add(newRun('n', A, 4)))) as { missing: string }).missing, /did not keep the text/);
    await store.remove('l');
    assert.ok(!fs.existsSync(path.join(dir, 'l.script.json')), "the text's file goes with its run");
  });

  it('removes one run, clears a server, and writes concurrent runs without losing one', async () => {
    const state = new MemoryStore();
    const store = new RunsStore(state, new FolderBlobStore(dir));
    await Promise.all([1, 2, 3, 4, 5].map((i) => store.add(newRun(`r${i}`, A, i))));
    assert.equal(store.list(A).length, 5);
    await store.remove('r3');
    assert.deepEqual(
      store.list(A).map((r) => r.id),
      ['r5', 'r4', 'r2', 'r1'],
    );
    await store.add(newRun('b', B, 9));
    assert.equal(await store.clear(A), 4);
    assert.deepEqual(store.list(A), []);
    assert.equal(store.list(B).length, 1);
  });
});

describe('runs as code (curl, Python)', () => {
  const inputs = { table: "O'Brien data", min: 80, strict: true, tags: ['a', null], where: { x: false } };

  it('curl: the documented call route with the name\'s ":" as ".", <API key> in place of the key, shell-safe quoting', () => {
    const text = curlText('https://dg.example/api/', 'Demo:Filter', inputs);
    assert.equal(
      text,
      [
        "curl -X POST 'https://dg.example/api/public/v1/Demo.Filter/call' \\",
        "  -H 'Authorization: Bearer <API key>' \\",
        "  -H 'Content-Type: application/json' \\",
        `  --data-raw '{"table":"O'\\''Brien data","min":80,"strict":true,"tags":["a",null],"where":{"x":false}}'`,
      ].join('\n'),
    );
  });

  it("Python: datagrok-api's client with <API key>, inputs as Python literals", () => {
    const text = pythonText('https://dg.example/api', 'Demo:Filter', inputs);
    assert.match(text, /^# pip install datagrok-api\nfrom datagrok_api import DatagrokClient\n/);
    assert.match(text, /with DatagrokClient\("https:\/\/dg\.example\/api", "Bearer <API key>"\) as grok:/);
    assert.match(
      text,
      /result = grok\.functions\.call\("Demo:Filter", \{\n {8}"table": "O'Brien data",\n {8}"min": 80,\n {8}"strict": True,\n {8}"tags": \[\n {12}"a",\n {12}None,\n {8}\],\n {8}"where": \{\n {12}"x": False,\n {8}\},\n {4}\}\)/,
    );
    assert.equal(pythonLiteral({}), '{}');
    assert.equal(pythonLiteral([]), '[]');
    assert.equal(pythonLiteral(Number.NaN), 'None');
  });
});

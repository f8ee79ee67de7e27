// Notebook cells on the server (the emulator over real HTTP): a query's table feeds a script feeds a
// function, the table going up once and then by reference (no download, no second upload); a cell
// taking a table no cell made; an error on the line of the cell; the temporary scripts deleted.
import * as assert from 'node:assert/strict';
import { parseCallCell } from '../../src/platform/notebook/cells';
import { CellFailure, type CellContext, runCell, variablesOf } from '../../src/platform/notebook/runCell';
import { NotebookVariables } from '../../src/platform/notebook/variables';
import { useEmulator } from './harness';

const QUERY = ['--connection: Samples:Northwind', '--output: dataframe byCountry', 'select country, count(*) as n from customers group by country'].join('\n');
const SCRIPT = ['//input: dataframe byCountry', '//output: int total', 'total = byCountry.col("n").reduce((a, b) => a + b, 0);'].join('\n');

describe('notebook cells on the server (emulator over HTTP)', function () {
  this.timeout(60_000);
  const h = useEmulator();

  const context = (variables: NotebookVariables, signal = new AbortController().signal): CellContext => ({
    api: h.client,
    variables,
    signal,
    tablePrefix: 'Notebook_test_',
    leftBehind: (name) => assert.fail(`${name} left behind`),
  });

  async function run(ctx: CellContext, index: number, language: string, text: string) {
    const call = language === 'datagrok-call' ? parseCallCell(text) : undefined;
    const ran = await runCell(ctx, { index, language, text, call });
    for (const v of variablesOf(index, ran)) ctx.variables.set(v);
    return ran;
  }

  it('runs a query, a script and a call in a chain; the table goes up once and is then passed by reference', async () => {
    const variables = new NotebookVariables();
    const ctx = context(variables);
    const query = await run(ctx, 0, 'sql', QUERY);
    assert.equal(query.outputs.length, 1);
    const [table] = query.outputs;
    assert.equal(table.name, 'byCountry');
    assert.equal(table.type, 'dataframe');
    assert.equal(table.columns, 2);
    assert.ok((table.rows ?? 0) > 0);
    const script = await run(ctx, 1, 'javascript', SCRIPT);
    assert.deepEqual(script.reads, ['byCountry']);
    assert.equal(script.outputs[0].name, 'total');
    assert.ok(typeof script.outputs[0].value === 'number' && script.outputs[0].value > 0);
    const call = await run(ctx, 2, 'datagrok-call', 'rows = Demo:RowCount(table: byCountry)');
    assert.deepEqual(call.outputs, [{ name: 'rows', type: 'int', value: table.rows }]);
    const requests = await h.requests();
    const uploads = requests.filter((r) => r.method === 'POST' && /\/tables\//.test(r.path));
    const downloads = requests.filter((r) => r.method === 'GET' && /\/public\/v1\/tables\//.test(r.path));
    assert.equal(uploads.length, 1, "the query's table goes up once");
    assert.equal(downloads.length, 0, 'no table is downloaded');
    assert.ok(variables.get('byCountry')?.table, 'the variable holds its reference');
    assert.equal(variables.get('byCountry')?.csv, undefined, 'and no longer its rows');
    const left = (await h.client.listScripts('script')).concat(await h.client.listScripts('query')).filter((s) => /NotebookCell/.test(s.name));
    assert.deepEqual(left, [], 'no temporary script is left');
  });

  it('a cell taking a table no cell above made fails with a clear message and calls nothing', async () => {
    const ctx = context(new NotebookVariables());
    await assert.rejects(run(ctx, 0, 'javascript', SCRIPT), /Cell 1 takes the table "byCountry", which no cell above has made/);
    await assert.rejects(run(ctx, 0, 'datagrok-call', 'Demo:RowCount(table: nowhere)'), /Cell 1 takes the variable "nowhere"/);
    const calls = (await h.requests()).filter((r) => r.method === 'POST');
    assert.deepEqual(calls, []);
  });

  it("tells a script's error on the line of the cell (the added header lines not counted)", async () => {
    const ctx = context(new NotebookVariables());
    const text = ['//output: int x', 'const y = 1;', 'x = undefinedName + y;'].join('\n');
    await assert.rejects(run(ctx, 3, 'javascript', text), (e: CellFailure) => {
      assert.ok(e instanceof CellFailure);
      assert.equal(e.line, 3);
      assert.match(e.message, /^Line 3: .*undefinedName is not defined/);
      return true;
    });
  });

  it('a cancelled cell stops and leaves no temporary script', async () => {
    const ctx = context(new NotebookVariables(), AbortSignal.timeout(300));
    const text = ['//output: int x', 'const end = Date.now() + 3000; while (Date.now() < end) {}', 'x = 1;'].join('\n');
    await h.fails(run(ctx, 0, 'javascript', text), 'cancelled');
    const left = (await h.client.listScripts('script')).filter((s) => /NotebookCell/.test(s.name));
    assert.deepEqual(left, []);
  });
});

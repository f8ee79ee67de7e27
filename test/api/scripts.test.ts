// Scripts and queries through the entity routes, and the emulator's runners, over real HTTP: a script
// saved as the grok CLI saves it is a function; JavaScript runs in node:vm, Python with pandas (a
// dataframe input as a DataFrame), SQL on the demo database; an error names the script's line; each run
// has a time limit; other languages are "not available here".
import * as assert from 'node:assert/strict';
import { parseScriptHeader } from '../../src/platform/scripts/header';
import { callName, pushPlan, pushScript, withTemporaryScript } from '../../src/platform/scripts/entities';
import { useEmulator } from './harness';

const PY = [
  '#name: CellCount',
  '#language: python',
  '#input: dataframe table [Data table]',
  '#input: int factor = 2',
  '#output: int count',
  '#output: dataframe older',
  'count = table.shape[0] * table.shape[1] * factor',
  'older = table[table["AGE"] > 60][["USUBJID", "AGE"]]',
  '',
].join('\n');

const local = (code: string, fileName: string, prefix: '#' | '//' | '--' = '#') => ({ header: parseScriptHeader(code, prefix)!, code, fileName });

describe('scripts on the server (emulator runners over HTTP)', function () {
  this.timeout(60_000);
  const h = useEmulator();

  it('saves a Python script and calls it by name: a dataframe input as a pandas DataFrame, outputs by name', async () => {
    const saved = await h.client.saveScript('script', { name: 'CellCount', language: 'python', script: PY });
    assert.equal(saved.name, 'CellCount');
    const [count, older] = (await h.client.callFunction(callName(saved), { table: 'Demo:demog', factor: 1 })) as [number, string];
    const { rows, fields } = await h.emulator.state.tables.rows('Demo:demog');
    assert.equal(count, rows.length * fields.length);
    const lines = older.trim().split('\n');
    assert.equal(lines[0], 'USUBJID,AGE');
    assert.equal(lines.length - 1, rows.filter((r) => Number(r.AGE) > 60).length);
  });

  it("reports a Python error with the script's line", async () => {
    const code = ['#name: Broken', '#language: python', '#output: int x', '', 'y = 1', 'x = undefined_name + y', ''].join('\n');
    const saved = await h.client.saveScript('script', { name: 'Broken', language: 'python', script: code });
    await h.fails(h.client.callFunction(callName(saved), {}), 'server', /line 6: NameError: name 'undefined_name' is not defined/);
  });

  it('runs JavaScript in a sandbox with a time limit', async () => {
    const code = [
      '//name: Greeting',
      '//language: javascript',
      '//input: string who = "world"',
      '//input: dataframe t',
      '//output: string text',
      'text = "Hello, " + who + ": " + t.rowCount + " rows";',
    ].join('\n');
    const saved = await h.client.saveScript('script', { name: 'Greeting', language: 'javascript', script: code });
    const text = await h.client.callFunction(callName(saved), { who: 'VS Code', t: 'Demo:car_models' });
    const { rows } = await h.emulator.state.tables.rows('Demo:car_models');
    assert.equal(text, `Hello, VS Code: ${rows.length} rows`);
    const loop = await h.client.saveScript('script', {
      name: 'Forever',
      language: 'javascript',
      script: '//name: Forever\n//language: javascript\n//output: int n\nwhile (true) {}\n',
    });
    process.env.DATAGROK_EMULATOR_SCRIPT_TIMEOUT_MS = '500';
    try {
      const started = Date.now();
      await h.fails(h.client.callFunction(callName(loop), {}), 'server', /timed out after 500 ms/);
      assert.ok(Date.now() - started < 10_000);
    } finally {
      delete process.env.DATAGROK_EMULATOR_SCRIPT_TIMEOUT_MS;
    }
  });

  it('runs SQL queries on the demo database with @inputs bound; the seeded Northwind query works', async () => {
    const top = await h.client.callFunction('Samples:TopCustomers', { limit: 2 });
    assert.equal(String(top).trim().split('\n').length, 3);
    assert.match(String(top), /^company_name,freight\nAlfreds Futterkiste,180\.71/);
    const sql = [
      '--name: OldPeople',
      '--connection: Samples:Northwind',
      '--input: int minAge = 70',
      '--output: dataframe result',
      'select USUBJID, AGE from demog where AGE >= @minAge order by AGE desc',
      '--end',
    ].join('\n');
    const plan = await pushPlan(h.client, local(sql, 'old.sql', '--'));
    assert.equal(plan.action, 'create');
    const saved = await pushScript(h.client, local(sql, 'old.sql', '--'), plan);
    const csv = String(await h.client.callFunction(callName(saved), { minAge: 80 }));
    const { rows } = await h.emulator.state.tables.rows('Demo:demog');
    assert.equal(csv.trim().split('\n').length - 1, rows.filter((r) => Number(r.AGE) >= 80).length);
  });

  it('answers that R is not available here', async () => {
    const saved = await h.client.saveScript('script', { name: 'Fit', language: 'r', script: '#name: Fit\n#language: r\n#output: double s\ns <- 1\n' });
    await h.fails(h.client.callFunction(callName(saved), {}), 'server', /r scripts are not available here/);
  });

  it("pushes by the header's name: create, then update of the same script", async () => {
    const first = local(PY, 'cells.py');
    const plan = await pushPlan(h.client, first);
    assert.equal(plan.action, 'create');
    const created = await pushScript(h.client, first, plan);
    const edited = local(PY.replace('factor = 2', 'factor = 3'), 'cells.py');
    const again = await pushPlan(h.client, edited);
    assert.deepEqual([again.action, again.existing?.id], ['update', created.id]);
    const updated = await pushScript(h.client, edited, again);
    assert.equal(updated.id, created.id);
    assert.match(String((await h.client.getScript('script', created.id)).script), /factor = 3/);
  });

  it('runs a temporary copy and deletes it, also when the run fails; the saved script stays as it was', async () => {
    const saved = await h.client.saveScript('script', { name: 'CellCount', language: 'python', script: PY });
    const edited = local(PY.replace('* factor', '* factor * 10'), 'cells.py');
    const { result, temporary } = await withTemporaryScript(h.client, edited, (name) => h.client.callFunction(name, { table: 'Demo:demog', factor: 1 }));
    assert.match(temporary, /^CellCount_vscode_run_[0-9a-f]{8}$/);
    const { rows, fields } = await h.emulator.state.tables.rows('Demo:demog');
    assert.equal((result as unknown[])[0], rows.length * fields.length * 10);
    const broken = local(PY.replace('count = ', 'count = nope + '), 'cells.py');
    await h.fails(
      withTemporaryScript(h.client, broken, (name) => h.client.callFunction(name, { table: 'Demo:demog' })),
      'server',
      /line 7: NameError/,
    );
    const left = (await h.client.listScripts('script', 'CellCount')).map((s) => s.name);
    assert.deepEqual(left, ['CellCount']);
    assert.equal((await h.client.getScript('script', saved.id)).script, PY);
  });
});

// The Datagrok notebook in the real host against the emulator: a query's table feeds a Python script whose
// table feeds a function, the tables passed by reference (each goes up once, none is downloaded);
// execution order and times; stale marks after an edit; cancel; a cell taking a table no cell made; a
// notebook file that is not one; a server that drops the call; outputs saved only when asked; pushing the
// tables and a dashboard of them; the header's completion in a cell.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { clearEmulatorRequests, control, emulator, emulatorRequests, resetEmulator, signIn } from './support';
import { CHAIN } from './notebookSupport';

interface CellResult {
  index: number;
  kind: string;
  outcome: string;
  outputs: { name: string; type: string; value?: unknown }[];
  ms: number;
  message?: string;
}

let dir = '';

function write(name: string, text: string): vscode.Uri {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return vscode.Uri.file(file);
}

const run = (uri: vscode.Uri, cells?: number[]) => vscode.commands.executeCommand<CellResult[]>('datagrok.notebooks.run', { uri, ...(cells ? { cells } : {}) });
const state = (uri: vscode.Uri) =>
  vscode.commands.executeCommand<{ variables: { name: string; type: string; cell: number; rows?: number; table?: string }[]; stale: number[] }>(
    'datagrok.notebooks.showVariables',
    { uri },
  );
const notebookOf = (uri: vscode.Uri) => vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === uri.toString())!;

/** The server's scripts and queries of notebook cells (temporary copies), through the internal routes. */
async function temporaryScripts(): Promise<string[]> {
  const names: string[] = [];
  for (const route of ['scripts', 'queries']) {
    const response = await fetch(`${emulator.url}/${route}?text=NotebookCell`, { headers: { authorization: `Bearer ${emulator.key}` } });
    if (response.status === 200) names.push(...((await response.json()) as { name: string }[]).map((s) => s.name).filter((n) => /NotebookCell/.test(n)));
  }
  return names;
}

describe('notebook: cells on the server, tables by reference, stale marks, cancel', function () {
  this.timeout(180_000);

  before(async () => {
    await resetEmulator();
    await signIn();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-notebook-'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs a query, a Python script and a function in a chain; the tables go up once each, none comes down', async () => {
    const uri = write('chain.dgnb', CHAIN);
    await clearEmulatorRequests();
    const results = await run(uri);
    assert.deepEqual(
      results.map((r) => [r.index, r.kind, r.outcome]),
      [
        [0, 'markdown', 'skipped'],
        [1, 'query', 'succeeded'],
        [2, 'script', 'succeeded'],
        [3, 'call', 'succeeded'],
      ],
      JSON.stringify(results),
    );
    assert.deepEqual(
      results[1].outputs.map((o) => [o.name, o.type]),
      [['byCountry', 'dataframe']],
    );
    assert.match(String((results[1].outputs[0] as { table?: string }).table), /\S/, 'a table a later cell took is named by its server reference');
    assert.deepEqual(results[3].outputs, [{ name: 'count', type: 'int', value: 2 }]);
    const requests = await emulatorRequests();
    const uploads = requests.filter((r) => r.method === 'POST' && /\/public\/v1\/tables\//.test(r.path));
    assert.equal(uploads.length, 2, `byCountry and top go up once each: ${JSON.stringify(uploads)}`);
    assert.equal(requests.filter((r) => r.method === 'GET' && /\/public\/v1\/tables\//.test(r.path)).length, 0, 'no table is downloaded');
    assert.deepEqual(await temporaryScripts(), [], 'no temporary script is left');
    // Execution order and times, outputs under the cells.
    const notebook = notebookOf(uri);
    const orders = [1, 2, 3].map((i) => notebook.cellAt(i).executionSummary?.executionOrder);
    assert.ok(
      orders.every((o, i) => o !== undefined && (i === 0 || o > (orders[i - 1] ?? 0))),
      `orders ${orders}`,
    );
    assert.ok(notebook.cellAt(1).executionSummary?.timing && notebook.cellAt(1).executionSummary?.success);
    const table = notebook.cellAt(1).outputs[0];
    assert.ok(
      table.items.some((i) => i.mime === 'application/vnd.datagrok.table+json'),
      'the table is drawn by the table renderer',
    );
    assert.match(new TextDecoder().decode(table.items.find((i) => i.mime === 'text/plain')!.data), /^byCountry: dataframe, \d+ rows × 2 columns$/);
    const { variables } = await state(uri);
    assert.deepEqual(
      variables.map((v) => [v.name, v.type, v.cell]),
      [
        ['byCountry', 'dataframe', 1],
        ['top', 'dataframe', 2],
        ['count', 'int', 3],
      ],
    );
    assert.ok(variables[0].table, 'the table is known by its server reference');
    assert.equal(fs.readFileSync(uri.fsPath, 'utf8'), CHAIN, 'running wrote nothing to the file');
  });

  it('marks the cells below that take what an edited cell made as stale, until they run again', async () => {
    const uri = vscode.Uri.file(path.join(dir, 'chain.dgnb'));
    const notebook = notebookOf(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(notebook.cellAt(1).document.uri, new vscode.Position(2, 0), '-- every country\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.deepEqual((await state(uri)).stale, [1, 2, 3]);
    const again = await run(uri, [1]);
    assert.equal(again[0].outcome, 'succeeded');
    assert.deepEqual((await state(uri)).stale, [2, 3], 'the cells that take its table are still stale');
    await run(uri, [2, 3]);
    assert.deepEqual((await state(uri)).stale, []);
  });

  it('a cell taking a table no cell above made fails with a clear message in the cell; the cells after it are skipped', async () => {
    const uri = write(
      'missing.dgnb',
      ['%% datagrok-notebook', '', '%% datagrok-call', 'Demo:RowCount(table: scored)', '', '%% datagrok-call', 'Demo:Add(a: 1, b: 2)', ''].join('\n'),
    );
    const results = await run(uri);
    assert.equal(results[0].outcome, 'failed');
    assert.match(results[0].message ?? '', /Cell 1 takes the variable "scored", which no cell above has made/);
    assert.equal(results[1].outcome, 'skipped');
    const output = notebookOf(uri).cellAt(0).outputs[0].items[0];
    assert.equal(output.mime, 'application/vnd.code.notebook.error');
    assert.match(new TextDecoder().decode(output.data), /no cell above has made/);
  });

  it("a script's error is shown on the cell's line", async () => {
    const uri = write('broken.dgnb', ['%% datagrok-notebook', '', '%% python', '#output: int x', 'y = 1', 'x = undefined_name + y', ''].join('\n'));
    const [result] = await run(uri);
    assert.equal(result.outcome, 'failed');
    assert.match(result.message ?? '', /^Line 3: NameError: name 'undefined_name' is not defined/);
    const diagnostics = vscode.languages.getDiagnostics(notebookOf(uri).cellAt(0).document.uri).filter((d) => d.source === 'Datagrok');
    assert.equal(diagnostics[0]?.range.start.line, 2);
  });

  it('Cancel abandons the server call and leaves no temporary script', async () => {
    const uri = write('slow.dgnb', ['%% datagrok-notebook', '', '%% python', '#output: int x', 'import time', 'time.sleep(8)', 'x = 1', ''].join('\n'));
    const running = run(uri);
    // Once the cell's temporary script is on the server, its call is under way.
    for (let i = 0; i < 120 && (await temporaryScripts()).length === 0; i++) await new Promise((r) => setTimeout(r, 250));
    await new Promise((r) => setTimeout(r, 500));
    // As the notebook's Interrupt button does.
    await vscode.commands.executeCommand('notebook.cancelExecution', uri);
    const started = Date.now();
    const [result] = await running;
    assert.ok(Date.now() - started < 5000, 'the run ended before the script did');
    assert.equal(result.outcome, 'failed');
    assert.match(result.message ?? '', /Cancelled/);
    assert.deepEqual(await temporaryScripts(), []);
  });

  it('a server that drops the call: a clear message in the cell, nothing lost from the file', async () => {
    const text = ['%% datagrok-notebook', '', '%% datagrok-call', 'Demo:Add(a: 1, b: 2)', ''].join('\n');
    const uri = write('dropped.dgnb', text);
    await control('POST', 'faults', { match: 'Demo.Add/call', dropAfterBytes: 0, count: 1 });
    const [result] = await run(uri);
    assert.equal(result.outcome, 'failed');
    assert.match(result.message ?? '', /connection|closed|dropped|reset|network/i);
    assert.doesNotMatch(result.message ?? '', new RegExp(emulator.key));
    assert.match(new TextDecoder().decode(notebookOf(uri).cellAt(0).outputs[0].items[0].data), /connection|closed|dropped|reset|network/i);
    assert.equal(fs.readFileSync(uri.fsPath, 'utf8'), text);
  });

  it('refuses a file that is not a notebook, naming the line, and leaves it as it was', async () => {
    const text = '%% datagrok-notebook\nstray text\n%% python\nx = 1\n';
    const uri = write('bad.dgnb', text);
    await assert.rejects(Promise.resolve(vscode.workspace.openNotebookDocument(uri)), /Line 2: text outside a cell/);
    assert.equal(fs.readFileSync(uri.fsPath, 'utf8'), text);
  });

  it('saves outputs only when the notebook asks: a table by its shape, never its rows', async () => {
    const uri = write('saved.dgnb', CHAIN);
    await run(uri, [1]);
    assert.equal(notebookOf(uri).isDirty, false, 'a run leaves a notebook that does not save its outputs unmodified: its file would not change');
    await notebookOf(uri).save();
    assert.ok(!fs.readFileSync(uri.fsPath, 'utf8').includes('%% output'), 'no outputs by default');
    assert.equal(await vscode.commands.executeCommand('datagrok.notebooks.saveOutputs', { uri, save: true }), true);
    assert.equal(notebookOf(uri).isDirty, true, 'saving outputs changes the file');
    await notebookOf(uri).save();
    // An edit elsewhere keeps the saved outputs in the file.
    const edit = new vscode.WorkspaceEdit();
    edit.set(uri, [vscode.NotebookEdit.replaceCells(new vscode.NotebookRange(0, 1), [new vscode.NotebookCellData(vscode.NotebookCellKind.Markup, '# Customers', 'markdown')])]);
    assert.ok(await vscode.workspace.applyEdit(edit));
    await notebookOf(uri).save();
    const saved = fs.readFileSync(uri.fsPath, 'utf8');
    assert.match(saved, /^%% datagrok-notebook {"saveOutputs":true}\n/);
    assert.match(saved, /\n%% output {"name":"byCountry","type":"dataframe","rows":\d+,"columns":2}\n/);
    assert.match(saved, /\n# Customers\n/);
    assert.ok(!/USA|Germany/.test(saved), 'no rows in the file');
  });

  it("pushes the tables not yet on the server (once) and makes a dashboard of the notebook's tables", async () => {
    const uri = vscode.Uri.file(path.join(dir, 'saved.dgnb'));
    await clearEmulatorRequests();
    const pushed = await vscode.commands.executeCommand<{ name: string; table: string }[]>('datagrok.notebooks.pushTables', { uri });
    assert.deepEqual(
      pushed.map((p) => p.name),
      ['byCountry'],
    );
    await vscode.commands.executeCommand('datagrok.notebooks.pushTables', { uri });
    const uploads = (await emulatorRequests()).filter((r) => r.method === 'POST' && /\/public\/v1\/tables\//.test(r.path));
    assert.equal(uploads.length, 1, 'a table goes up once');
    const chain = vscode.Uri.file(path.join(dir, 'chain.dgnb'));
    const made = await vscode.commands.executeCommand<{ ID: string }>('datagrok.notebooks.createDashboard', { uri: chain, name: 'Customers' });
    const state = await control<{ dashboards: { ID: string; name: string; tableIds: string[] }[] }>('GET', 'state');
    const dashboard = state.dashboards.find((d) => d.ID === made.ID);
    assert.equal(dashboard?.tableIds.length, 2, JSON.stringify(dashboard));
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('datagrok.notebooks.pushTables', { uri, tables: ['nope'] })),
      /The notebook has no table "nope" \(its tables: byCountry\)/,
    );
  });

  it("gives a script cell the header's completion, and no missing-name check", async () => {
    const uri = write('complete.dgnb', ['%% datagrok-notebook', '', '%% python', '#input: ', 'x = 1', ''].join('\n'));
    const notebook = await vscode.workspace.openNotebookDocument(uri);
    await vscode.window.showNotebookDocument(notebook);
    const cell = notebook.cellAt(0).document;
    let labels: string[] = [];
    for (let i = 0; i < 40 && !labels.includes('dataframe'); i++) {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', cell.uri, new vscode.Position(0, 8));
      labels = list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
      if (!labels.includes('dataframe')) await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(labels.includes('dataframe'), labels.slice(0, 20).join(', '));
    await new Promise((r) => setTimeout(r, 1000));
    assert.ok(!vscode.languages.getDiagnostics(cell.uri).some((d) => /has no name|has no language/.test(d.message)));
  });
});

// The notebook's table outputs in the real host: a cell answering 200,000 rows writes them to a file of
// the window, and the output item in the notebook stays small (the reference, the shape, the columns, the
// first screen); the table renderer's requests (rows from the middle, a sort, a summary), answered through
// the extension's test hook as the renderer's messages are, read that file; a later cell takes the table
// from the file (one upload); a new run replaces the file, clearing the outputs or closing the notebook
// deletes it, and an output
// whose file is gone says so and how to get it back. The grid's Push as Table sends its table once.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DatagrokExtensionApi } from '../../src/extension';
import type { HostMessage, NotebookTableItem } from '../../src/platform/dataView/protocol';
import { clearEmulatorRequests, emulatorRequests, resetEmulator, signIn } from './support';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';
const MIME = 'application/vnd.datagrok.table+json';
const ROWS = 200_000;

const NOTEBOOK = [
  '%% datagrok-notebook',
  '',
  '%% javascript',
  '//output: dataframe big',
  `big = "id,twice,name\\n" + Array.from({ length: ${ROWS} }, (_, i) => i + "," + i * 2 + ",n" + (i % 97)).join("\\n");`,
  '',
  '%% datagrok-call',
  'Demo:RowCount(table: big)',
  '',
].join('\n');

interface CellResult {
  outcome: string;
  outputs: { name: string; type: string; value?: unknown }[];
  message?: string;
}

type Of<T extends HostMessage['type']> = Extract<HostMessage, { type: T }>;

function only<T extends HostMessage['type']>(replies: HostMessage[], type: T): Of<T> {
  const found = replies.find((m) => m.type === type);
  assert.ok(found, `expected a "${type}" message, got ${JSON.stringify(replies).slice(0, 400)}`);
  return found as Of<T>;
}

async function until<T>(get: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = get();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('notebook grid: table outputs read on demand by the table renderer', function () {
  this.timeout(180_000);
  let api: DatagrokExtensionApi;
  let dir = '';

  before(async () => {
    await resetEmulator();
    await signIn();
    api = await vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.activate();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-notebook-grid-'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the rows out of the notebook, answers rows, sort and summary from the file, and deletes the file with its output or notebook', async () => {
    const file = path.join(dir, 'big.dgnb');
    fs.writeFileSync(file, NOTEBOOK);
    const uri = vscode.Uri.file(file);
    // Opened as a user opens it (an editor, no reference held by an extension, which VS Code keeps for minutes).
    await vscode.commands.executeCommand('vscode.openWith', uri, 'datagrok-notebook');
    await clearEmulatorRequests();
    const results = await vscode.commands.executeCommand<CellResult[]>('datagrok.notebooks.run', { uri });
    assert.deepEqual(
      results.map((r) => r.outcome),
      ['succeeded', 'succeeded'],
      JSON.stringify(results),
    );
    // A later cell took the table from its file: one upload of every row.
    assert.deepEqual(results[1].outputs, [{ name: 'count', type: 'int', value: ROWS }]);
    const uploads = (await emulatorRequests()).filter((r) => r.method === 'POST' && /\/public\/v1\/tables\//.test(r.path));
    assert.equal(uploads.length, 1, JSON.stringify(uploads));

    const notebook = vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === uri.toString())!;
    const output = notebook.cellAt(0).outputs[0];
    const item = output.items.find((i) => i.mime === MIME);
    assert.ok(item, `a table item among ${output.items.map((i) => i.mime)}`);
    assert.ok(item.data.byteLength < 64 * 1024, `the output item is ${item.data.byteLength} bytes`);
    const table = JSON.parse(new TextDecoder().decode(item.data)) as NotebookTableItem;
    assert.equal(table.rows, ROWS);
    assert.deepEqual(
      table.columns.map((c) => `${c.name}:${c.type}`),
      ['id:int', 'twice:int', 'name:string'],
    );
    assert.deepEqual(table.first[0], ['0', '0', 'n0']);
    assert.equal(new TextDecoder().decode(output.items.find((i) => i.mime === 'text/plain')!.data), 'big: dataframe, 200,000 rows × 3 columns');

    const known = api.notebookTables.list().find((o) => o.id === table.id);
    assert.ok(known, 'the extension knows the output');
    assert.ok(fs.statSync(known.file).size > ROWS * 8, 'its rows are in its file');

    // What the renderer asks: the file opened when the output shows, rows from the middle, a sort, a summary.
    assert.deepEqual(only(await api.notebookTables.request(table.id, { type: 'ready' }), 'count').rowCount.rows >= 0, true);
    const middle = only(await api.notebookTables.request(table.id, { type: 'rows', start: 123_456, count: 3, tag: 0 }), 'rows');
    assert.deepEqual(middle.rows, [
      ['123456', '246912', `n${123_456 % 97}`],
      ['123457', '246914', `n${123_457 % 97}`],
      ['123458', '246916', `n${123_458 % 97}`],
    ]);
    const sorted = only(await api.notebookTables.request(table.id, { type: 'sort', sort: { column: 1, descending: true } }), 'view');
    assert.deepEqual(sorted.rowCount, { rows: ROWS, exact: true });
    const top = only(await api.notebookTables.request(table.id, { type: 'rows', start: 0, count: 2 }), 'rows');
    assert.deepEqual(
      top.rows.map((r) => r[0]),
      [String(ROWS - 1), String(ROWS - 2)],
    );
    const summary = only(await api.notebookTables.request(table.id, { type: 'summary', column: 0 }), 'summary').summary;
    assert.deepEqual([summary.count, summary.min, summary.max], [ROWS, 0, ROWS - 1]);
    assert.ok(
      known.sent.some((m) => m.type === 'progress'),
      'the renderer is told the progress of the sort',
    );

    // Run again: a new file replaces the old one.
    await vscode.commands.executeCommand('datagrok.notebooks.run', { uri, cells: [0] });
    const next = JSON.parse(new TextDecoder().decode(notebook.cellAt(0).outputs[0].items.find((i) => i.mime === MIME)!.data)) as NotebookTableItem;
    assert.notEqual(next.id, table.id);
    await until(() => (fs.existsSync(known.file) ? undefined : true), 'the replaced output’s file to go');
    const gone = only(await api.notebookTables.request(table.id, { type: 'rows', start: 0, count: 1 }), 'error');
    assert.equal(gone.gone, true);
    assert.match(gone.message, /no longer here .*run the cell again/);

    // Clearing the outputs deletes their files.
    const clearedFile = api.notebookTables.list().find((o) => o.id === next.id)!.file;
    await vscode.window.showNotebookDocument(notebook);
    await vscode.commands.executeCommand('notebook.clearAllCellsOutputs');
    await until(() => (fs.existsSync(clearedFile) ? undefined : true), 'the cleared output’s file to go');

    // Closing the notebook deletes its files.
    await vscode.commands.executeCommand('datagrok.notebooks.run', { uri, cells: [0] });
    const last = JSON.parse(new TextDecoder().decode(notebook.cellAt(0).outputs[0].items.find((i) => i.mime === MIME)!.data)) as NotebookTableItem;
    const nextFile = api.notebookTables.list().find((o) => o.id === last.id)!.file;
    assert.ok(fs.existsSync(nextFile));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until(() => (fs.existsSync(nextFile) ? undefined : true), 'the closed notebook’s file to go', 30_000);
    assert.equal(
      api.notebookTables.list().some((o) => o.notebook === uri.toString()),
      false,
    );
  });

  it("Push as Table on a table output's grid: the table goes up once, and a later cell takes it from the server", async () => {
    const file = path.join(dir, 'push me.dgnb');
    fs.writeFileSync(
      file,
      ['%% datagrok-notebook', '', '%% javascript', '//output: dataframe t', 't = "a,b\\n1,x\\n2,y\\n";', '', '%% datagrok-call', 'Demo:RowCount(table: t)', ''].join('\n'),
    );
    const uri = vscode.Uri.file(file);
    await vscode.commands.executeCommand('vscode.openWith', uri, 'datagrok-notebook');
    const [made] = await vscode.commands.executeCommand<CellResult[]>('datagrok.notebooks.run', { uri, cells: [0] });
    assert.equal(made.outcome, 'succeeded', JSON.stringify(made));
    const notebook = vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === uri.toString())!;
    const table = JSON.parse(new TextDecoder().decode(notebook.cellAt(0).outputs[0].items.find((i) => i.mime === MIME)!.data)) as NotebookTableItem;
    const uploads = async () => (await emulatorRequests()).filter((r) => r.method === 'POST' && /\/public\/v1\/tables\//.test(r.path)).map((r) => decodeURIComponent(r.path));
    await clearEmulatorRequests();
    await api.notebookTables.request(table.id, { type: 'action', action: 'push' });
    const first = await uploads();
    assert.equal(first.length, 1, JSON.stringify(first));
    assert.match(first[0], /\/public\/v1\/tables\/Notebook_push_me_t$/);
    const variables = await vscode.commands.executeCommand<{ variables: { name: string; table?: string }[] }>('datagrok.notebooks.showVariables', { uri });
    const pushed = variables.variables.find((v) => v.name === 't')?.table;
    assert.ok(pushed, `the variable t names its table on the server: ${JSON.stringify(variables)}`);
    // Again: nothing sent. The call cell takes the table by reference.
    await api.notebookTables.request(table.id, { type: 'action', action: 'push' });
    const [counted] = await vscode.commands.executeCommand<CellResult[]>('datagrok.notebooks.run', { uri, cells: [1] });
    assert.deepEqual(counted.outputs, [{ name: 'count', type: 'int', value: 2 }]);
    assert.equal((await uploads()).length, 1, 'one upload in all');
  });
});

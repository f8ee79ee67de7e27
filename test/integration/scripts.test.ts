// Datagrok scripts written in the editor, in the real host against the emulator: completion and
// diagnostics in a header; ▶ Run on Datagrok of an unsaved Python script with a dataframe input (the
// temporary script gone afterwards, the saved one untouched); Push then call by name; a script's error
// shown on the script's line.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { emulator, resetEmulator, signIn, writeAndShow } from './support';

let dir = '';

const open = (name: string, text: string) => writeAndShow(dir, name, text);

const labelOf = (item: vscode.CompletionItem) => (typeof item.label === 'string' ? item.label : item.label.label);

async function labelsAt(document: vscode.TextDocument, position: vscode.Position, expected: string): Promise<string[]> {
  // The features load when a script is shown: ask until our items are there.
  let labels: string[] = [];
  for (let i = 0; i < 40; i++) {
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, position);
    labels = list.items.map(labelOf);
    if (labels.includes(expected)) return labels;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`"${expected}" never completed at ${position.line}:${position.character}: ${labels.slice(0, 30).join(', ')}`);
}

async function diagnostics(uri: vscode.Uri, source: string, until: (d: vscode.Diagnostic[]) => boolean): Promise<vscode.Diagnostic[]> {
  const deadline = Date.now() + 15_000;
  let last: vscode.Diagnostic[] = [];
  while (Date.now() < deadline) {
    last = vscode.languages.getDiagnostics(uri).filter((d) => d.source === source);
    if (until(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`diagnostics never as expected: ${JSON.stringify(last.map((d) => [d.range.start.line, d.message]))}`);
}

/** The server's scripts named like `text`, through the internal route (what a colleague would see). */
async function serverScripts(text: string): Promise<{ id: string; name: string; script: string }[]> {
  const response = await fetch(`${emulator.url}/scripts?text=${encodeURIComponent(text)}`, { headers: { authorization: `Bearer ${emulator.key}` } });
  assert.equal(response.status, 200);
  return (await response.json()) as { id: string; name: string; script: string }[];
}

const CELLS = [
  '#name: CellCount',
  '#language: python',
  '#input: dataframe table [Data table]',
  '#input: int factor = 2',
  '#output: int count',
  'count = table.shape[0] * table.shape[1] * factor',
  '',
].join('\n');

describe('Scripts: header completion and diagnostics, run before saving, push', function () {
  this.timeout(180_000);

  before(async () => {
    await resetEmulator();
    await signIn();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-scripts-'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('completes header keys, languages, types and options', async () => {
    const document = await open('complete.py', '#name: Draft\n#lang\n#language: \n#input: \n#input: int n {ca\n');
    assert.ok((await labelsAt(document, new vscode.Position(1, 5), 'language')).includes('input'));
    assert.ok((await labelsAt(document, new vscode.Position(2, 11), 'python')).includes('javascript'));
    const types = await labelsAt(document, new vscode.Position(3, 8), 'dataframe');
    for (const t of ['int', 'double', 'bool', 'string', 'datetime', 'column', 'column_list', 'list', 'graphics', 'file', 'blob']) assert.ok(types.includes(t), `${t} missing`);
    assert.ok((await labelsAt(document, new vscode.Position(4, 18), 'caption')).includes('choices'));
  });

  it('finds an unknown type, a duplicate input, a missing language and a connection the server lacks', async () => {
    const script = await open('problems.py', '#name: Problems\n#input: integer n\n#input: dataframe t\n#input: int t\nx = 1\n');
    const found = await diagnostics(script.uri, 'Datagrok', (d) => d.length >= 3);
    const messages = found.map((d) => `${d.range.start.line}: ${d.message}`).join('\n');
    assert.match(messages, /1: Unknown type "integer": did you mean "int"\?/);
    assert.match(messages, /3: "t" is declared twice \(first on line 3\)/);
    assert.match(messages, /0: The header has no language/);
    const query = await open('orders.sql', '--name: Orders\n--connection: Northwnd\nselect * from orders\n');
    const warning = await diagnostics(query.uri, 'Datagrok', (d) => d.some((x) => /connection/.test(x.message)));
    assert.match(warning[0].message, /The server has no connection "Northwnd": did you mean "Northwind"\?/);
    assert.equal(warning[0].severity, vscode.DiagnosticSeverity.Warning);
  });

  it('Push creates the script, a second push updates it, and the saved script is called by name', async () => {
    const document = await open('cells.py', CELLS);
    const created = (await vscode.commands.executeCommand('datagrok.scripts.push', { uri: document.uri })) as { id: string; name: string };
    assert.match(created.name, /CellCount$/);
    const count = await vscode.commands.executeCommand('datagrok.functions.run', { function: created.name, params: { table: 'Demo:demog', factor: 1 } });
    const demog = (await (await fetch(`${emulator.url}/public/v1/tables/Demo.demog`, { headers: { authorization: `Bearer ${emulator.key}` } })).text()).trim().split('\n');
    assert.equal(count, (demog.length - 1) * demog[0].split(',').length);
    const again = (await vscode.commands.executeCommand('datagrok.scripts.push', { uri: document.uri })) as { id: string; name: string };
    assert.equal(again.id, created.id);
    assert.deepEqual(
      (await serverScripts('CellCount')).map((s) => s.name),
      ['CellCount'],
    );
  });

  it('▶ Run on Datagrok runs the unsaved text with a dataframe input; the temporary script is gone, the saved one untouched', async () => {
    const document = await open('cells.py', CELLS);
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((e) => e.replace(document.lineAt(5).range, 'count = table.shape[0] * factor * 1000'));
    assert.ok(document.isDirty);
    const saved = await serverScripts('CellCount');
    const result = await vscode.commands.executeCommand('datagrok.scripts.run', { uri: document.uri, params: { table: 'Demo:demog' } });
    const demog = (await (await fetch(`${emulator.url}/public/v1/tables/Demo.demog`, { headers: { authorization: `Bearer ${emulator.key}` } })).text()).trim().split('\n');
    assert.equal(result, (demog.length - 1) * 2 * 1000, "the header's initial value (factor = 2) and the edited text");
    const after = await serverScripts('CellCount');
    assert.deepEqual(
      after.map((s) => s.name),
      ['CellCount'],
      'no temporary script is left',
    );
    assert.equal(after[0].script, saved[0].script, 'the saved script is untouched');
    assert.doesNotMatch(after[0].script, /1000/);
  });

  it('Run Again of a script run before saving runs the text that ran, as a new temporary script, also after the file changed', async () => {
    const text = ['#name: RowTimes', '#language: python', '#input: dataframe table', '#input: int factor = 3', '#output: int count', 'count = table.shape[0] * factor', ''].join(
      '\n',
    );
    const document = await open('rows.py', text);
    const rows =
      (await (await fetch(`${emulator.url}/public/v1/tables/Demo.demog`, { headers: { authorization: `Bearer ${emulator.key}` } })).text()).trim().split('\n').length - 1;
    assert.equal(await vscode.commands.executeCommand('datagrok.scripts.run', { uri: document.uri, params: { table: 'Demo:demog' } }), rows * 3);
    const api = (await vscode.extensions.getExtension('datagrok-community.datagrok-vscode')!.activate()) as {
      rememberedRuns(server: string): { runs: { id: string; functionName: string; script?: { uri: string; fileName: string } }[] };
    };
    const server = emulator.url.replace(/\/+$/, '');
    const first = api.rememberedRuns(server).runs.find((r) => /^RowTimes_vscode_run_/.test(r.functionName.replace(/^.*:/, '')));
    assert.ok(first, 'the run is in the Runs view');
    assert.equal(first.script?.uri, document.uri.toString(), 'the run remembers the script it ran');

    // The file changes (saved, not run): Run Again still runs the text that ran, and leaves no copy behind.
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((e) => e.replace(document.lineAt(5).range, 'count = table.shape[0] * factor * 100'));
    await document.save();
    assert.equal(await vscode.commands.executeCommand('datagrok.runs.runAgain', { id: first.id }), rows * 3, 'the text that ran, not the file as it is now');
    const runs = api.rememberedRuns(server).runs;
    const again = runs.find((r) => r.id !== first.id && /RowTimes_vscode_run_/.test(r.functionName));
    assert.ok(again, 'Run Again is remembered as a run of its own');
    assert.notEqual(again.functionName, first.functionName, 'under a new temporary name');
    assert.equal(again.script?.uri, document.uri.toString());
    assert.deepEqual(await serverScripts('RowTimes'), [], 'no temporary script is left');
    // A Run Again's run can be run again too; ▶ Run on Datagrok runs the file as it is now.
    assert.equal(await vscode.commands.executeCommand('datagrok.runs.runAgain', { id: again.id }), rows * 3);
    assert.equal(await vscode.commands.executeCommand('datagrok.scripts.run', { uri: document.uri, params: { table: 'Demo:demog' } }), rows * 300);
    assert.deepEqual(await serverScripts('RowTimes'), []);
  });

  it("shows a script's error on the script's line and leaves nothing behind", async () => {
    const document = await open('broken.py', ['#name: Broken', '#language: python', '#output: int x', '', 'y = 1', 'x = undefined_name + y', ''].join('\n'));
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('datagrok.scripts.run', { uri: document.uri })),
      /Broken: the script raised an error on line 6 of broken\.py: NameError: name 'undefined_name' is not defined/,
    );
    const shown = await diagnostics(document.uri, 'Datagrok run', (d) => d.length === 1);
    assert.equal(shown[0].range.start.line, 5);
    assert.equal((await serverScripts('Broken')).length, 0);
  });
});

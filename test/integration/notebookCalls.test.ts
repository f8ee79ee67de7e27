// A Datagrok notebook's function-call cells in the real host against the emulator, as the user types:
// completion (the server's functions, a function's inputs, the variables the cells above make, an input's
// choices), hover (the function's signature, a variable's type, shape and cell), signature help, and the
// checks (an unknown function, an argument naming no input, a required input missing, a variable no cell
// above makes, an unreadable call) on the offending text; a script cell's table input from the cells above.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { resetEmulator, signIn, unescapeMarkdown } from './support';

const NOTEBOOK = [
  '%% datagrok-notebook',
  '',
  '%% sql',
  '--connection: Samples:Northwind',
  '--output: dataframe byCountry',
  'select country, count(*) as n from customers group by country',
  '',
  '%% datagrok-call',
  'scaled = Scripts:Normalize(table: byCountry, column: "n", method: "min-max")',
  '',
  '%% datagrok-call',
  'Scripts:Normalize(table: byCountry, colum: "n", method: "max")',
  '',
  '%% datagrok-call',
  'Demo:RowCount(table: later)',
  '',
  '%% datagrok-call',
  'Demo:RowCont(table: byCountry)',
  '',
  '%% python',
  '#input: dataframe byCountry',
  '#input: dataframe elsewhere',
  '#output: dataframe later',
  'later = byCountry',
  '',
  '%% datagrok-call',
  'Demo:Add(a: 1, b: 2',
  '',
  '%% jsonc',
  '{ "$function": "Demo:RowCount", "table": "byCountry", "extra": 1 }',
  '',
].join('\n');

let dir = '';
let notebook: vscode.NotebookDocument;

const cellUri = (index: number) => notebook.cellAt(index).document.uri;
const labelOf = (item: vscode.CompletionItem) => (typeof item.label === 'string' ? item.label : item.label.label);

/** The position just after `marker` (the first match) in a cell's text, or at its start with `before`. */
function positionIn(index: number, marker: string, before = false): vscode.Position {
  const document = notebook.cellAt(index).document;
  const at = document.getText().indexOf(marker);
  assert.ok(at >= 0, `"${marker}" in cell ${index}`);
  return document.positionAt(at + (before ? 0 : marker.length));
}

async function completions(index: number, position: vscode.Position, expect: string): Promise<vscode.CompletionItem[]> {
  let items: vscode.CompletionItem[] = [];
  // The catalog answers the first time through the server; the items are there once it has.
  for (let i = 0; i < 40; i++) {
    items = (await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', cellUri(index), position)).items;
    if (items.some((item) => labelOf(item) === expect)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return items;
}

async function hoverText(index: number, position: vscode.Position): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', cellUri(index), position);
  return unescapeMarkdown(hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join('\n')).replace(/&nbsp;/g, ' ');
}

/** The notebook's diagnostics of a cell (ours), once `ready` holds for them. */
async function diagnostics(index: number, ready: (d: vscode.Diagnostic[]) => boolean): Promise<vscode.Diagnostic[]> {
  let found: vscode.Diagnostic[] = [];
  for (let i = 0; i < 60; i++) {
    found = vscode.languages.getDiagnostics(cellUri(index)).filter((d) => d.source === 'Datagrok');
    if (ready(found)) return found;
    await new Promise((r) => setTimeout(r, 250));
  }
  return found;
}

const rangeText = (index: number, d: vscode.Diagnostic) => notebook.cellAt(index).document.getText(d.range);

describe('notebook call cells: completion, hover and checks as you type', function () {
  this.timeout(120_000);

  before(async () => {
    await resetEmulator();
    await signIn();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-notebook-calls-'));
    const file = path.join(dir, 'calls.dgnb');
    fs.writeFileSync(file, NOTEBOOK);
    notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
    await vscode.window.showNotebookDocument(notebook);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("completes the server's functions, a function's inputs not given, the tables above and an input's choices", async () => {
    const functions = await completions(1, positionIn(1, 'Scripts:Nor'), 'Scripts:Normalize');
    assert.ok(
      functions.some((f) => labelOf(f) === 'Demo:RowCount'),
      functions.map(labelOf).slice(0, 20).join(', '),
    );
    const inputs = (await completions(1, positionIn(1, 'Normalize('), 'table')).map(labelOf);
    assert.ok(inputs.includes('table') && !inputs.includes('column'), `inputs not given yet: ${inputs}`);
    const tables = (await completions(1, positionIn(1, 'table: '), 'byCountry')).map(labelOf);
    assert.deepEqual(tables, ['byCountry'], 'the table the query above makes');
    const choices = (await completions(1, positionIn(1, 'method: '), '"z-score"')).map(labelOf);
    assert.deepEqual(choices, ['"z-score"', '"min-max"']);
  });

  it("hovers: the function's signature and description; a variable's type, shape and the cell that makes it", async () => {
    const signature = await hoverText(1, positionIn(1, 'Scripts:Norm'));
    assert.match(signature, /Scripts:Normalize\(table: dataframe, column: string, method: string = "z-score"\) → result: dataframe/);
    assert.match(signature, /Normalizes a numeric column/);
    assert.match(await hoverText(1, positionIn(1, 'table: byCoun')), /byCountry.*dataframe, made by cell 1 \(not run yet\)/);
    const [ran] = await vscode.commands.executeCommand<{ outcome: string }[]>('datagrok.notebooks.run', { uri: notebook.uri, cells: [0] });
    assert.equal(ran.outcome, 'succeeded');
    assert.match(await hoverText(1, positionIn(1, 'table: byCoun')), /byCountry.*dataframe, \d+ rows × 2 columns, made by cell 1$/m);
    assert.match(await hoverText(1, positionIn(1, 'colu')), /input \*\*column\*\*: `string`, required/);
  });

  it('signature help while typing the arguments, on the input being written', async () => {
    const help = await vscode.commands.executeCommand<vscode.SignatureHelp>('vscode.executeSignatureHelpProvider', cellUri(1), positionIn(1, 'method: "'));
    assert.match(help.signatures[0].label, /^Scripts:Normalize\(table: dataframe/);
    assert.equal(help.activeParameter, 2);
  });

  it('checks as you type, on the offending text: no input, a choice, a missing input, a table made below, an unknown function, an unreadable call', async () => {
    assert.deepEqual(await diagnostics(1, (d) => d.length === 0), [], 'a sound call');
    const call = await diagnostics(2, (d) => d.length >= 3);
    assert.deepEqual(
      call.map((d) => [rangeText(2, d), d.severity, d.message]),
      [
        ['colum', vscode.DiagnosticSeverity.Error, 'Scripts:Normalize has no input "colum": did you mean "column"? Its inputs: table, column, method.'],
        ['"max"', vscode.DiagnosticSeverity.Warning, 'method is one of "z-score", "min-max" (not "max").'],
        ['Scripts:Normalize', vscode.DiagnosticSeverity.Error, 'Scripts:Normalize needs its input column (string): add "column: <value>".'],
      ],
    );
    const later = await diagnostics(3, (d) => d.length > 0);
    assert.deepEqual(
      later.map((d) => [rangeText(3, d), d.message]),
      [['later', 'No cell above makes "later": cell 6, below this one, does. Move this cell below it.']],
    );
    const unknown = await diagnostics(4, (d) => d.length > 0);
    assert.deepEqual(
      unknown.map((d) => [rangeText(4, d), d.message]),
      [['Demo:RowCont', 'The server has no function "Demo:RowCont": did you mean Demo:RowCount?']],
    );
    const script = await diagnostics(5, (d) => d.length > 0);
    assert.deepEqual(
      script.map((d) => [rangeText(5, d), d.message]),
      [['elsewhere', 'No cell above makes "elsewhere": add and run the cell that makes it first, or fix the name.']],
    );
    const open = await diagnostics(6, (d) => d.length > 0);
    assert.deepEqual(
      open.map((d) => [rangeText(6, d), d.message]),
      [['(', 'Line 1: The call of Demo:Add has no closing ")".']],
    );
    // Fixed as the user types: the problems go.
    const edit = new vscode.WorkspaceEdit();
    const document = notebook.cellAt(2).document;
    edit.replace(document.uri, new vscode.Range(0, 0, 0, document.lineAt(0).text.length), 'Scripts:Normalize(table: byCountry, column: "n", method: "min-max")');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.deepEqual(await diagnostics(2, (d) => d.length === 0), []);
  });

  it("a script cell: its input's name offers the tables above; hovering it tells the table it takes", async () => {
    const document = notebook.cellAt(5).document;
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, new vscode.Position(0, 0), '#input: dataframe \n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const names = (await completions(5, new vscode.Position(0, 18), 'byCountry')).map(labelOf);
    assert.ok(names.includes('byCountry') && names.includes('scaled'), names.join(', '));
    assert.match(await hoverText(5, positionIn(5, '#input: dataframe byC')), /takes \*\*byCountry\*\*: dataframe, \d+ rows × 2 columns, made by cell 1/);
  });

  it("a parameter-object cell: its parameter file's checks, but a notebook table's name is not looked for on the server; the tables above offered", async () => {
    const found = await diagnostics(7, (d) => d.some((x) => /extra/.test(x.message)));
    assert.ok(
      found.some((d) => /extra/.test(d.message)),
      JSON.stringify(found.map((d) => d.message)),
    );
    assert.ok(!found.some((d) => /has no table/.test(d.message)), JSON.stringify(found.map((d) => d.message)));
    const tables = (await completions(7, positionIn(7, '"table": "'), '"byCountry"')).filter((i) => i.kind === vscode.CompletionItemKind.Variable).map(labelOf);
    // The query's, cell 2's (scaled), cell 3's since its fix (result) and the Python cell's (later).
    assert.deepEqual(tables.sort(), ['"byCountry"', '"later"', '"result"', '"scaled"'], "a table input's value offers the notebook's tables above");
  });

  it('a notebook open but not shown in an editor is not checked on a sign-in; it is once shown', async () => {
    const file = path.join(dir, 'hidden.dgnb');
    fs.writeFileSync(file, ['%% datagrok-notebook', '', '%% datagrok-call', 'Demo:RowCont(table: nothing)', ''].join('\n'));
    const hidden = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
    const ours = () => vscode.languages.getDiagnostics(hidden.cellAt(0).document.uri).filter((d) => d.source === 'Datagrok');
    await signIn();
    // Past the checks' debounce (300 ms) with time to spare: nothing was said of the hidden notebook.
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(ours(), [], 'no checks of a notebook no editor shows');
    await vscode.window.showNotebookDocument(hidden);
    for (let i = 0; i < 80 && ours().length === 0; i++) await new Promise((r) => setTimeout(r, 250));
    assert.match(
      ours()
        .map((d) => d.message)
        .join('\n'),
      /Demo:RowCont/,
      'checked once shown',
    );
  });
});

// Running platform functions from parameter files through the real command against the emulator's
// demo functions: one output, several outputs, a dataframe output (opened as CSV), errors.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { clearEmulatorRequests, control, emulatorRequests, requireWorkspaceTrust, resetEmulator, signIn } from './support';

function run<T = unknown>(command: string, arg?: unknown): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, arg));
}

/** A temporary folder for a suite's files: made by `before`, removed by `after`. */
function scratchFolder(prefix: string) {
  let dir = '';
  return {
    make: () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    },
    remove: () => {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
    write: (name: string, text: string): vscode.Uri => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, text);
      return vscode.Uri.file(file);
    },
  };
}

describe('Functions: run from parameter files', () => {
  const { make, remove, write } = scratchFolder('dg-functions-');

  before(async function () {
    // Files run only in a trusted workspace when called with options (see the untrusted suite below).
    requireWorkspaceTrust(this, true);
    await resetEmulator();
    await signIn();
    make();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    remove();
  });

  it('runs a function with one output (Demo:Add) from a file with comments', async () => {
    const uri = write('add.datagrok.json', '{\n  // the function\n  "$function": "Demo:Add",\n  "a": 2,\n  "b": 3, // trailing comma next\n}\n');
    assert.equal(await run('datagrok.functions.run', { uri }), 5);
    // params merged over the file's inputs
    assert.equal(await run('datagrok.functions.run', { uri, params: { b: 40 } }), 42);
    // params alone, no file
    assert.equal(await run('datagrok.functions.run', { function: 'Demo:Add', params: { a: 1, b: 1 } }), 2);
    // a Uri alone, as a script passes it: runs without asking anything
    assert.equal(await run('datagrok.functions.run', uri), 5);
  });

  it('called with a Uri alone, never waits on the user: a file without "$function" is refused', async () => {
    const uri = write('no-function.json', '{ "a": 1 }');
    await assert.rejects(run('datagrok.functions.run', uri), /does not name a function/);
  });

  it("runs the active editor's parameter file, unsaved edits included", async () => {
    const uri = write('active.json', '{ "$function": "Demo:Add", "a": 1, "b": 1 }');
    const editor = await vscode.window.showTextDocument(uri);
    await editor.edit((e) => e.replace(new vscode.Range(0, 0, 0, editor.document.getText().length), '{ "$function": "Demo:Add", "a": 100, "b": 1 }'));
    assert.equal(await run('datagrok.functions.run', {}), 101);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('returns every output of a function with several outputs (Demo:ColumnStats)', async () => {
    const uri = write('stats.json', '{ "$function": "Demo:ColumnStats", "column": "Demo:demog/AGE" }');
    const result = await run<unknown[]>('datagrok.functions.run', { uri });
    assert.ok(Array.isArray(result) && result.length === 4, JSON.stringify(result));
    const [min, max, mean, count] = result as number[];
    assert.ok(min >= 18 && max <= 82 && mean > min && mean < max, JSON.stringify(result));
    assert.equal(count, 5850);
  });

  it('opens a dataframe output (Demo:Filter) in the data view, a named read-only CSV document', async () => {
    const uri = write('filter.json', '{ "$function": "Demo:Filter", "table": "Demo:demog", "column": "AGE", "min": 80 }');
    const result = await run<string>('datagrok.functions.run', { uri });
    assert.equal(typeof result, 'string');
    assert.match(result, /^USUBJID,AGE,/);
    const document = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'datagrok-result' && d.getText() === result);
    assert.ok(document, 'the CSV output is open in an editor');
    assert.equal(path.posix.basename(document.uri.path), 'Demo:Filter — result.csv');
    assert.equal(document.languageId, 'csv');
    assert.equal(document.isUntitled, false);
    assert.equal(document.isDirty, false);
    // Shown in the data view (a grid), the text open as a document.
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(tab instanceof vscode.TabInputCustom && tab.viewType === 'datagrok.dataView' && tab.uri.toString() === document.uri.toString(), 'the data view is the active editor');
  });

  it('uses options.function when the file has no "$function", and refuses without it', async () => {
    const uri = write('nofunction.json', '{ "a": 20, "b": 22 }');
    assert.equal(await run('datagrok.functions.run', { uri, function: 'Demo:Add' }), 42);
    await clearEmulatorRequests();
    await assert.rejects(run('datagrok.functions.run', { uri }), /"nofunction\.json" does not name a function: add "\$function"/);
    await assert.rejects(run('datagrok.functions.run', { uri, params: [1] }), /"params" must be an object/);
    assert.deepEqual(await emulatorRequests(), [], 'nothing was called');
    // A bare name given with options goes to the server as it is (a script saved without a namespace has no
    // Package:Name), and the server's answer says what is wrong.
    await assert.rejects(run('datagrok.functions.run', { uri, function: 'Add' }), /Function Add not found/);
  });

  it('refuses a broken parameter file with where it is broken', async () => {
    const uri = write('broken.json', '{\n  "$function": "Demo:Add",\n  "a": 1\n  "b": 2\n}');
    await assert.rejects(run('datagrok.functions.run', { uri }), /"broken\.json" is not valid JSON: CommaExpected at line 4, column 3/);
  });

  it("shows the server's message when the function fails (Demo:Fail)", async () => {
    const uri = write('fail.json', '{ "$function": "Demo:Fail", "message": "the reactor is offline" }');
    await assert.rejects(run('datagrok.functions.run', { uri }), /the reactor is offline/);
    // Also when the server answers 200 with an ApiError body.
    await control('POST', 'config', { errorsAsHttp200: true });
    try {
      await assert.rejects(run('datagrok.functions.run', { uri }), /the reactor is offline/);
    } finally {
      await control('POST', 'config', { errorsAsHttp200: false });
    }
  });

  it('pushes a {"$csv": file} input first and passes its table ID', async () => {
    write('small.csv', 'x,y\n1,2\n3,4\n5,6\n');
    const uri = write('rows.json', '{ "$function": "Demo:RowCount", "table": { "$csv": "./small.csv", "name": "Local.small" } }');
    assert.equal(await run('datagrok.functions.run', { uri }), 3);
    const state = await control<{ tables: Array<{ project: string; name: string }> }>('GET', 'state');
    assert.ok(state.tables.some((t) => t.project === 'Local' && t.name === 'small'));
    const bad = write('badcsv.json', '{ "$function": "Demo:RowCount", "table": { "$csv": "./missing.csv" } }');
    await assert.rejects(run('datagrok.functions.run', { uri: bad }), /missing\.csv/);
  });

  it('validates *.datagrok.json files against the parameter-file schema', async function () {
    this.timeout(30_000);
    const uri = write('schema.datagrok.json', '{\n  // comments are fine\n  "$function": "NoPackage",\n  "a": 1\n}\n');
    await vscode.window.showTextDocument(uri);
    let messages: string[] = [];
    for (let i = 0; i < 100 && !messages.some((m) => m.includes('Package:Name')); i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      messages = vscode.languages.getDiagnostics(uri).map((d) => d.message);
    }
    assert.ok(
      messages.some((m) => m.includes('Package:Name')),
      `a schema diagnostic on "$function": ${JSON.stringify(messages)}`,
    );
    assert.ok(!messages.some((m) => /comment/i.test(m)), 'comments are allowed');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('shows a "▶ Run Package:Name" CodeLens above parameter files', async () => {
    const uri = write('lens.json', '{\n  "$function": "Demo:Add",\n  "a": 1,\n  "b": 2\n}\n');
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.languageId, 'json');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
    const lens = lenses.find((l) => l.command?.command === 'datagrok.functions.run');
    assert.ok(lens?.command, 'a Run lens');
    assert.equal(lens.command.title, '▶ Run Demo:Add');
    assert.equal(String(lens.command.arguments?.[0]), uri.toString());

    const plain = write('plain.json', '{ "name": "not a parameter file" }');
    await vscode.workspace.openTextDocument(plain);
    const none = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', plain);
    assert.equal(none.filter((l) => l.command?.command === 'datagrok.functions.run').length, 0);
  });
});

describe('Functions: untrusted workspace (the launcher with DATAGROK_TEST_WORKSPACE_TRUST=1)', () => {
  const { make, remove, write } = scratchFolder('dg-untrusted-');

  before(async function () {
    requireWorkspaceTrust(this, false);
    await resetEmulator();
    await signIn();
    make();
  });

  after(remove);

  it('refuses to run a file programmatically; parameters given directly still run', async () => {
    const uri = write('untrusted.json', '{ "$function": "Demo:Add", "a": 1, "b": 2 }');
    await clearEmulatorRequests();
    await assert.rejects(run('datagrok.functions.run', { uri }), /Refused to run Demo:Add from "untrusted\.json": this workspace is not trusted/);
    assert.deepEqual(await emulatorRequests(), [], 'nothing was called');
    // Parameters given directly are not a file from the workspace.
    assert.equal(await run('datagrok.functions.run', { function: 'Demo:Add', params: { a: 1, b: 2 } }), 3);
  });
});

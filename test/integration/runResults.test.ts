// Function results as read-only documents, in the real host against the emulator's demo functions.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { inRunsDir, makeRunsDir, removeRunsDir, resultDocument, run, write } from './runSupport';
import { control, requireWorkspaceTrust, resetEmulator, signIn } from './support';

describe('Runs: result documents', () => {
  before(async function () {
    requireWorkspaceTrust(this, true);
    await resetEmulator();
    await signIn();
    makeRunsDir();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    removeRunsDir();
  });

  it('opens a scalar result beside the parameter file as a read-only document "Demo:Add — result"', async () => {
    const uri = write('add.datagrok.json', '{ "$function": "Demo:Add", "a": 2, "b": 3 }');
    await vscode.window.showTextDocument(uri);
    assert.equal(await run('datagrok.functions.run', { uri }), 5);
    const document = resultDocument('Demo:Add — result');
    assert.equal(document.uri.scheme, 'datagrok-result');
    assert.equal(document.languageId, 'json');
    assert.equal(document.getText().trim(), '5');
    assert.equal(document.isUntitled, false);
    assert.equal(document.isDirty, false);
    // Beside the parameter file, which keeps the focus.
    const resultEditor = vscode.window.visibleTextEditors.find((e) => e.document === document);
    const fileEditor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
    assert.ok(resultEditor && fileEditor, 'both the result and the parameter file are visible');
    assert.notEqual(resultEditor.viewColumn, fileEditor.viewColumn);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uri.toString());
    // Writes are refused: the file system is read-only, and an edit does not make it dirty.
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(document.uri, new TextEncoder().encode('6'))));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, new vscode.Position(0, 0), 'x');
    const applied = await vscode.workspace.applyEdit(edit);
    assert.ok(!applied || !document.isDirty || document.getText().trim() === '5', 'the result document took an edit');
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(document.uri)).trim(), '5');
  });

  it('opens a large JSON result and several outputs in one JSON document', async () => {
    const uri = write('stats.json', '{ "$function": "Demo:ColumnStats", "column": "Demo:demog/AGE" }');
    const result = await run<number[]>('datagrok.functions.run', { uri });
    const document = resultDocument('Demo:ColumnStats — result');
    // Each output under its name in the signature, in its order.
    const [min, max, mean, count] = result;
    assert.deepEqual(JSON.parse(document.getText()), { min, max, mean, count });
    assert.equal(document.isDirty, false);
  });

  it('saves a dataframe result as a file and pushes it as a table', async () => {
    const uri = write('filter.json', '{ "$function": "Demo:Filter", "table": "Demo:demog", "column": "AGE", "min": 80 }');
    const csv = await run<string>('datagrok.functions.run', { uri });
    const document = resultDocument('Demo:Filter — result.csv');
    assert.equal(document.languageId, 'csv');
    assert.equal(document.isDirty, false);
    assert.equal(document.getText(), csv);

    const target = vscode.Uri.file(inRunsDir('saved.csv'));
    assert.equal((await run<vscode.Uri>('datagrok.runs.saveResultAs', { uri: document.uri, target })).fsPath, target.fsPath);
    assert.equal(fs.readFileSync(target.fsPath, 'utf8'), csv);
    // An existing file is not replaced without { overwrite: true }.
    fs.writeFileSync(target.fsPath, 'mine');
    await assert.rejects(run('datagrok.runs.saveResultAs', { uri: document.uri, target }), /already exists.*Nothing was written/);
    assert.equal(fs.readFileSync(target.fsPath, 'utf8'), 'mine');

    const pushed = await run<{ ID: string; name: string }>('datagrok.runs.pushResult', { uri: document.uri, name: 'old_patients' });
    assert.match(pushed.name, /(^|[:.])old_patients$/);
    const state = await control<{ tables: { ID: string; name: string }[] }>('GET', 'state');
    assert.ok(
      state.tables.some((t) => t.ID === pushed.ID),
      'the emulator holds the pushed table',
    );
    // Only CSV results are tables.
    await run('datagrok.functions.run', { function: 'Demo:Add', params: { a: 1, b: 1 } });
    await assert.rejects(run('datagrok.runs.pushResult', { uri: resultDocument('Demo:Add — result').uri }), /not a dataframe/);
  });
});

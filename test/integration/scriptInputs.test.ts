// Scripts as a user meets them, in the real host against the emulator: ▶ Run on Datagrok from the lens
// asks each input (prefilled with the header's defaults; a choice and a dataframe input without a default
// are picked), offers the parameter file beside the script, and Escape runs nothing; the result is shown
// under the script's name with each value labelled by its output; a script's own error is told as the
// script's, on its line, without advice about the server; Pull Script writes the script into the workspace
// (never over a different file without a yes) or opens it read-only with Save As.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { clearEmulatorRequests, emulator, emulatorRequests, resetEmulator, signIn, writeAndShow } from './support';

const FROM_UI = { datagrokFromUi: true };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dir = '';

const open = (name: string, text: string) => writeAndShow(dir, name, text);

/** Runs a command as the lens does (it may ask), doing `each` to whatever prompt shows until it settles. */
async function answering<T>(
  running: Thenable<T>,
  each: () => Thenable<unknown> = () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem'),
): Promise<T> {
  let settled = false;
  const done = Promise.resolve(running).finally(() => {
    settled = true;
  });
  for (let i = 0; i < 150 && !settled; i++) {
    await sleep(200);
    if (!settled) await each();
  }
  return done;
}

const SUMSQ = [
  '#name: SumSq',
  '#language: python',
  '#input: int a = 3',
  '#input: int b = 4',
  '#input: string how {choices: ["sum", "product"]}',
  '#output: int c',
  'c = a * a + b * b if how == "sum" else a * a * b * b',
  '',
].join('\n');

async function api() {
  return (await vscode.extensions.getExtension('datagrok-community.datagrok-vscode')!.activate()) as {
    rememberedRuns(server: string): { runs: { id: string; functionName: string; summary: string; outcome: string }[] };
  };
}

const resultDocument = (name: string) => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'datagrok-result' && path.posix.basename(d.uri.path) === name && !d.isClosed);

describe('Scripts as a user meets them: inputs asked, results named, errors told, Pull Script', function () {
  this.timeout(180_000);

  before(async () => {
    await resetEmulator();
    await signIn();
    dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'scripts-as-met');
    fs.mkdirSync(dir, { recursive: true });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("from the lens asks each input, prefilled with the header's defaults; the result is the script's, labelled c = 25", async () => {
    const document = await open('sumsq.py', SUMSQ);
    // Enter on each prompt: a = 3, b = 4 (the defaults), how = the first choice ("sum").
    const result = await answering(vscode.commands.executeCommand('datagrok.scripts.run', document.uri, FROM_UI));
    assert.equal(result, 25);
    const shown = resultDocument('SumSq — result');
    assert.ok(shown, 'the result document is named after the script, not its temporary copy');
    assert.deepEqual(JSON.parse(shown.getText()), { c: 25 });
    assert.match(decodeURIComponent(shown.uri.path), /^\/SumSq\(a: 3, b: 4, how: "sum"\)\//, 'the breadcrumbs: the script and the inputs asked');
    const server = emulator.url.replace(/\/+$/, '');
    const run = (await api()).rememberedRuns(server).runs.find((r) => /^SumSq_vscode_run_/.test(r.functionName.replace(/^.*:/, '')));
    assert.ok(run);
    assert.equal(run.summary, 'c = 25');
  });

  it('Escape at the first prompt runs nothing and leaves nothing on the server', async () => {
    const document = await open('sumsq.py', SUMSQ);
    await clearEmulatorRequests();
    const result = await answering(vscode.commands.executeCommand('datagrok.scripts.run', document.uri, FROM_UI), () =>
      vscode.commands.executeCommand('workbench.action.closeQuickOpen'),
    );
    assert.equal(result, undefined);
    const sent = (await emulatorRequests()).filter((r) => r.method !== 'GET');
    assert.deepEqual(sent, [], 'no temporary script saved, nothing called');
  });

  it("a dataframe input without a default offers the server's tables", async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const document = await open('rows.py', ['#name: Rows', '#language: python', '#input: dataframe table', '#output: int n', 'n = table.shape[0]', ''].join('\n'));
    const result = await answering(vscode.commands.executeCommand('datagrok.scripts.run', document.uri, FROM_UI));
    assert.equal(typeof result, 'number', 'the first table listed was picked and sent');
    assert.ok((result as number) > 0);
  });

  it('offers the parameter file beside the script first; choosing it runs with its inputs', async () => {
    const document = await open('sumsq.py', SUMSQ);
    fs.writeFileSync(path.join(dir, 'sumsq.datagrok.json'), JSON.stringify({ $script: './sumsq.py', a: 1, b: 2, how: 'product' }));
    try {
      assert.equal(await answering(vscode.commands.executeCommand('datagrok.scripts.run', document.uri, FROM_UI)), 4);
      // Called with options, as before: the file beside it and the header's defaults, no prompt.
      assert.equal(await vscode.commands.executeCommand('datagrok.scripts.run', { uri: document.uri, params: { how: 'sum' } }), 5);
    } finally {
      fs.rmSync(path.join(dir, 'sumsq.datagrok.json'));
    }
  });

  it("tells a script's own error as the script's, on its line, without advice about the server", async () => {
    const document = await open('broken.py', ['#name: Broken', '#language: python', '#output: int x', '', 'y = 1', 'x = undefined_name + y', ''].join('\n'));
    const error = await Promise.resolve(vscode.commands.executeCommand('datagrok.scripts.run', { uri: document.uri })).then(
      () => assert.fail('the run should fail'),
      (e: Error) => e,
    );
    assert.match(error.message, /^Broken: the script raised an error on line 6 of broken\.py: NameError: name 'undefined_name' is not defined\./);
    assert.doesNotMatch(error.message, /administrator|vscode_run/);
    const deadline = Date.now() + 10_000;
    let shown: vscode.Diagnostic[] = [];
    while (Date.now() < deadline && shown.length === 0) {
      shown = vscode.languages.getDiagnostics(document.uri).filter((d) => d.source === 'Datagrok run');
      await sleep(100);
    }
    assert.equal(shown[0]?.range.start.line, 5);
  });

  it('Pull Script writes the script into the folder, opens it as a file, and never replaces a different file without a yes', async () => {
    const folder = vscode.Uri.file(dir);
    const uri = (await vscode.commands.executeCommand('datagrok.scripts.pull', { name: 'Scripts:SumList', folder })) as vscode.Uri;
    assert.equal(uri.fsPath, path.join(dir, 'SumList.py'));
    const text = fs.readFileSync(uri.fsPath, 'utf8');
    assert.match(text, /#name: SumList/);
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    assert.ok(document && !document.isDirty && document.uri.scheme === 'file', 'opened as the file, nothing to save');
    // The same text again: the same file, untouched.
    assert.equal(((await vscode.commands.executeCommand('datagrok.scripts.pull', { name: 'SumList', folder })) as vscode.Uri).fsPath, uri.fsPath);
    fs.writeFileSync(uri.fsPath, `${text}\n# my change\n`);
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('datagrok.scripts.pull', { name: 'SumList', folder })),
      /already exists with other text.*Nothing was written/,
    );
    assert.match(fs.readFileSync(uri.fsPath, 'utf8'), /# my change/);
    await vscode.commands.executeCommand('datagrok.scripts.pull', { name: 'SumList', folder, overwrite: true });
    assert.equal(fs.readFileSync(uri.fsPath, 'utf8'), text);
  });

  it('Pull Script from the palette lists the catalog and writes into the folder chosen (the workspace folder by default)', async () => {
    const workspace = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const uri = (await answering(vscode.commands.executeCommand('datagrok.scripts.pull'))) as vscode.Uri | undefined;
    assert.ok(uri, 'a script was pulled');
    assert.equal(path.dirname(uri.fsPath), workspace);
    assert.ok(fs.existsSync(uri.fsPath));
    fs.rmSync(uri.fsPath);
  });

  it('a read-only pulled script (no folder open) has its text from the server, and Save As writes a file', async () => {
    const listed = (await (await fetch(`${emulator.url}/scripts?text=SumList`, { headers: { authorization: `Bearer ${emulator.key}` } })).json()) as { id: string }[];
    const readOnly = vscode.Uri.from({ scheme: 'datagrok-script', path: `/script/${listed[0].id}/SumList.py` });
    const document = await vscode.workspace.openTextDocument(readOnly);
    assert.match(document.getText(), /#name: SumList/);
    const target = vscode.Uri.file(path.join(dir, 'saved-as.py'));
    assert.equal(((await vscode.commands.executeCommand('datagrok.scripts.savePulledAs', { uri: readOnly, target })) as vscode.Uri).fsPath, target.fsPath);
    assert.equal(fs.readFileSync(target.fsPath, 'utf8'), document.getText());
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('datagrok.scripts.savePulledAs', { uri: readOnly, target })), /already exists\. Nothing was written/);
  });
});

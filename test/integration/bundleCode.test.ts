// A bundle entity's code as a document in its language, in the real VS Code: a pulled Python script's code opens
// as Python (the header's checks and completion on it), its save writes only the "script" string of the JSON
// file; a query's code opens as SQL; a save over a code changed on disk is refused and writes nothing; Open
// Changes shows the code diff with the bundle's side editable, saved back into the JSON file.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { resetEmulator, signIn } from './support';

const SCRIPT_FILE = 'Script/Scripts.Normalize.json';
const QUERY_FILE = 'DataQuery/Samples.TopCustomers.json';

function run<T = unknown>(command: string, arg?: unknown): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, arg));
}

async function until<T>(what: string, get: () => T | Promise<T>, ok: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last = await get();
  while (!ok(last) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    last = await get();
  }
  assert.ok(ok(last), `${what}: ${JSON.stringify(last)}`);
  return last;
}

/** The file's text before and after the value of its top-level string `key` (what a code save must leave alone). */
function around(text: string, key: string): [string, string] {
  const start = text.indexOf(`"${key}": "`) + key.length + 4;
  let end = start + 1;
  while (text[end] !== '"' || text[end - 1] === '\\') end++;
  return [text.slice(0, start), text.slice(end + 1)];
}

async function replaceAll(document: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), text);
  assert.ok(await vscode.workspace.applyEdit(edit), 'the code document takes an edit');
}

describe('Bundle code: a script or query of a bundle edited as code in its language', function () {
  this.timeout(120_000);
  let dir = '';
  const file = (rel: string) => path.join(dir, rel);
  const read = (rel: string) => fs.readFileSync(file(rel), 'utf8');

  before(async () => {
    await resetEmulator();
    await signIn();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-bundle-code-'));
    await run('datagrok.bundle.pull', { folder: vscode.Uri.file(dir), selection: ['Scripts:Normalize', 'Samples:TopCustomers'] });
    assert.ok(fs.existsSync(file(SCRIPT_FILE)) && fs.existsSync(file(QUERY_FILE)), fs.readdirSync(dir, { recursive: true }).join(', '));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens a script\'s code as Python, with the header\'s checks and completion; a save writes only its "script"', async () => {
    const before = read(SCRIPT_FILE);
    const uri = await run<vscode.Uri>('datagrok.bundle.openCode', { uri: vscode.Uri.file(file(SCRIPT_FILE)) });
    assert.equal(uri.scheme, 'datagrok-bundle-code');
    assert.match(uri.path, /\/Script\/Scripts\.Normalize\.py$/);
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uri.toString(), 'shown in the editor');
    assert.equal(document.languageId, 'python');
    assert.equal(document.getText(), JSON.parse(before).script, 'the code, not an escaped JSON string');
    assert.match(document.getText(), /^#name: Normalize\n/);

    // The header's checks: a type the platform does not know.
    const code = document.getText().replace('#input: dataframe table', '#input: dataframes table');
    await replaceAll(document, code);
    const found = await until(
      'a header diagnostic on the code document',
      () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Datagrok'),
      (d) => d.length > 0,
    );
    assert.match(found[0].message, /Unknown type "dataframes": did you mean "dataframe"\?/);
    const line = document.getText().split('\n').indexOf('#lang');
    assert.equal(line, -1);
    const completion = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, new vscode.Position(1, 1));
    assert.ok(
      completion.items.some((i) => (typeof i.label === 'string' ? i.label : i.label.label) === 'output'),
      'header keys complete on the code document',
    );

    const edited = `${code.replace('dataframes', 'dataframe')}print("done")  # "quoted", \\ and a tab\t\n`;
    await replaceAll(document, edited);
    assert.ok(await document.save(), 'saved');
    assert.equal(document.isDirty, false);
    const after = read(SCRIPT_FILE);
    assert.equal(JSON.parse(after).script, edited, 'the JSON file holds the new code');
    assert.deepEqual(around(after, 'script'), around(before, 'script'), 'nothing else in the file changed');
    assert.equal(document.uri.toString(), uri.toString());
  });

  it('Open Code takes the entity file in the editor; bad options are refused with the reason', async () => {
    await vscode.window.showTextDocument(vscode.Uri.file(file(QUERY_FILE)));
    const uri = await run<vscode.Uri>('datagrok.bundle.openCode');
    assert.match(uri.path, /\/DataQuery\/Samples\.TopCustomers\.sql$/);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uri.toString());
    await assert.rejects(run('datagrok.bundle.openCode', {}), /Give the entity's JSON file as \{ uri: Uri \}/);
    await assert.rejects(run('datagrok.bundle.openCode', { uri: vscode.Uri.file(file('manifest.json')) }), /manifest\.json is no bundle entity, not a script or a query/);
    const connection = fs.readdirSync(file('DataConnection'))[0];
    await assert.rejects(
      run('datagrok.bundle.openCode', { uri: vscode.Uri.file(file(`DataConnection/${connection}`)) }),
      new RegExp(`${connection.replace(/\./g, '\\.')} is a DataConnection, not a script or a query: it has no code to open`),
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens a query\'s code as SQL; a save writes only its "query"', async () => {
    const before = read(QUERY_FILE);
    const uri = await run<vscode.Uri>('datagrok.bundle.openCode', { uri: vscode.Uri.file(file(QUERY_FILE)) });
    assert.match(uri.path, /\/DataQuery\/Samples\.TopCustomers\.sql$/);
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.languageId, 'sql');
    assert.equal(document.getText(), JSON.parse(before).query);
    const edited = document.getText().replace(/\n?$/, '\n-- reviewed\n');
    await replaceAll(document, edited);
    assert.ok(await document.save());
    const after = read(QUERY_FILE);
    assert.equal(JSON.parse(after).query, edited);
    assert.deepEqual(around(after, 'query'), around(before, 'query'));
  });

  it('refuses a save when the code changed on disk since it was opened, and writes nothing; a change to other keys is kept', async () => {
    const json = vscode.Uri.file(file(SCRIPT_FILE));
    const uri = await run<vscode.Uri>('datagrok.bundle.openCode', { uri: json });
    const document = await vscode.workspace.openTextDocument(uri);
    // Another key changed on disk (a colleague's description): the code's save keeps it.
    const described = read(SCRIPT_FILE).replace('"description": "', '"description": "Reviewed. ');
    fs.writeFileSync(file(SCRIPT_FILE), described);
    await replaceAll(document, `${document.getText()}# mine\n`);
    assert.ok(await document.save(), 'saved: only another key changed on disk');
    assert.match(JSON.parse(read(SCRIPT_FILE)).description, /^Reviewed\. /, "the other key's change is kept");
    assert.match(JSON.parse(read(SCRIPT_FILE)).script, /# mine\n$/);

    // The code itself changed on disk while the editor holds unsaved edits: the save is refused.
    await replaceAll(document, `${document.getText()}# mine again\n`);
    const theirs = JSON.parse(read(SCRIPT_FILE));
    theirs.script = `${theirs.script}# theirs\n`;
    const outside = JSON.stringify(theirs, null, 2);
    fs.writeFileSync(file(SCRIPT_FILE), outside);
    assert.equal(await document.save(), false, 'the save is refused');
    assert.equal(read(SCRIPT_FILE), outside, 'the outside change is not overwritten');
    assert.ok(document.isDirty, 'the edits are still in the editor');
    // The provider says why (what VS Code shows as the save's failure): nothing is written.
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(document.getText()))),
      /Scripts\.Normalize\.json changed on disk since its code was opened here: saving would overwrite that change, so nothing was saved\. Save As… to keep your edits elsewhere, then Discard \(File: Revert File\) to reload/,
    );
    assert.equal(read(SCRIPT_FILE), outside);

    // Reloading takes the code on disk; an edit made then saves.
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await until(
      'the reverted document',
      () => document.getText(),
      (t) => t === theirs.script,
    );
    await replaceAll(document, `${document.getText()}# after reload\n`);
    assert.ok(await document.save());
    assert.equal(JSON.parse(read(SCRIPT_FILE)).script, `${theirs.script}# after reload\n`);
  });

  it('a code document with no unsaved edits shows the code as it changes on disk', async () => {
    const uri = await run<vscode.Uri>('datagrok.bundle.openCode', { uri: vscode.Uri.file(file(SCRIPT_FILE)) });
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.isDirty, false);
    const json = JSON.parse(read(SCRIPT_FILE));
    json.script = `${json.script}# pulled again\n`;
    fs.writeFileSync(file(SCRIPT_FILE), JSON.stringify(json, null, 2));
    await until(
      'the document follows the file',
      () => document.getText(),
      (t) => t === json.script,
    );
  });

  it("Open Changes shows the code diff: the server's code read-only on the left, the bundle's editable on the right and saved into the JSON file", async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await run('datagrok.bundle.diff', { folder: vscode.Uri.file(dir) });
    const before = read(SCRIPT_FILE);
    const { left, right } = await run<{ left: vscode.Uri; right: vscode.Uri }>('datagrok.bundle.openDiff', { uri: vscode.Uri.file(file(SCRIPT_FILE)) });
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, `a diff editor is open: ${tab?.label}`);
    assert.equal(tab.input.original.toString(), left.toString());
    assert.equal(tab.input.modified.toString(), right.toString());
    assert.equal(left.scheme, 'datagrok-bundle', 'the server side: a read-only document');
    assert.equal(right.scheme, 'datagrok-bundle-code', 'the bundle side: the code document');
    assert.equal(vscode.workspace.fs.isWritableFileSystem('datagrok-bundle-code'), true);
    assert.equal(vscode.workspace.fs.isWritableFileSystem('datagrok-bundle'), undefined, 'the server side has no file system: read-only');
    const [server, local] = await Promise.all([vscode.workspace.openTextDocument(left), vscode.workspace.openTextDocument(right)]);
    assert.equal(server.languageId, 'python');
    assert.equal(local.languageId, 'python');
    assert.doesNotMatch(server.getText(), /# mine/);
    assert.match(local.getText(), /# pulled again\n$/);

    // The diff's right side is the active editor: typed into, saved into the JSON file.
    const editor = await until(
      'the diff editor is active',
      () => vscode.window.activeTextEditor,
      (e) => e?.document.uri.toString() === right.toString(),
    );
    assert.ok(editor);
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(local.lineCount - 1, 0), '# from the diff\n')), 'the right side takes typing');
    assert.ok(await local.save());
    const after = read(SCRIPT_FILE);
    assert.match(JSON.parse(after).script, /# pulled again\n# from the diff\n$/);
    assert.deepEqual(around(after, 'script'), around(before, 'script'));
  });
});

// Parameter files that know their function, in the real host against the emulator's functions:
// completion of "$function", input names and choices; hovers; diagnostics and their quick fixes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { resetEmulator, signIn } from './support';

let dir = '';

function write(name: string, text: string): vscode.Uri {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return vscode.Uri.file(file);
}

async function open(name: string, text: string): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument(write(name, text));
  await vscode.window.showTextDocument(document);
  return document;
}

/** The position just after the first occurrence of `needle` (plus `delta` characters). */
function past(document: vscode.TextDocument, needle: string, delta = 0): vscode.Position {
  const offset = document.getText().indexOf(needle);
  assert.ok(offset >= 0, `"${needle}" not in the document`);
  return document.positionAt(offset + needle.length + delta);
}

async function completions(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[]> {
  // The provider asks the server: ask until its answer is there (the first call may still be signing in).
  for (let i = 0; i < 20; i++) {
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, position);
    const ours = list.items.filter(
      (item) => item.kind === vscode.CompletionItemKind.Function || item.kind === vscode.CompletionItemKind.Property || item.kind === vscode.CompletionItemKind.EnumMember,
    );
    if (ours.length > 0) return list.items;
    await new Promise((r) => setTimeout(r, 250));
  }
  return [];
}

const labelOf = (item: vscode.CompletionItem) => (typeof item.label === 'string' ? item.label : item.label.label);

async function datagrokDiagnostics(uri: vscode.Uri, until: (d: vscode.Diagnostic[]) => boolean): Promise<vscode.Diagnostic[]> {
  const deadline = Date.now() + 10_000;
  let last: vscode.Diagnostic[] = [];
  while (Date.now() < deadline) {
    last = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Datagrok');
    if (until(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`diagnostics never as expected: ${JSON.stringify(last.map((d) => [d.code, d.message]))}`);
}

function hoverText(hovers: vscode.Hover[]): string {
  // Plain text in markdown comes back with its spaces as &nbsp;.
  return hovers
    .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)))
    .join('\n')
    .replace(/&nbsp;/g, ' ');
}

describe('Parameter files: completion, hover, diagnostics, quick fixes', () => {
  before(async () => {
    await resetEmulator();
    await signIn();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-paramfiles-'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('completes "$function" with the server\'s functions', async () => {
    const document = await open('complete-fn.datagrok.json', '{\n  "$function": "De"\n}\n');
    const items = await completions(document, past(document, '"$function": "De'));
    const labels = items.map(labelOf);
    for (const name of ['Demo:Add', 'Demo:Filter', 'Math:Round']) assert.ok(labels.includes(name), `${name} missing from ${labels.join(', ')}`);
    const add = items.find((i) => labelOf(i) === 'Demo:Add')!;
    assert.match(add.detail ?? '', /Demo/);
    assert.match(
      String(typeof add.documentation === 'string' ? add.documentation : add.documentation?.value).replace(/&nbsp;/g, ' '),
      /Adds two numbers[\s\S]*Demo:Add\(a: double, b: double\) → sum: double/,
    );
  });

  it("completes the inputs not yet present, and an input's choices", async () => {
    const document = await open('complete-inputs.datagrok.json', '{\n  "$function": "Math:Round",\n  "value": 2.5,\n  ""\n}\n');
    const items = await completions(document, past(document, '2.5,\n  "'));
    const labels = items.filter((i) => i.kind === vscode.CompletionItemKind.Property).map(labelOf);
    assert.ok(labels.includes('digits'), labels.join(', '));
    assert.ok(!labels.includes('value'), 'an input already present is not offered');
    const digits = items.find((i) => labelOf(i) === 'digits')!;
    assert.match(digits.detail ?? '', /int → number, optional/);

    const choices = await open('complete-choices.datagrok.json', '{\n  "$function": "Text:Split",\n  "text": "a,b",\n  "separator": ""\n}\n');
    const choiceItems = await completions(choices, past(choices, '"separator": "'));
    const values = choiceItems.filter((i) => i.kind === vscode.CompletionItemKind.EnumMember).map(labelOf);
    assert.deepEqual(values, ['","', '";"', '" "', '"|"']);
  });

  it('hovers show the signature on "$function" and an input\'s type on its key', async () => {
    const document = await open('hover.datagrok.json', '{\n  "$function": "Math:Round",\n  "value": 2.5,\n  "digits": 1\n}\n');
    const fnHover = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, past(document, '"Math:R')));
    assert.match(fnHover, /Math:Round/);
    assert.match(fnHover, /Rounds a number/);
    assert.match(fnHover, /`digits`: int = `0`/);
    assert.match(fnHover, /rounded/);
    const inputHover = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, past(document, '"dig')));
    assert.match(inputHover, /\*\*digits\*\*: int — JSON: number, optional/);
    assert.match(inputHover, /Default: `0`/);
    assert.match(inputHover, /Decimal digits/);
  });

  it('diagnoses unknown and missing inputs, wrong types, missing $csv files and unknown functions', async () => {
    const document = await open('wrong.datagrok.json', '{\n  "$function": "Demo:Add",\n  "a": "two",\n  "c": 1\n}\n');
    const problems = await datagrokDiagnostics(document.uri, (d) => d.length === 3);
    const byCode = new Map(problems.map((d) => [String(d.code), d]));
    assert.match(byCode.get('wrongType')!.message, /"a" \(double\) expects a number, not the string "two"/);
    assert.match(byCode.get('unknownInput')!.message, /Demo:Add has no input "c"/);
    assert.equal(document.getText(byCode.get('unknownInput')!.range), '"c"');
    assert.match(byCode.get('missingInput')!.message, /needs the input "b"/);

    const csv = await open('csv.datagrok.json', '{\n  "$function": "Demo:RowCount",\n  "table": { "$csv": "./nowhere.csv" }\n}\n');
    const [missingCsv] = await datagrokDiagnostics(csv.uri, (d) => d.length === 1);
    assert.equal(missingCsv.code, 'missingCsv');
    assert.equal(csv.getText(missingCsv.range), '"./nowhere.csv"');
    write('here.csv', 'a\n1\n');
    const csvHere = await open('csv-here.datagrok.json', '{\n  "$function": "Demo:RowCount",\n  "table": { "$csv": "./here.csv" }\n}\n');
    const correct = await open('correct.datagrok.json', '{\n  "$function": "Demo:Add",\n  "a": 1,\n  "b": 2\n}\n');

    const unknown = await open('unknown.datagrok.json', '{\n  "$function": "Demo:Ad",\n  "a": 1\n}\n');
    const [unknownFn] = await datagrokDiagnostics(unknown.uri, (d) => d.length === 1);
    assert.equal(unknownFn.code, 'unknownFunction');
    assert.match(unknownFn.message, /no function "Demo:Ad". Did you mean Demo:Add\?/);
    // By now the files without mistakes have been checked too: nothing for them.
    assert.deepEqual(vscode.languages.getDiagnostics(csvHere.uri), []);
    assert.deepEqual(vscode.languages.getDiagnostics(correct.uri), []);

    // Fixing the text clears the diagnostics.
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((e) => e.replace(new vscode.Range(0, 0, document.lineCount, 0), '{ "$function": "Demo:Add", "a": 1, "b": 2 }'));
    await datagrokDiagnostics(document.uri, (d) => d.length === 0);
  });

  it('quick fixes add the missing inputs, remove an unknown one and correct the function name', async () => {
    const document = await open('fix.datagrok.json', '{\n  "$function": "Math:Round",\n  "extra": true\n}\n');
    const problems = await datagrokDiagnostics(document.uri, (d) => d.length === 2);
    // The command's answers do not carry their diagnostics: the fixes are told apart by their titles.
    const fix = async (code: string, title: string) => {
      const diagnostic = vscode.languages.getDiagnostics(document.uri).find((d) => d.code === code);
      assert.ok(diagnostic, `no ${code} diagnostic`);
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', document.uri, diagnostic.range);
      const action = actions.find((a) => a.title === title);
      assert.ok(action?.edit, `no "${title}" among ${actions.map((a) => a.title).join(', ')}`);
      assert.equal(action.kind?.value, vscode.CodeActionKind.QuickFix.value);
      return action;
    };
    assert.equal(problems.length, 2);
    const add = await fix('missingInput', 'Add the missing inputs');
    assert.ok(await vscode.workspace.applyEdit(add.edit!));
    assert.equal(document.getText(), '{\n  "$function": "Math:Round",\n  "extra": true,\n  "value": 0\n}\n');
    await datagrokDiagnostics(document.uri, (d) => d.length === 1 && d[0].code === 'unknownInput');
    const remove = await fix('unknownInput', 'Remove the input "extra"');
    assert.ok(await vscode.workspace.applyEdit(remove.edit!));
    assert.equal(document.getText(), '{\n  "$function": "Math:Round",\n  "value": 0\n}\n');
    await datagrokDiagnostics(document.uri, (d) => d.length === 0);

    const misspelt = await open('fix-name.datagrok.json', '{ "$function": "Math:Rond", "value": 1 }');
    await datagrokDiagnostics(misspelt.uri, (d) => d.length === 1);
    const diagnostic = vscode.languages.getDiagnostics(misspelt.uri)[0];
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', misspelt.uri, diagnostic.range);
    const rename = actions.find((a) => a.title === 'Change to Math:Round');
    assert.ok(rename, actions.map((a) => a.title).join(', '));
    assert.ok(await vscode.workspace.applyEdit(rename.edit!));
    assert.equal(misspelt.getText(), '{ "$function": "Math:Round", "value": 1 }');
    await datagrokDiagnostics(misspelt.uri, (d) => d.length === 0);
  });

  it("shows the function's one-line description beside the Run lens", async () => {
    const document = await open('lens.datagrok.json', '{ "$function": "Demo:Add", "a": 1, "b": 2 }');
    let titles: string[] = [];
    for (let i = 0; i < 40 && !titles.some((t) => /^Adds two numbers/.test(t)); i++) {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri);
      titles = lenses.map((l) => l.command?.title ?? '');
      if (!titles.some((t) => /^Adds two numbers/.test(t))) await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(titles.includes('▶ Run Demo:Add'), titles.join(' | '));
    assert.ok(
      titles.some((t) => /^Adds two numbers/.test(t)),
      `no description lens: ${titles.join(' | ')}`,
    );
    // An unknown function: the Run lens alone.
    const unknown = await open('lens-unknown.datagrok.json', '{ "$function": "Demo:NoSuchThing" }');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', unknown.uri);
    assert.deepEqual(
      lenses.map((l) => l.command?.title),
      ['▶ Run Demo:NoSuchThing'],
    );
  });

  it("serves a function's JSON schema, generated from its signature, at datagrok-schema:", async () => {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse('datagrok-schema:/Demo:Add.schema.json'));
    const schema = JSON.parse(document.getText());
    assert.equal(schema.title, 'Demo:Add');
    assert.deepEqual(Object.keys(schema.properties), ['$function', '$schema', '$expect', '$name', '$writes', '$tolerance', 'a', 'b']);
    assert.equal(schema.properties.a.type, 'number');
    assert.deepEqual(schema.required, ['a', 'b']);
    assert.equal(schema.additionalProperties, false);
    await assert.rejects(Promise.resolve(vscode.workspace.openTextDocument(vscode.Uri.parse('datagrok-schema:/Demo:NoSuchThing.schema.json'))));
  });
});

// Package function annotations as a language in the real host: completion of keys, types, roles and
// decorator options; hover; the package's functions in the Outline; diagnostics as you type (no save);
// a quick fix applied; Convert to decorator and back to comment annotations keeping the metadata.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { edit, makePackage } from '../fixtures/packages/faults';

const GREET = [
  '//name: greet',
  '//description: Says hello',
  '//tags: demo',
  '//input: string who = World {caption: Name}',
  '//input: int count {min: 0}',
  '//output: widget result',
  '//meta.role: panel',
  'export function greet(who: string, count: number): DG.Widget {',
  '  return new DG.Widget(ui.div([who, String(count)]));',
  '}',
  '',
];

async function until<T>(what: string, get: () => T | Promise<T>, ok: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 40_000;
  let last = await get();
  while (!ok(last)) {
    if (Date.now() > deadline) assert.fail(`${what}: never as expected: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
    last = await get();
  }
  return last;
}

const labels = (list: vscode.CompletionList) => list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
const annotationLines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('//'))
    .sort();

describe('packageLanguage: annotations of package functions in the editor', function () {
  this.timeout(120_000);
  let root = '';
  let file: vscode.Uri;
  let document: vscode.TextDocument;
  let editor: vscode.TextEditor;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-lang-'));
    const dir = makePackage(path.join(root, 'Demo'));
    edit(dir, 'src/package.ts', (t) => `${t}\n${GREET.join('\n')}`);
    file = vscode.Uri.file(path.join(dir, 'src', 'package.ts'));
    document = await vscode.workspace.openTextDocument(file);
    editor = await vscode.window.showTextDocument(document);
    // The package's first check (on open) is what the edits below refine.
    await until(
      'the first check',
      () => vscode.commands.executeCommand('datagrok.packages.check', { folder: vscode.Uri.file(dir) }),
      (f) => Array.isArray(f),
    );
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(root, { recursive: true, force: true });
  });

  const lineOf = (start: string) =>
    document
      .getText()
      .split('\n')
      .findIndex((l) => l.startsWith(start));

  it('completes keys, types and roles in comments, and options in decorators', async () => {
    const roleLine = lineOf('//meta.role: ');
    const at = async (line: number, character: number, trigger?: string) =>
      labels(await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', file, new vscode.Position(line, character), trigger));
    assert.ok((await at(roleLine, 2)).includes('meta.role'), 'keys');
    assert.ok((await at(roleLine, '//meta.role: pa'.length)).includes('panel'), 'roles');
    const typeLine = lineOf('//input: int');
    const types = await at(typeLine, '//input: '.length);
    assert.ok(types.includes('dataframe') && types.includes('widget'), 'types');
    const options = await at(typeLine, '//input: int count {'.length, '{');
    assert.ok(options.includes('semType') && options.includes('nullable'), 'parameter options');
    await editor.edit((e) => e.insert(new vscode.Position(document.lineCount, 0), 'export class PackageFunctions {\n  @grok.decorators.func({desc})\n  static f() {}\n}\n'));
    const decoLine = lineOf('  @grok.decorators.func({desc');
    const keys = await at(decoLine, '  @grok.decorators.func({desc'.length);
    assert.ok(keys.includes('description') && keys.includes('meta') && keys.includes('top-menu'), 'decorator options');
  });

  it('hovers keys, roles and decorators', async () => {
    const hover = async (line: number, character: number) => {
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', file, new vscode.Position(line, character));
      return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    };
    assert.match(await hover(lineOf('//meta.role: '), 4), /\*\*meta\.role\*\*: The function's roles/);
    assert.match(await hover(lineOf('//meta.role: '), '//meta.role: pa'.length), /role \*\*panel\*\*: Context-specific widget/);
    assert.match(await hover(lineOf('//input: string who'), '//input: string w'.length), /passed to the parameter `who: string`/);
    assert.match(await hover(lineOf('  @grok.decorators.func'), '  @grok.decorators.fu'.length), /\*\*grok\.decorators\.func\*\*: A package function/);
  });

  it("lists the package's functions in the Outline with their roles", async () => {
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', file);
    const greet = symbols.find((s) => s.name === 'greet' && s.detail === 'role panel');
    assert.ok(greet, JSON.stringify(symbols.map((s) => [s.name, s.detail])));
    assert.deepEqual(
      greet.children.map((c) => [c.name, c.detail]),
      [
        ['who', 'input string'],
        ['count', 'input int'],
        ['result', 'output widget'],
      ],
    );
    assert.ok(symbols.some((s) => s.name === 'f' && s.detail === '@grok.decorators.func'));
  });

  it('shows findings as you type (no save), and applies a quick fix', async () => {
    const line = lineOf('//input: int count');
    await editor.edit((e) => e.replace(new vscode.Range(line, 0, line, document.lineAt(line).text.length), '//input: innt count {min: 0}'));
    assert.ok(document.isDirty);
    const [d] = await until(
      'the unknown type',
      () => vscode.languages.getDiagnostics(file).filter((x) => x.code === 'annotation-type'),
      (x) => x.length === 1,
    );
    assert.equal(d.source, 'Datagrok');
    assert.deepEqual([d.range.start.line, d.range.start.character, d.range.end.character], [line, 9, 13]);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', file, d.range, vscode.CodeActionKind.QuickFix.value);
    const fix = actions.find((a) => a.title === 'Change to "int"');
    assert.ok(fix?.edit, JSON.stringify(actions.map((a) => a.title)));
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.equal(document.lineAt(line).text, '//input: int count {min: 0}');
    await until(
      'the finding gone after the fix',
      () => vscode.languages.getDiagnostics(file).filter((x) => x.code === 'annotation-type'),
      (x) => x.length === 0,
    );
  });

  it('converts to a decorator and back to comment annotations, keeping the metadata', async () => {
    const before = annotationLines(document.getText().slice(document.getText().indexOf('//name: greet')));
    const convert = async (title: string, line: number) => {
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        file,
        new vscode.Range(line, 0, line, 0),
        'refactor.rewrite.datagrok',
      );
      const action = actions.find((a) => a.title === title);
      assert.ok(action?.edit, `${title}: ${JSON.stringify(actions.map((a) => [a.title, a.disabled?.reason]))}`);
      assert.ok(await vscode.workspace.applyEdit(action.edit));
    };
    await convert('Convert to decorator', lineOf('//name: greet'));
    assert.equal(lineOf('//name: greet'), -1);
    assert.match(
      document.getText(),
      /@grok\.decorators\.func\(\{\n {4}name: 'greet',[\s\S]*static greet\(\n {4}@grok\.decorators\.param\(\{options: \{initialValue: 'World', caption: 'Name'\}\}\) who: string,\n {4}@grok\.decorators\.param\(\{type: 'int', options: \{min: 0\}\}\) count: number,\n {2}\): DG\.Widget \{/,
    );
    await convert('Convert to comment annotations', lineOf("    name: 'greet',") - 1);
    const text = document.getText();
    assert.deepEqual(annotationLines(text.slice(text.indexOf('//name: greet'))), before);
    assert.match(text, /export function greet\(who: string, count: number\): DG\.Widget \{\n {2}return new DG\.Widget/);
  });
});

// Datagrok packages in the real host: opening a package's file shows grok check's findings in Problems,
// ranged on their lines (the opened file's and the package's other files'); datagrok.packages.check returns
// the same findings; a save after a fix clears them; bad options are refused with the reason.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { edit, makePackage } from '../fixtures/packages/faults';

const SOURCE = 'grok check';

async function diagnostics(uri: vscode.Uri, until: (d: vscode.Diagnostic[]) => boolean): Promise<vscode.Diagnostic[]> {
  const deadline = Date.now() + 40_000;
  let last: vscode.Diagnostic[] = [];
  while (Date.now() < deadline) {
    last = vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);
    if (until(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`${path.basename(uri.fsPath)}: diagnostics never as expected: ${JSON.stringify(last.map((d) => [d.range.start.line, d.code, d.message]))}`);
}

interface CheckFinding {
  file: string;
  line: number;
  rule: string;
  severity: 'error' | 'warning';
  message: string;
}

describe('Packages: grok check as diagnostics, datagrok.packages.check', function () {
  this.timeout(120_000);
  let root = '';
  let dir = '';

  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-packages-'));
    dir = makePackage(path.join(root, 'Demo'));
    edit(dir, 'src/package.ts', (t) => `${t}\n//name: tagged\n//bogus: yes\nexport function tagged() {}\n`);
    edit(dir, 'src/deep.ts', () => "import { DataFrame } from 'datagrok-api/src/dataframe';\nexport const d = DataFrame;\n");
    edit(dir, '.npmignore', (t) => `${t}\ndist/\n`);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("opening src/package.ts shows the package's findings on their lines, in its other files too", async () => {
    const file = vscode.Uri.file(path.join(dir, 'src', 'package.ts'));
    const document = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(document);
    const tagLine = document.getText().split('\n').indexOf('//bogus: yes');
    const [tag] = await diagnostics(file, (d) => d.length > 0);
    assert.equal(tag.code, 'header-tag');
    assert.equal(tag.message, 'Unknown header tag: bogus');
    assert.equal(tag.severity, vscode.DiagnosticSeverity.Warning);
    assert.deepEqual([tag.range.start.line, tag.range.start.character, tag.range.end.character], [tagLine, 2, 7]);
    // Files not open: the deep import's line and column, the .npmignore line.
    const [deep] = await diagnostics(vscode.Uri.file(path.join(dir, 'src', 'deep.ts')), (d) => d.length > 0);
    assert.equal(deep.code, 'datagrok-api-import');
    assert.equal(deep.severity, vscode.DiagnosticSeverity.Error);
    assert.deepEqual([deep.range.start.line, deep.range.start.character], [0, 27]);
    const ignore = await diagnostics(vscode.Uri.file(path.join(dir, '.npmignore')), (d) => d.length > 0);
    assert.deepEqual(
      ignore.map((d) => [d.code, d.message, d.range.start.line]),
      [['npmignore-dist', 'there is dist directory in .npmignore', fs.readFileSync(path.join(dir, '.npmignore'), 'utf8').split('\n').indexOf('dist/')]],
    );
  });

  it('datagrok.packages.check returns the findings Problems shows: file relative to the package, line 1-based', async () => {
    const found = await vscode.commands.executeCommand<CheckFinding[]>('datagrok.packages.check', { folder: vscode.Uri.file(dir) });
    assert.deepEqual(found.map((f) => [f.file, f.rule, f.severity]).sort(), [
      ['.npmignore', 'npmignore-dist', 'error'],
      ['src/deep.ts', 'datagrok-api-import', 'error'],
      ['src/package.ts', 'header-tag', 'warning'],
    ]);
    for (const f of found) {
      const shown = vscode.languages.getDiagnostics(vscode.Uri.file(path.join(dir, f.file))).filter((d) => d.source === SOURCE && d.code === f.rule);
      assert.deepEqual(
        shown.map((d) => [d.range.start.line + 1, d.message]),
        [[f.line, f.message]],
      );
    }
  });

  it("from the Explorer's menu on package.json: checks its package and opens Problems", async () => {
    // A menu passes the Uri and a second argument: the command may then show things (not wait on them).
    const found = await vscode.commands.executeCommand<CheckFinding[]>('datagrok.packages.check', vscode.Uri.file(path.join(dir, 'package.json')), [
      vscode.Uri.file(path.join(dir, 'package.json')),
    ]);
    assert.equal(found.length, 3);
  });

  it('a save after the fix clears the finding', async () => {
    const file = vscode.Uri.file(path.join(dir, 'src', 'package.ts'));
    const document = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(document);
    const line = document.getText().split('\n').indexOf('//bogus: yes');
    await editor.edit((e) => e.delete(document.lineAt(line).rangeIncludingLineBreak));
    await document.save();
    await diagnostics(file, (d) => d.length === 0);
  });

  it('refuses a folder that is no package, saying what a package is', async () => {
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('datagrok.packages.check', { folder: vscode.Uri.file(root) })),
      /is not a Datagrok package: a Datagrok package is a folder with a package\.json that depends on datagrok-api/,
    );
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('datagrok.packages.check', {})), /Give the package to check as `folder`/);
  });
});

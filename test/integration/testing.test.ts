// Function tests in the real host: parameter files with "$expect" (test/fixtures/function-tests, copied
// into the workspace) as the Test Explorer's tree, run against the emulator's demo functions.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DatagrokExtensionApi } from '../../src/extension';
import { clearEmulatorRequests, control, emulatorRequests, startSignedIn, until } from './support';

const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'function-tests');
const ROOT = 'function-tests';

interface RunResult {
  passed: number;
  failed: number;
  skipped: number;
  errored: number;
  cases: { id: string; name: string; outcome: string; message?: string }[];
}

let api: DatagrokExtensionApi;
let root = '';

const tests = () => api.functionTests;
const file = (relative: string) => path.join(root, relative);

/** The tree as labels: folder → function → file → case. */
function treeOf(): unknown {
  const walk = (items: vscode.TestItemCollection): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    items.forEach((item) => {
      out[item.label] = item.children.size ? walk(item.children) : item.id;
    });
    return out;
  };
  const all = walk(tests().controller.items);
  return Object.fromEntries(Object.entries(all).filter(([label]) => label.startsWith(ROOT)));
}

function item(id: string): vscode.TestItem {
  const ref = tests().tree.byId(id);
  assert.ok(
    ref,
    `no test ${id}: ${tests()
      .tree.all()
      .map((r) => r.id)
      .join(', ')}`,
  );
  return ref.item;
}

async function runProfile(include: vscode.TestItem[] | undefined, token = new vscode.CancellationTokenSource().token): Promise<void> {
  await tests().runProfile.runHandler(new vscode.TestRunRequest(include), token);
}

describe('Function tests: parameter files with "$expect" in the Test Explorer', function () {
  // Real calls, a few at a time, on a machine that may be busy.
  this.timeout(90000);
  before(async function () {
    this.timeout(180000);
    let folder: string;
    ({ api, folder } = await startSignedIn(this));
    root = path.join(folder, ROOT);
    fs.rmSync(root, { recursive: true, force: true });
    fs.cpSync(FIXTURES, root, { recursive: true });
    // Written from outside the editor, as git would: the Test Explorer's Refresh reads them (the watcher may not report them).
    await tests().tree.reload();
    await vscode.workspace.getConfiguration('datagrok.tests').update('runWritingCases', undefined, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await control('DELETE', 'faults');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('builds the tree from the files with "$expect": by folder, function, file and case; a plain parameter file is no test', async () => {
    await tests().tree.ready();
    await until('the fixture tests in the tree', () => tests().tree.byId(`${ROOT}/writes/echo-writes.datagrok.json`));
    assert.deepEqual(treeOf(), {
      [`${ROOT}/math`]: {
        'Demo:Add': { 'add-wrong.datagrok.json': `${ROOT}/math/add-wrong.datagrok.json`, 'add.datagrok.json': `${ROOT}/math/add.datagrok.json` },
        'Math:Sqrt': {
          'sqrt.datagrok.json': { four: `${ROOT}/math/sqrt.datagrok.json#four`, two: `${ROOT}/math/sqrt.datagrok.json#two`, negative: `${ROOT}/math/sqrt.datagrok.json#negative` },
        },
      },
      [`${ROOT}/tables`]: { 'Demo:Filter': { 'big-planets.datagrok.json': `${ROOT}/tables/big-planets.datagrok.json` } },
      [`${ROOT}/writes`]: { 'Demo:Echo': { 'echo-writes.datagrok.json': `${ROOT}/writes/echo-writes.datagrok.json` } },
    });
    assert.equal(item(`${ROOT}/math/sqrt.datagrok.json#negative`).range?.start.line, 4, 'a case of an array file points at its element');
  });

  it('keeps the tree current: a test file created, edited and deleted in VS Code', async () => {
    const extra = vscode.Uri.file(file('math/extra.datagrok.json'));
    const create = new vscode.WorkspaceEdit();
    create.createFile(extra, { contents: new TextEncoder().encode('{ "$function": "Demo:Add", "a": 1, "b": 1, "$expect": 2 }') });
    assert.ok(await vscode.workspace.applyEdit(create));
    await until('the new file in the tree', () => tests().tree.byId(`${ROOT}/math/extra.datagrok.json`));
    // Edited into a file of two cases: the file's item gets them as children.
    const document = await vscode.workspace.openTextDocument(extra);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(
      extra,
      new vscode.Range(0, 0, document.lineCount, 0),
      '[{ "$function": "Demo:Add", "$name": "one", "a": 1, "b": 0, "$expect": 1 }, { "$name": "zero", "a": 0, "b": 0, "$expect": 0 }]',
    );
    assert.ok(await vscode.workspace.applyEdit(edit));
    await document.save();
    await until('the cases of the edited file', () => tests().tree.byId(`${ROOT}/math/extra.datagrok.json#zero`));
    const remove = new vscode.WorkspaceEdit();
    remove.deleteFile(extra);
    assert.ok(await vscode.workspace.applyEdit(remove));
    await until(
      'the deleted file gone',
      () =>
        !tests()
          .tree.all()
          .some((r) => r.relativePath === `${ROOT}/math/extra.datagrok.json`),
    );
  });

  it('datagrok.tests.run: a pass, a fail, an expected error, a tolerance, a dataframe shape; the write case skipped; a JUnit file', async () => {
    await clearEmulatorRequests();
    const junit = vscode.Uri.file(path.join(root, 'results.xml'));
    const result = await vscode.commands.executeCommand<RunResult>('datagrok.tests.run', { include: [`${ROOT}/**`], junit });
    const outcomes = Object.fromEntries(result.cases.map((c) => [c.id, c.outcome]));
    assert.deepEqual(outcomes, {
      [`${ROOT}/math/add-wrong.datagrok.json`]: 'failed',
      [`${ROOT}/math/add.datagrok.json`]: 'passed',
      [`${ROOT}/math/sqrt.datagrok.json#four`]: 'passed',
      [`${ROOT}/math/sqrt.datagrok.json#negative`]: 'passed',
      [`${ROOT}/math/sqrt.datagrok.json#two`]: 'passed',
      [`${ROOT}/tables/big-planets.datagrok.json`]: 'passed',
      [`${ROOT}/writes/echo-writes.datagrok.json`]: 'skipped',
    });
    assert.deepEqual([result.passed, result.failed, result.skipped, result.errored], [5, 1, 1, 0]);
    const failed = result.cases.find((c) => c.outcome === 'failed');
    assert.match(failed?.message ?? '', /expected 5, got 4/);
    assert.match(result.cases.find((c) => c.outcome === 'skipped')?.message ?? '', /writes data/);
    // The write case was never called; the $csv input went up under a test's own name.
    const requests = await emulatorRequests();
    assert.ok(!requests.some((r) => r.path.includes('Demo.Echo')), 'Demo:Echo was not called');
    const state = await control<{ tables: { name: string }[] }>('GET', 'state');
    assert.ok(
      state.tables.some((t) => /^vscodetest_[a-z0-9]+_planets$/.test(t.name)),
      `tables: ${state.tables.map((t) => t.name).join(', ')}`,
    );
    const xml = fs.readFileSync(junit.fsPath, 'utf8');
    assert.match(xml, /<testsuite name="Datagrok functions" tests="7" failures="1" errors="0" skipped="1"/);
    assert.match(xml, /<testcase classname="function-tests\/math\/add-wrong.datagrok.json" name="Demo:Add" time="[\d.]+">\n {6}<failure message="[^"]*expected 5, got 4/);
  });

  it('reports a fail with a diff of expected and actual, its duration and the server', async () => {
    await runProfile([item(`${ROOT}/math/add-wrong.datagrok.json`)]);
    const reported = tests().reported.get(`${ROOT}/math/add-wrong.datagrok.json`);
    assert.equal(reported?.outcome, 'failed');
    assert.equal(reported?.message?.expectedOutput, '5');
    assert.equal(reported?.message?.actualOutput, '4');
    assert.match(String(reported?.message?.message), /Demo:Add: the value: expected 5, got 4/);
    assert.equal(typeof reported?.durationMs, 'number');
    assert.match(reported?.server ?? '', /^127\.0\.0\.1:\d+$/);
  });

  it('refuses the write-guarded case in Run All, runs it when run on its own', async () => {
    await clearEmulatorRequests();
    const id = `${ROOT}/writes/echo-writes.datagrok.json`;
    await runProfile(undefined);
    assert.equal(tests().reported.get(id)?.outcome, 'skipped');
    assert.ok(!(await emulatorRequests()).some((r) => r.path.includes('Demo.Echo')), 'Run All did not call Demo:Echo');
    // A folder is not the case itself: still refused.
    await runProfile([item(id).parent!.parent!]);
    assert.equal(tests().reported.get(id)?.outcome, 'skipped');
    await runProfile([item(id)]);
    assert.equal(tests().reported.get(id)?.outcome, 'passed');
    // datagrok.tests.run: named exactly, it runs too.
    const result = await vscode.commands.executeCommand<RunResult>('datagrok.tests.run', { include: [id] });
    assert.equal(result.cases[0].outcome, 'passed');
  });

  it('Accept Actual from the Test Explorer writes only the actual answer into "$expect", at once; the case then passes; Undo restores the file', async () => {
    const id = `${ROOT}/math/add-wrong.datagrok.json`;
    const uri = vscode.Uri.file(file('math/add-wrong.datagrok.json'));
    const before = fs.readFileSync(uri.fsPath, 'utf8');
    await runProfile([item(id)]);
    const failure = tests().reported.get(id);
    assert.equal(failure?.outcome, 'failed');
    assert.equal(failure?.message?.contextValue, 'datagrok.acceptable', 'the failure message offers Accept Actual in its menu');
    // As the Test Explorer's context menu calls it: with the test item (no preview to confirm).
    const accepted = await vscode.commands.executeCommand<{ cases: string[] }>('datagrok.tests.acceptActual', item(id));
    assert.deepEqual(accepted.cases, [id]);
    const after = fs.readFileSync(uri.fsPath, 'utf8');
    assert.equal(after, before.replace('"$expect": 5', '"$expect": 4'), 'the only change is the value of "$expect" (comment and layout kept)');
    assert.equal((await vscode.workspace.openTextDocument(uri)).isDirty, false, 'the file is saved');
    const result = await vscode.commands.executeCommand<RunResult>('datagrok.tests.run', { include: [id] });
    assert.equal(result.cases[0].outcome, 'passed');
    // A passing case has nothing to accept.
    assert.deepEqual((await vscode.commands.executeCommand<{ cases: string[] }>('datagrok.tests.acceptActual', { id })).cases, []);
    // One Undo in the file's editor reverts it.
    const editor = await vscode.window.showTextDocument(uri);
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), before, 'Undo restores the file as it was');
    await editor.document.save();
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    // The restored text on disk before the tree reads it again (a remote host's save may land a moment later).
    for (let waited = 0; fs.readFileSync(uri.fsPath, 'utf8') !== before && waited < 20_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    const beforeRebuild = item(id); // as a failure message in the results may hold it: an item from before a rebuild
    await tests().tree.refresh(uri);
    // From the failure message's menu ({ test, message }); Accept Actual judges by the tree, which follows the file's watcher.
    await until('the tree reads the restored "$expect"', () => (tests().tree.byId(id)?.testCase.expect === 5 ? true : undefined));
    await runProfile([item(id)]);
    assert.equal(tests().reported.get(id)?.outcome, 'failed', 'the restored file fails again');
    const message = tests().reported.get(id)?.message;
    assert.ok(message);
    await until('the tree still reads the restored "$expect"', () => (tests().tree.byId(id)?.testCase.expect === 5 ? true : undefined));
    assert.notEqual(item(id), beforeRebuild, 'the tree was rebuilt since');
    assert.deepEqual((await vscode.commands.executeCommand<{ cases: string[] }>('datagrok.tests.acceptActual', { test: beforeRebuild, message })).cases, [id]);
    assert.equal(fs.readFileSync(uri.fsPath, 'utf8'), after);
  });

  it('Turn Into Test records a parameter file\'s answer as "$expect": the file becomes a passing test', async () => {
    const uri = vscode.Uri.file(file('math/plain.datagrok.json'));
    const turned = await vscode.commands.executeCommand<{ id: string; expect: unknown }>('datagrok.tests.turnIntoTest', { uri });
    assert.equal(turned.expect, 'ABC');
    assert.equal(turned.id, `${ROOT}/math/plain.datagrok.json`);
    assert.match(fs.readFileSync(uri.fsPath, 'utf8'), /"\$expect": "ABC"/);
    await until('the new test in the tree', () => tests().tree.byId(turned.id));
    const result = await vscode.commands.executeCommand<RunResult>('datagrok.tests.run', { include: [turned.id] });
    assert.equal(result.cases[0].outcome, 'passed');
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('datagrok.tests.turnIntoTest', { uri })), /already holds "\$expect"/);
  });

  it('cancel stops the calls under way and skips the rest', async () => {
    await control('POST', 'faults', { match: '/call', delayMs: 8000, count: 20 });
    const source = new vscode.CancellationTokenSource();
    const started = Date.now();
    const running = runProfile([item(`${ROOT}/math/add.datagrok.json`).parent!.parent!], source.token);
    await new Promise((r) => setTimeout(r, 500));
    source.cancel();
    await running;
    const took = Date.now() - started;
    await control('DELETE', 'faults');
    assert.ok(took < 7000, `the run ended ${took} ms after it started (the calls take 8 s)`);
    for (const id of [`${ROOT}/math/add.datagrok.json`, `${ROOT}/math/sqrt.datagrok.json#four`, `${ROOT}/math/sqrt.datagrok.json#negative`]) {
      assert.equal(tests().reported.get(id)?.outcome, 'skipped', id);
    }
  });

  it('completion, hover and diagnostics know "$expect" from the function\'s outputs', async () => {
    const uri = vscode.Uri.file(file('math/typing.datagrok.json'));
    fs.writeFileSync(uri.fsPath, '{\n  "$function": "Demo:ColumnStats",\n  "column": "Demo:demog/AGE",\n  \n  "$expect": { "avg": 1 }\n}\n');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, new vscode.Position(3, 2));
    assert.ok(!list.items.some((i) => i.label === '$expect'), 'no second "$expect" is offered');
    const problem = await until('the "$expect" diagnostic', () => vscode.languages.getDiagnostics(uri).find((d) => d.code === 'badExpect'));
    assert.match(problem.message, /no output "avg" \(its outputs: min, max, mean, count\)/);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(4, 4));
    const texts = hovers.flatMap((h) => h.contents.map((c) => ((c as vscode.MarkdownString).value ?? String(c)).replace(/&nbsp;/g, ' ')));
    assert.ok(
      texts.some((t) => /a test of Demo:ColumnStats[\s\S]*Outputs: min: double, max: double, mean: double, count: int/.test(t)),
      `hovers: ${texts.join(' | ')}`,
    );
    // Without "$expect", completion offers it, shaped by the outputs.
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(4, 0, 5, 0), '');
    await vscode.workspace.applyEdit(edit);
    const offered = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, new vscode.Position(3, 2));
    const expect = offered.items.find((i) => i.label === '$expect');
    assert.ok(expect, `completion offers "$expect": ${offered.items.map((i) => i.label).join(', ')}`);
    assert.match((expect.insertText as vscode.SnippetString).value, /"\\\$expect": \$\{1:\{"min":0,"max":0,"mean":0,"count":0\\\}\}/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    fs.rmSync(uri.fsPath);
  });

  it('refuses bad options and writes nothing', async () => {
    const junit = path.join(root, 'never.xml');
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('datagrok.tests.run', { include: ['nowhere/**'], junit: vscode.Uri.file(junit) })),
      /No test matches "nowhere\/\*\*"/,
    );
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('datagrok.tests.run', { include: 'math' })), /must be an array of globs/);
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('datagrok.tests.acceptActual', { id: 'nope.datagrok.json' })), /No test "nope.datagrok.json"/);
    assert.equal(fs.existsSync(junit), false);
  });
});

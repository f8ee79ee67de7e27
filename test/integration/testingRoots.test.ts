// Function tests in a window of two workspace folders that hold the same relative test file: each is its
// own test (ids led by the folder's name, as VS Code writes workspace-relative paths there), and a path
// within a folder still names the tests of every folder that has it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DatagrokExtensionApi } from '../../src/extension';
import { startSignedIn, until } from './support';

const RELATIVE = 'roots-tests/math/add.datagrok.json';
const SECOND = 'second-root';

interface RunResult {
  passed: number;
  failed: number;
  cases: { id: string; outcome: string }[];
}

const folderIndex = (uri: vscode.Uri) => (vscode.workspace.workspaceFolders ?? []).findIndex((f) => f.uri.toString() === uri.toString());

describe('Function tests in a window of several folders', function () {
  this.timeout(90000);
  let api: DatagrokExtensionApi;
  let firstFile = '';
  let second: vscode.Uri | undefined;
  let secondDir = '';

  before(async function () {
    this.timeout(180000);
    let first: string;
    ({ api, folder: first } = await startSignedIn(this));
    const test = (a: number, b: number, expect: number) => JSON.stringify({ $function: 'Demo:Add', a, b, $expect: expect });
    firstFile = path.join(first, RELATIVE);
    fs.mkdirSync(path.dirname(firstFile), { recursive: true });
    fs.writeFileSync(firstFile, test(2, 3, 5));
    secondDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dg-roots-')), SECOND);
    fs.mkdirSync(path.join(secondDir, path.dirname(RELATIVE)), { recursive: true });
    // The second folder's test expects a wrong answer: its outcome and its Accept Actual must not touch the first's.
    fs.writeFileSync(path.join(secondDir, RELATIVE), test(4, 5, 10));
    second = vscode.Uri.file(secondDir);
    const count = vscode.workspace.workspaceFolders?.length ?? 0;
    assert.ok(vscode.workspace.updateWorkspaceFolders(count, 0, { uri: second, name: SECOND }), 'VS Code adds the second folder');
    await until('the second folder in the workspace', () => folderIndex(second!) >= 0);
  });

  after(async () => {
    if (second && folderIndex(second) >= 0) {
      vscode.workspace.updateWorkspaceFolders(folderIndex(second), 1);
      await until('the second folder to leave the workspace', () => folderIndex(second!) < 0);
    }
    fs.rmSync(path.dirname(path.dirname(firstFile)), { recursive: true, force: true });
    if (secondDir) fs.rmSync(path.dirname(secondDir), { recursive: true, force: true });
    await api?.functionTests.tree.reload();
  });

  it('lists the same relative file of two folders as two tests, runs each by its id and both by the path within a folder, accepts one', async () => {
    const { tree } = api.functionTests;
    const firstName = vscode.workspace.workspaceFolders![0].name;
    const ids = [`${firstName}/${RELATIVE}`, `${SECOND}/${RELATIVE}`];
    await tree.reload();
    await until(`both tests in the tree (it has ${tree.all().map((r) => r.id)})`, () => ids.every((id) => tree.byId(id)));
    const items = ids.map((id) => tree.byId(id)!.item);
    assert.notEqual(items[0].uri?.fsPath, items[1].uri?.fsPath, 'each test is its own file');
    const run = (include: string[]) => vscode.commands.executeCommand<RunResult>('datagrok.tests.run', { include });
    const one = await run([ids[1]]);
    assert.deepEqual(
      one.cases.map((c) => [c.id, c.outcome]),
      [[ids[1], 'failed']],
    );
    const both = await run([RELATIVE]);
    assert.deepEqual(Object.fromEntries(both.cases.map((c) => [c.id, c.outcome])), { [ids[0]]: 'passed', [ids[1]]: 'failed' });
    const before = fs.readFileSync(firstFile, 'utf8');
    const accepted = await vscode.commands.executeCommand<{ cases: string[] }>('datagrok.tests.acceptActual', { id: ids[1] });
    assert.deepEqual(accepted.cases, [ids[1]]);
    assert.equal(JSON.parse(fs.readFileSync(path.join(secondDir, RELATIVE), 'utf8')).$expect, 9, "the second folder's file has the actual answer");
    assert.equal(fs.readFileSync(firstFile, 'utf8'), before, "the first folder's file is unchanged");
    const again = await run([RELATIVE]);
    assert.deepEqual(
      again.cases.map((c) => c.outcome),
      ['passed', 'passed'],
    );
  });
});

// Pull to Bundle in the real VS Code, through its programmatic path: names with spaces as the list gives them, a
// name the server does not know refused before anything is written, and no folder left behind by a failed pull.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { resetEmulator, signIn } from './support';

const run = <T = unknown>(command: string, arg?: unknown) => Promise.resolve(vscode.commands.executeCommand<T>(command, arg));

describe('Bundles: what to pull, checked first; nothing left behind', function () {
  this.timeout(120_000);
  let root: string;
  before(async () => {
    await resetEmulator();
    await signIn();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-pull-'));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('a name with spaces is one entry of the selection; the pull makes its folder when it writes', async () => {
    const folder = vscode.Uri.file(path.join(root, 'new', 'bundle'));
    const manifest = await run<{ order: Array<{ file: string }> }>('datagrok.bundle.pull', { folder, selection: ['World overview', 'Samples:TopCustomers'] });
    assert.ok(manifest.order.some((e) => e.file === 'Project/World overview.json'));
    assert.ok(fs.existsSync(path.join(folder.fsPath, 'manifest.json')));
  });

  it('a name the server does not know is refused, and no folder is made', async () => {
    const folder = vscode.Uri.file(path.join(root, 'other', 'bundle'));
    await assert.rejects(run('datagrok.bundle.pull', { folder, selection: ['Samples:TopCustomers', 'World'] }), /Nothing on the server is named "World" in the root namespace/);
    assert.ok(!fs.existsSync(path.join(root, 'other')), 'no folder left behind');
  });
});

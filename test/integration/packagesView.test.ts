// packagesView: the Packages view in the real host against the emulator. A monorepo with two packages
// (packages/Demo, packages/Sketch) is added as a folder of the multi-root window: the view lists both with
// their versions, signed out without the server's; signed in, beside Demo the version the emulator
// publishes (1.0.0) and "not published" beside Sketch; their functions as written, each opening its
// annotation; a function added on disk shows; a failed read of the server's packages shows in place, and
// Retry reads them again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DatagrokExtensionApi } from '../../src/extension';
import type { ExplorerNode } from '../../src/ui/explorerTree';
import { edit, makePackage } from '../fixtures/packages/faults';
import { control, emulator, requireWorkspaceTrust, resetEmulator, signIn } from './support';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it gives a value (or fails with what it last saw). */
async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await pause(150);
  }
}

describe('packagesView: the workspace packages, their functions and the server versions', function () {
  this.timeout(120_000);
  let api: DatagrokExtensionApi;
  let root = '';
  const tree = () => api.packagesTree;
  const item = (node: ExplorerNode) => tree().getTreeItem(node) as vscode.TreeItem;
  /** The top level as [label, description]. */
  const rows = async (parent?: ExplorerNode) => (await tree().getChildren(parent)).map((n) => [String(item(n).label), String(item(n).description ?? '')]);
  const pkg = async (label: string) => {
    const found = (await tree().getChildren()).find((n) => item(n).label === label);
    assert.ok(found, `package ${label} listed`);
    return found;
  };

  before(async function () {
    requireWorkspaceTrust(this, true);
    await resetEmulator();
    api = (await vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.activate()) as DatagrokExtensionApi;
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-monorepo-'));
    fs.writeFileSync(path.join(root, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n');
    const demo = makePackage(path.join(root, 'packages', 'Demo'), 'Demo');
    edit(demo, 'package.json', (t) => t.replace('"version": "0.0.1"', '"version": "1.3.0"'));
    makePackage(path.join(root, 'packages', 'Sketch'), 'Sketch');
    makePackage(path.join(root, 'node_modules', 'Dep'), 'Dep');
    const count = vscode.workspace.workspaceFolders?.length ?? 0;
    const added = new Promise<void>((resolve) => {
      const d = vscode.workspace.onDidChangeWorkspaceFolders(() => {
        d.dispose();
        resolve();
      });
    });
    assert.ok(vscode.workspace.updateWorkspaceFolders(count, 0, { uri: vscode.Uri.file(root), name: 'monorepo' }), 'the monorepo folder is added');
    await added;
  });

  after(async () => {
    await control('DELETE', 'faults');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const index = (vscode.workspace.workspaceFolders ?? []).findIndex((f) => f.uri.fsPath === root);
    if (index >= 0) vscode.workspace.updateWorkspaceFolders(index, 1);
    await signIn();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('signed out: both packages of the monorepo (not node_modules) with their versions, nothing of the server', async () => {
    await vscode.commands.executeCommand('datagrok.signOut', {});
    await vscode.commands.executeCommand('datagrok.packages.refresh');
    assert.deepEqual(await rows(), [
      ['Demo', 'v1.3.0'],
      ['Sketch', 'v0.0.1'],
    ]);
    const demo = item(await pkg('Demo'));
    assert.equal(demo.contextValue, 'datagrok.package');
    assert.equal(demo.resourceUri?.fsPath, path.join(root, 'packages', 'Demo'));
    assert.equal(demo.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
  });

  it('signed in: the version the server has beside each package, "not published" beside one it lacks', async () => {
    await signIn();
    const shown = await until('the server versions', async () => {
      const r = await rows();
      return r.every(([, d]) => !d.includes('checking')) && r.length === 2 ? r : undefined;
    });
    assert.deepEqual(shown, [
      ['Demo', 'v1.3.0 · server 1.0.0'],
      ['Sketch', 'v0.0.1 · not published'],
    ]);
  });

  it('lists the functions as written (name, role, inputs → outputs); a function opens its annotation', async () => {
    const functions = await tree().getChildren(await pkg('Demo'));
    assert.deepEqual(
      functions.map((n) => [item(n).label, item(n).description, item(n).contextValue]),
      [
        ['test', '(category: string, test: string, testContext: object, excludeNodeTests: bool) → result: dataframe', 'datagrok.packageFunction'],
        ['initAutoTests', '() → void', 'datagrok.packageFunction'],
        ['info', '() → void', 'datagrok.packageFunction'],
      ],
    );
    const info = item(functions[2]!);
    assert.ok(info.command, 'a function item opens its annotation');
    await vscode.commands.executeCommand(info.command.command, ...(info.command.arguments ?? []));
    const editor = await until('the annotation in an editor', async () => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.fsPath === path.join(root, 'packages', 'Demo', 'src', 'package.ts') ? e : undefined;
    });
    assert.equal(editor.document.lineAt(editor.selection.active.line).text, '//name: info');
  });

  it('a function added on disk (a role among its tags) shows without a refresh', async () => {
    await rows();
    const changed = new Promise<void>((resolve) => {
      const d = tree().onDidChangeTreeData(() => {
        d.dispose();
        resolve();
      });
    });
    edit(
      path.join(root, 'packages', 'Sketch'),
      'src/panels.ts',
      () => '//name: Sketcher\n//tags: panel\n//input: string smiles\n//output: widget w\nexport function sketcher(smiles: string) {}\n',
    );
    await changed;
    const functions = await until('the new function', async () => {
      const r = await rows(await pkg('Sketch'));
      return r.some(([label]) => label === 'Sketcher') ? r : undefined;
    });
    assert.deepEqual(
      functions.find(([label]) => label === 'Sketcher'),
      ['Sketcher', 'panel · (smiles: string) → w: widget'],
    );
  });

  it("a failed read of the server's packages shows in place; Retry reads them again", async () => {
    await control('POST', 'faults', { match: 'GET /api/packages', status: 500, apiError: 'packages are down', count: 1 });
    await vscode.commands.executeCommand('datagrok.packages.refresh');
    const failed = await until('the error in place', async () => {
      const nodes = await tree().getChildren();
      return nodes.length === 3 && item(nodes[0]!).contextValue === 'datagrok.error' ? nodes : undefined;
    });
    const error = item(failed[0]!);
    assert.match(String(error.label), /^Could not read the packages of 127\.0\.0\.1:\d+, so their versions there are unknown: .*packages are down/);
    const host = new URL(emulator.url).host;
    assert.deepEqual(
      failed.slice(1).map((n) => item(n).description),
      [`v1.3.0 · ${host}: version unknown`, `v0.0.1 · ${host}: version unknown`],
    );
    assert.equal(error.command?.command, 'datagrok.packages.refresh');
    await vscode.commands.executeCommand(error.command.command, ...(error.command.arguments ?? []));
    const again = await until('the versions after Retry', async () => {
      const r = await rows();
      return r.length === 2 && r[0]![1].includes('server') ? r : undefined;
    });
    assert.deepEqual(again[0], ['Demo', 'v1.3.0 · server 1.0.0']);
  });

  it('a package made on disk shows, one removed goes', async () => {
    makePackage(path.join(root, 'packages', 'Third'), 'Third');
    await until('the new package', async () => ((await rows()).some(([label]) => label === 'Third') ? true : undefined));
    fs.rmSync(path.join(root, 'packages', 'Third'), { recursive: true });
    const left = await until('the package removed', async () => {
      const r = await rows();
      return r.some(([label]) => label === 'Third') ? undefined : r;
    });
    assert.deepEqual(
      left.map(([label]) => label),
      ['Demo', 'Sketch'],
    );
  });
});

describe('packagesView: servers shared with grok (~/.grok/config.yaml under a temporary HOME)', function () {
  this.timeout(120_000);
  const other = emulator.url.replace('127.0.0.1', 'localhost');
  let home = '';
  let file = '';
  let text = '';
  const savedHome = process.env.HOME;
  const signInWith = (options: object) => Promise.resolve(vscode.commands.executeCommand('datagrok.signIn', options));
  const activeUrl = () => vscode.workspace.getConfiguration('datagrok').get<string>('serverUrl');

  before(async function () {
    requireWorkspaceTrust(this, true);
    await resetEmulator();
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-grok-home-'));
    file = path.join(home, '.grok', 'config.yaml');
    fs.mkdirSync(path.dirname(file));
    text = [
      '# the developer servers',
      'default: local',
      'servers:',
      '  emu:',
      `    url: ${emulator.url}`,
      `    key: ${emulator.key}`,
      '  local:',
      `    url: ${other}`,
      `    key: ${emulator.key}`,
      '  pair:',
      `    url: ${other}`,
      '    keyFile: ~/.grok/keys/pair.json',
      '  wrong:',
      `    url: ${emulator.url}`,
      '    key: not-the-key-123',
      '',
    ].join('\n');
    fs.writeFileSync(file, text);
    // The extension reads grok's file under the user's home, as grok does (os.homedir(): HOME on POSIX).
    process.env.HOME = home;
  });

  after(async () => {
    process.env.HOME = savedHome;
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    if (activeUrl() === other) await vscode.commands.executeCommand('datagrok.signOut', {});
    await signIn();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('{ grokAlias } signs in with the URL and key grok keeps; the key goes to no setting; a bad alias or key stores nothing, with the reason', async () => {
    await vscode.commands.executeCommand('datagrok.signOut', {});
    await assert.rejects(signInWith({ grokAlias: 'nope' }), /grok's config \(.*config\.yaml\) has no server "nope"; it has local, emu, pair, wrong\./);
    await assert.rejects(signInWith({ grokAlias: 'pair' }), /grok's server "pair" .* cannot be signed in to here: grok signs in to it with a key pair \(keyFile\)/);
    await assert.rejects(signInWith({ grokAlias: 'emu', url: other }), /either \{ grokAlias \} or \{ url, apiKey \}/);
    const wrong = await signInWith({ grokAlias: 'wrong' }).then(
      () => assert.fail('a wrong key signed in'),
      (e: Error) => e,
    );
    assert.match(wrong.message, /did not accept the key grok keeps for "wrong".*Update servers\.wrong\.key in .*config\.yaml/);
    assert.doesNotMatch(wrong.message, /not-the-key-123/);
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('datagrok.functions.refresh', {})), /not signed in/i, 'the wrong key stored nothing');

    const user = await vscode.commands.executeCommand<{ name: string }>('datagrok.signIn', { grokAlias: 'emu' });
    assert.equal(user.name, 'demo');
    assert.equal(activeUrl(), emulator.url);
    assert.doesNotMatch(JSON.stringify(vscode.workspace.getConfiguration('datagrok')), new RegExp(emulator.key), 'no setting holds the key');
    assert.equal(fs.readFileSync(file, 'utf8'), text, "grok's file is not changed");
  });

  it("Sign In from the palette offers grok's servers (the default first); after the yes, it signs in with grok's key", async () => {
    let settled = false;
    const signingIn = Promise.resolve(vscode.commands.executeCommand<{ name: string } | undefined>('datagrok.signIn')).finally(() => {
      settled = true;
    });
    // Enter on the first line of each pick: grok's default server ("local"), then "Sign In with grok's key".
    for (let i = 0; i < 100 && !settled; i++) {
      await pause(300);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
    const user = await signingIn;
    assert.equal(user?.name, 'demo');
    assert.equal(activeUrl(), other, "the default alias's server is the active one");
    assert.equal(fs.readFileSync(file, 'utf8'), text, "grok's file is not changed");
  });
});

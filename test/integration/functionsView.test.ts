// The Functions view and its commands against the emulator's demo functions: the tree (packages,
// kinds, signatures), a search that asks the server, errors in place with Retry, parameter files made
// from a function and run, Copy Name.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { FuncInfo } from '../../src/api/types';
import type { DatagrokExtensionApi } from '../../src/extension';
import { parseParameterFile } from '../../src/functions/parameterFile';
import type { PackageNode } from '../../src/functions/functionsTree';
import type { ExplorerNode } from '../../src/ui/explorerTree';
import { clearEmulatorRequests, control, emulatorRequests, requireWorkspaceTrust, resetEmulator, signIn } from './support';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';
const PACKAGES = ['Chem', 'Dates', 'Demo', 'Math', 'Queries', 'Samples', 'Scripts', 'Stats', 'Text'];

function run<T = unknown>(command: string, arg?: unknown): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, arg));
}

describe('Functions view', () => {
  let api: DatagrokExtensionApi;
  const tree = () => api.functionsTree;
  const item = (node: ExplorerNode) => tree().getTreeItem(node) as vscode.TreeItem;
  const label = (node: ExplorerNode) => String(item(node).label);
  const labels = async (node?: ExplorerNode) => (await tree().getChildren(node)).map(label);
  async function child(parent: ExplorerNode | undefined, name: string): Promise<ExplorerNode> {
    const nodes = await tree().getChildren(parent);
    const found = nodes.find((n) => label(n) === name);
    assert.ok(found, `"${name}" not found among ${nodes.map(label).join(', ')}`);
    return found;
  }
  const fn = async (pkg: string, name: string) => child(await child(undefined, pkg), name);
  const workspaceFile = (name: string) => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, name);
  const removeFile = (uri: vscode.Uri) => fs.rmSync(uri.fsPath, { force: true });

  before(async function () {
    requireWorkspaceTrust(this, true);
    await resetEmulator();
    await signIn();
    api = (await vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.activate()) as DatagrokExtensionApi;
    await run('datagrok.functions.search', { text: '' });
    await run('datagrok.functions.refresh');
  });

  after(async () => {
    await control('DELETE', 'faults');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const name of ['Add.datagrok.json', 'Round.datagrok.json']) removeFile(workspaceFile(name));
    await resetEmulator();
  });

  it('groups the functions by package (collapsed), each function a leaf with its description', async () => {
    const roots = await tree().getChildren();
    assert.deepEqual(roots.map(label), PACKAGES);
    const demo = roots[PACKAGES.indexOf('Demo')]!;
    assert.equal(item(demo).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.deepEqual(await labels(demo), ['Add', 'ColumnStats', 'Echo', 'Fail', 'Filter', 'RowCount']);
    const add = item(await fn('Demo', 'Add'));
    assert.equal(add.collapsibleState, vscode.TreeItemCollapsibleState.None);
    assert.equal(add.description, 'Adds two numbers');
    assert.equal(add.contextValue, 'datagrok.function.function');
  });

  it('tells functions, scripts and queries apart by icon', async () => {
    const icon = async (pkg: string, name: string) => (item(await fn(pkg, name)).iconPath as vscode.ThemeIcon).id;
    assert.equal(await icon('Demo', 'Add'), 'symbol-function');
    assert.equal(await icon('Scripts', 'Normalize'), 'file-code');
    assert.equal(await icon('Queries', 'CountriesByContinent'), 'database');
    assert.equal(item(await fn('Queries', 'CountriesByContinent')).contextValue, 'datagrok.function.query');
  });

  it('shows the signature (inputs with types and defaults, outputs) in the tooltip, read when first hovered', async () => {
    const node = await fn('Math', 'Round');
    const treeItem = item(node);
    assert.equal(treeItem.tooltip, undefined, 'left to resolveTreeItem');
    await clearEmulatorRequests();
    const resolved = await tree().resolveTreeItem(treeItem, node, new vscode.CancellationTokenSource().token);
    const tooltip = resolved.tooltip as vscode.MarkdownString;
    assert.ok(tooltip instanceof vscode.MarkdownString, 'a Markdown tooltip');
    assert.match(tooltip.value, /Math:Round\(value: double, digits: int = 0\) → rounded: double/);
    assert.match(tooltip.value, /`digits`: int = `0` _\(optional\)_ — Decimal digits/);
    assert.match(tooltip.value, /\*\*Outputs\*\*\n\n- `rounded`: double — The rounded number/);
    assert.ok(
      (await emulatorRequests()).some((r) => r.method === 'GET' && /\/functions\/Math[.:%3A]+Round$/i.test(r.path)),
      'read by name on the server',
    );
  });

  it('searches on the server (smart-search text) and shows only what it answers; empty text clears', async () => {
    await clearEmulatorRequests();
    const found = await run<FuncInfo[]>('datagrok.functions.search', { text: 'package = "Chem"' });
    assert.deepEqual(found.map((f) => f.nqName).sort(), ['Chem:AtomCount', 'Chem:MolecularWeight']);
    const roots = await tree().getChildren();
    assert.deepEqual(roots.map(label), ['Chem']);
    assert.equal(item(roots[0]!).collapsibleState, vscode.TreeItemCollapsibleState.Expanded, 'search results open');
    assert.deepEqual(await labels(roots[0]), ['AtomCount', 'MolecularWeight']);
    assert.equal(tree().search, 'package = "Chem"');
    const lists = (await emulatorRequests()).filter((r) => r.method === 'GET' && /\/public\/v1\/functions$/.test(r.path));
    assert.ok(lists.length > 0, 'the list was asked');
    for (const r of lists) assert.match(String((r as { query?: string }).query), /text=/, 'never the whole list to filter here');

    const none = await run<FuncInfo[]>('datagrok.functions.search', { text: 'no-such-function-anywhere' });
    assert.deepEqual(none, []);
    assert.match((await labels())[0]!, /No functions on .* match "no-such-function-anywhere"/);

    assert.deepEqual(await run('datagrok.functions.search', { text: '' }), []);
    assert.equal(tree().search, '');
    assert.deepEqual(await labels(), PACKAGES);
  });

  it('shows a failed load in place with Retry, which loads it again', async () => {
    // Four 503s: the first GET and its three retries.
    await control('POST', 'faults', { match: 'GET /api/public/v1/functions', status: 503, count: 4 });
    await run('datagrok.functions.refresh');
    const [error, ...rest] = await tree().getChildren();
    assert.equal(rest.length, 0);
    const errorItem = item(error!);
    assert.equal(errorItem.contextValue, 'datagrok.error');
    assert.equal(errorItem.command?.command, 'datagrok.functions.refresh');
    await run(errorItem.command!.command, ...(errorItem.command!.arguments ?? []));
    assert.deepEqual(await labels(), PACKAGES);
  });

  it('pages a big package: 200 functions, then Show more… for the next 200', async () => {
    const funcs: FuncInfo[] = Array.from({ length: 450 }, (_, i) => ({
      id: `b${i}`,
      name: `F${String(i).padStart(3, '0')}`,
      nqName: `Big:F${String(i).padStart(3, '0')}`,
      package: 'Big',
      kind: 'function',
      tags: [],
    }));
    // The bundle's class (the extension's nodes are not this compiled copy's): taken from a package item.
    const Package = (await tree().getChildren())[0]!.constructor as typeof PackageNode;
    const big = new Package(tree(), 'Big', funcs, false, 'test:');
    let nodes = await tree().getChildren(big);
    assert.equal(nodes.length, 201);
    const more = item(nodes[200]!);
    assert.equal(more.label, 'Show more… (200 of 450)');
    assert.equal(more.command?.command, 'datagrok.functions.showMore');
    await run(more.command!.command, ...(more.command!.arguments ?? []));
    nodes = await tree().getChildren(big);
    assert.equal(nodes.length, 401);
    assert.equal(label(nodes[399]!), 'F399');
  });

  it('New Parameter File writes <Name>.datagrok.json in the workspace folder, opens it, and it runs', async () => {
    const target = workspaceFile('Add.datagrok.json');
    removeFile(target);
    const uri = await run<vscode.Uri>('datagrok.functions.newParameterFile', { function: 'Demo:Add' });
    assert.equal(uri.toString(), target.toString());
    const text = fs.readFileSync(uri.fsPath, 'utf8');
    const parsed = parseParameterFile(text, 'Add.datagrok.json');
    assert.equal(parsed.functionName, 'Demo:Add');
    assert.deepEqual(parsed.params, { a: 0, b: 0 });
    assert.match(text, /\/\/ number, required: First addend/);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uri.toString(), 'opened');
    assert.equal(await run('datagrok.functions.run', { uri }), 0);
    assert.equal(await run('datagrok.functions.run', { uri, params: { a: 1, b: 2 } }), 3);
  });

  it('New Parameter File refuses to overwrite an existing file unless asked', async () => {
    const target = workspaceFile('Add.datagrok.json');
    fs.writeFileSync(target.fsPath, '{ "$function": "Demo:Add", "a": 40, "b": 2 }\n');
    await assert.rejects(run('datagrok.functions.newParameterFile', { function: 'Demo:Add' }), /already exists: refused to overwrite/);
    assert.equal(fs.readFileSync(target.fsPath, 'utf8'), '{ "$function": "Demo:Add", "a": 40, "b": 2 }\n', 'unchanged');
    await run('datagrok.functions.newParameterFile', { function: 'Demo:Add', overwrite: true });
    assert.deepEqual(parseParameterFile(fs.readFileSync(target.fsPath, 'utf8'), 'x').params, { a: 0, b: 0 });
    await assert.rejects(run('datagrok.functions.newParameterFile', { function: 'Demo:NoSuchThing' }), /not found/i);
    await assert.rejects(run('datagrok.functions.newParameterFile', {}), /needs \{ function/);
  });

  it('Run… from the tree opens the parameter file to fill in (defaults included)', async () => {
    const target = workspaceFile('Round.datagrok.json');
    removeFile(target);
    const uri = await run<vscode.Uri>('datagrok.functions.run', await fn('Math', 'Round'));
    assert.equal(uri.toString(), target.toString());
    assert.deepEqual(parseParameterFile(fs.readFileSync(target.fsPath, 'utf8'), 'x').params, { value: 0, digits: 0 });
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), target.toString());
  });

  it('Copy Name puts Package:Name on the clipboard, from an item or { function }', async () => {
    await vscode.env.clipboard.writeText('');
    assert.equal(await run('datagrok.functions.copyName', { function: 'Text:Upper' }), 'Text:Upper');
    assert.equal(await vscode.env.clipboard.readText(), 'Text:Upper');
    await run('datagrok.functions.copyName', await fn('Scripts', 'Greet'));
    assert.equal(await vscode.env.clipboard.readText(), 'Scripts:Greet');
  });

  it('is empty while signed out (the welcome shows) and fills again on sign-in', async () => {
    await run('datagrok.signOut', {});
    assert.deepEqual(await tree().getChildren(), []);
    await signIn();
    assert.deepEqual(await labels(), PACKAGES);
  });
});

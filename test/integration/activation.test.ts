// The extension as VS Code sees it: installed, activated by its commands, every command registered.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import * as vscode from 'vscode';
import type { DatagrokExtensionApi } from '../../src/extension';
import { activationMarks } from '../host/activationMarks';
import { log } from './index';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';

interface ContributedCommand {
  command: string;
}

describe('Activation', () => {
  before(() => {
    log(`VS Code ${vscode.version} (${vscode.UIKind[vscode.env.uiKind]}, ${vscode.env.appName})`);
  });

  it('is installed under its published id', () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed`);
    assert.equal(extension.packageJSON.name, 'datagrok-vscode');
  });

  // A light start: activation loads dist/extension.js only (the connection, the status bar, stand-ins),
  // through dist/boot.js; dist/features.js waits for a first use, dist/api.js (the client and undici) for
  // the first request. Runs before any command or request: this is the first suite.
  it('loads dist/extension.js alone at activation (through dist/boot.js): no feature, no API bundle (undici), no papaparse', async () => {
    const extension = vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!;
    await extension.activate();
    assert.deepEqual(loadedFromDist(extension), ['boot.js', 'extension.js'], `loaded from dist/ at activation: ${loadedFromDist(extension).join(', ')}`);
    assert.equal(extension.exports.lightStart.featuresLoaded, false);
    // Registered after activate() returned, a turn of the host's event loop each, in this order, all
    // before VS Code counted the extension active.
    assert.deepEqual(
      extension.exports.lightStart.parts.map((p) => p.name),
      ['views and file systems', 'commands', 'parameter files', 'tools', 'debug configurations'],
    );
  });

  it('a JSON document that is no parameter file loads nothing: no CodeLens, hover or completion asked of the features', async () => {
    const extension = vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!;
    const document = await vscode.workspace.openTextDocument({ language: 'json', content: '{ "function": "Demo:Add", "a": 1 }\n' });
    await vscode.window.showTextDocument(document);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, new vscode.Position(0, 4));
    await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, new vscode.Position(0, 2));
    // The Run lens is ours alone; VS Code's JSON features may hover.
    assert.ok(!lenses.some((lens) => lens.command?.command === 'datagrok.functions.run'), 'a Run lens on a plain JSON document');
    assert.ok(Array.isArray(hovers));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(extension.exports.lightStart.featuresLoaded, false, 'a plain JSON document loaded the features');
    assert.deepEqual(loadedFromDist(extension), ['boot.js', 'extension.js']);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a TypeScript document that is no Datagrok package file loads nothing', async () => {
    const extension = vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!;
    const document = await vscode.workspace.openTextDocument({ language: 'typescript', content: "import * as fs from 'node:fs';\nexport const a = fs;\n" });
    await vscode.window.showTextDocument(document);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(extension.exports.lightStart.featuresLoaded, false, 'a plain TypeScript document loaded the features');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it("a command's first run loads the features, and its stand-in forwards the options, the result and the error", async () => {
    const extension = vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!;
    // Copy ID needs no sign-in: the options object goes to the handler, its result comes back.
    assert.equal(await vscode.commands.executeCommand('datagrok.copyId', { id: 'light-start-1' }), 'light-start-1');
    assert.equal(extension.exports.lightStart.featuresLoaded, true);
    assert.equal(await vscode.env.clipboard.readText(), 'light-start-1');
    assert.deepEqual(loadedFromDist(extension), ['boot.js', 'extension.js', 'features.js'], 'the features load without the API bundle');
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('datagrok.copyId', {})), /Copy ID works on a group or request item, or with \{ id \}\./);
    // Everything the features register goes through a stand-in made at activation, but the "Show more…"
    // commands, which only the views' own items run.
    assert.deepEqual([...extension.exports.lightStart.unplanned].sort(), ['datagrok.dashboards.showMore', 'datagrok.groups.showMore', 'datagrok.tables.showMore']);
  });

  it('activates when one of its commands runs', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    // Show Log has no side effect beyond revealing the output channel. Its onCommand activation
    // event activates the extension before the command is looked up, so activation is checked
    // even if the command were missing (the next test reports that).
    await vscode.commands.executeCommand('datagrok.showLog').then(undefined, () => undefined);
    assert.equal(extension.isActive, true);
    // isActive is also true after a failed activation; activate() then rejects with its error.
    await extension.activate();
  });

  it('registers every command it contributes', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    await extension.activate();
    const contributed = (extension.packageJSON.contributes.commands as ContributedCommand[]).map((c) => c.command);
    assert.ok(contributed.includes('datagrok.signIn'), 'package.json contributes datagrok.signIn');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    assert.ok(missing.length === 0, `contributed but not registered: ${missing.join(', ')}`);
  });

  it("keeps V8's code cache of the entry and the features in the extension's global storage, which this host's V8 accepts", async function () {
    this.timeout(60_000);
    const extension = vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!;
    const { codeCache } = extension.exports.lightStart;
    // A fresh profile has none yet (written a few seconds after the load); a profile used before has it.
    assert.ok(['used', 'written later', 'refused'].includes(codeCache.entry), `the entry's cache: ${codeCache.entry}`);
    assert.ok(['used', 'written later', 'refused'].includes(codeCache.features), `the features' cache: ${codeCache.features}`);
    const { dir } = codeCache;
    const dist = path.join(extension.extensionPath, 'dist');
    for (const bundle of ['extension.js', 'features.js']) {
      let file: string | undefined;
      for (let waited = 0; !file && waited < 30_000; waited += 250) {
        file = fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => f.startsWith(`${bundle}-`) && f.endsWith('.bin')) : undefined;
        if (!file) await new Promise((r) => setTimeout(r, 250));
      }
      assert.ok(file, `no code cache of ${bundle} in ${dir}`);
      const source = fs.readFileSync(path.join(dist, bundle), 'utf8');
      // Another script name: V8 would otherwise reuse its own compilation of the same source and read no cache.
      const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n});`, {
        filename: path.join(dist, `${bundle}.check`),
        cachedData: fs.readFileSync(path.join(dir, file)),
      });
      assert.equal(script.cachedDataRejected, false, `this host's V8 refuses the code cache of ${bundle}`);
    }
  });

  it('sizes of the bundles, and what the first request adds', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    const dist = path.join(extension.extensionPath, 'dist');
    // What the first request adds, timed in this extension host (the bundle VS Code loaded is timed by
    // VS Code itself; its size and this figure are printed by npm run bench).
    const sizes = ['extension.js', 'features.js', 'api.js', 'papaparse.js'].map((file) => `${file} ${fs.statSync(path.join(dist, file)).size} bytes`);
    const started = performance.now();
    require(path.join(dist, 'api.js'));
    log(`light start: ${sizes.join(', ')}; dist/api.js loads in ${(performance.now() - started).toFixed(1)} ms here, on the first request`);
    assert.ok(loadedFromDist(extension).includes('api.js'));
  });

  it("reports VS Code's own activation time for the extension", async function () {
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
    const times = activationMarks(EXTENSION_ID);
    // A figure, not a check: an extension host without these marks (another VS Code) skips it.
    if (!times) this.skip();
    // Loading the code, then from the activate() call until its promise resolved (the parts registered
    // after the call, a turn of the host's event loop each, and whatever else the host ran between them).
    const parts = vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.exports.lightStart.parts;
    log(
      `activation in this host: code ${times.loadMs.toFixed(1)} ms, then ${times.untilActiveMs.toFixed(1)} ms until active; parts: ${parts.map((p) => `${p.name} ${p.ms.toFixed(1)} ms`).join(', ')} (the cause is in the extension host's log: ExtensionService#_doActivateExtension)`,
    );
  });
});

/**
 * The bundles of dist/ this extension host has loaded, but dist/network.js (the route logic, 3 KB): the
 * status bar loads it to describe the route once the connection's first refresh (a SecretStorage read,
 * after activate() returned) is over, so it may or may not be there yet.
 */
function loadedFromDist(extension: vscode.Extension<unknown>): string[] {
  const dist = path.join(extension.extensionPath, 'dist');
  return Object.keys(require.cache)
    .filter((file) => file.startsWith(dist + path.sep) && path.basename(file) !== 'network.js')
    .map((file) => path.basename(file));
}

// The extension as VS Code sees it: installed, activated by its commands, every command registered.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
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

  // A light start: activation loads dist/extension.js only; dist/api.js (the client and undici) and
  // dist/papaparse.js wait for the first request or CSV. Runs before any request: this is the first suite.
  it('loads neither the API bundle (undici) nor papaparse at activation', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    await extension.activate();
    const dist = path.join(extension.extensionPath, 'dist');
    const loaded = () => Object.keys(require.cache).filter((file) => file.startsWith(dist + path.sep)).map((file) => path.basename(file));
    assert.deepEqual(loaded(), ['extension.js'], `loaded from dist/ at activation: ${loaded().join(', ')}`);
    // What the first request adds, timed in this extension host (the bundle VS Code loaded is timed by
    // VS Code itself; its size and this figure are printed by npm run bench).
    const sizes = ['extension.js', 'api.js', 'papaparse.js'].map((file) => `${file} ${fs.statSync(path.join(dist, file)).size} bytes`);
    const started = performance.now();
    require(path.join(dist, 'api.js'));
    log(`light start: ${sizes.join(', ')}; dist/api.js loads in ${(performance.now() - started).toFixed(1)} ms here, on the first request`);
    assert.ok(loaded().includes('api.js'));
  });

  it("reports VS Code's own activation time for the extension", async function () {
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
    const times = activationTimes();
    // A figure, not a check: an extension host without these marks (another VS Code) skips it.
    if (!times) this.skip();
    // What Developer: Show Running Extensions shows: loading the code, then the activate call.
    log(`activation in this host: code ${times.loadMs.toFixed(1)} ms + activate ${times.activateMs.toFixed(1)} ms = ${(times.loadMs + times.activateMs).toFixed(1)} ms (the cause is in the extension host's log: ExtensionService#_doActivateExtension)`);
  });
});

/**
 * The extension host's performance marks around this extension's activation (VS Code's
 * `vs/base/common/performance`, kept on `globalThis.MonacoPerformanceMarks` in the host's process).
 */
function activationTimes(): { loadMs: number; activateMs: number } | undefined {
  const perf = (globalThis as { MonacoPerformanceMarks?: { getMarks(): { name: string; startTime: number }[] } }).MonacoPerformanceMarks;
  const marks = new Map(perf?.getMarks().map((mark) => [mark.name, mark.startTime]) ?? []);
  const at = (what: string) => marks.get(`code/extHost/${what}/${EXTENSION_ID}`);
  const [willLoad, didLoad, willActivate, didActivate] = ['willLoadExtensionCode', 'didLoadExtensionCode', 'willActivateExtension', 'didActivateExtension'].map(at);
  if (willLoad === undefined || didLoad === undefined || willActivate === undefined || didActivate === undefined) return undefined;
  return { loadMs: didLoad - willLoad, activateMs: didActivate - willActivate };
}

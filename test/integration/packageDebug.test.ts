// F5 on a Datagrok package with no login, in the real host: the `datagrok` debug configuration resolves
// (publish, a session token, the extension's browser profile signed in) to VS Code's built-in JavaScript
// debugger, which launches Chromium at the emulator's app page; the page loads the published
// dist/package.js and calls the app, and a breakpoint set in the package's TypeScript source is hit.
// Bad input: not a package, no browser, a refused sign-in (401), each a clear error and nothing launched.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { BREAK_LINE, copyDebugPackage, DEBUG_PACKAGE_NAME, grokPublish } from '../fixtures/debugPackage';
import { control, emulator, resetEmulator, signIn } from './support';

const CHROMIUM = '/usr/bin/chromium';
const HEADLESS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];

interface Stop {
  session: vscode.DebugSession;
  threadId: number;
  reason: string;
}

/** The next `stopped` event any JavaScript debug session sends (the page's session is a child of the launch). */
function nextStop(timeoutMs: number): { stopped: Promise<Stop>; dispose(): void } {
  let done: (s: Stop) => void = () => undefined;
  const stopped = new Promise<Stop>((resolve, reject) => {
    done = resolve;
    setTimeout(() => reject(new Error(`no breakpoint was hit within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  const registration = vscode.debug.registerDebugAdapterTrackerFactory('pwa-chrome', {
    createDebugAdapterTracker: (session) => ({
      onDidSendMessage: (m: { type?: string; event?: string; body?: { threadId: number; reason: string } }) => {
        if (m.type === 'event' && m.event === 'stopped' && m.body) done({ session, threadId: m.body.threadId, reason: m.body.reason });
      },
    }),
  });
  return { stopped, dispose: () => registration.dispose() };
}

describe('packageDebug: F5 on a package, signed in, a breakpoint in its TypeScript', function () {
  this.timeout(240_000);
  let root = '';
  let dir = '';
  let publishCommand = false;

  before(async function () {
    if (!fs.existsSync(CHROMIUM)) this.skip();
    await resetEmulator();
    await signIn();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-debug-'));
    dir = copyDebugPackage(path.join(root, 'debugdemo'));
    // The pre-launch publish is datagrok.packages.publish where this build has it; else the real grok CLI publishes here.
    publishCommand = (await vscode.commands.getCommands(true)).includes('datagrok.packages.publish');
    if (!publishCommand) await grokPublish(emulator.url, emulator.key, dir, path.join(root, 'home'));
  });
  after(async () => {
    await vscode.debug.stopDebugging();
    vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('F5 (a `datagrok` configuration): the app page opens signed in and the breakpoint in src/package.ts is hit', async () => {
    const jsDebug = vscode.extensions.getExtension('ms-vscode.js-debug');
    assert.ok(jsDebug, `VS Code's JavaScript debugger (ms-vscode.js-debug) is not in this host: ${vscode.extensions.all.map((e) => e.id).join(', ')}`);
    const source = vscode.Uri.file(path.join(dir, 'src', 'package.ts'));
    await vscode.window.showTextDocument(source);
    vscode.debug.addBreakpoints([new vscode.SourceBreakpoint(new vscode.Location(source, new vscode.Position(BREAK_LINE - 1, 0)))]);
    const watch = nextStop(150_000);
    try {
      const config = {
        type: 'datagrok',
        request: 'launch',
        name: 'Debug debugdemo',
        package: dir,
        url: `/apps/${DEBUG_PACKAGE_NAME}`,
        publish: publishCommand,
        runtimeExecutable: CHROMIUM,
        runtimeArgs: HEADLESS,
      };
      const started = performance.now();
      assert.equal(await vscode.debug.startDebugging(undefined, config), true, 'the debug session did not start (see the Datagrok log)');
      const stop = await watch.stopped;
      console.log(`      breakpoint hit ${((performance.now() - started) / 1000).toFixed(1)} s after F5 (reason ${stop.reason})`);
      assert.equal(stop.session.type, 'pwa-chrome');
      const trace = (await stop.session.customRequest('stackTrace', { threadId: stop.threadId, startFrame: 0, levels: 5 })) as {
        stackFrames: { name: string; line: number; source?: { path?: string } }[];
      };
      const top = trace.stackFrames[0];
      // js-debug names the file by a path, or in a remote host (code-server) by its vscode-remote: URI.
      const file = top.source?.path ?? '';
      assert.equal(
        /^[a-z][\w+.-]+:\/\//i.test(file) ? vscode.Uri.parse(file).path : path.normalize(file),
        source.fsPath,
        JSON.stringify(trace.stackFrames.map((f) => [f.name, f.source?.path, f.line])),
      );
      assert.equal(top.line, BREAK_LINE);
      assert.match(top.name, /greeting/);
      // The browser was signed in (the app page needs the auth cookie) and loaded the published bundle.
      const requests = await control<{ method: string; path: string; status: number }[]>('GET', 'requests');
      assert.ok(
        requests.some((r) => r.path === `/apps/${DEBUG_PACKAGE_NAME}` && r.status === 200),
        JSON.stringify(requests.filter((r) => !r.path.startsWith('/api/'))),
      );
      assert.ok(requests.some((r) => r.path.endsWith('/dist/package.js') && r.status === 200));
    } finally {
      watch.dispose();
      await vscode.debug.stopDebugging();
      vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    }
  });

  it('a folder that is not a package: refused with what a package is, nothing launched', async () => {
    const plain = fs.mkdtempSync(path.join(root, 'plain-'));
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('datagrok.packages.debug', { folder: vscode.Uri.file(plain), publish: false, runtimeExecutable: CHROMIUM })),
      /is not a Datagrok package: a Datagrok package is a folder with a package\.json that depends on datagrok-api/,
    );
    assert.equal(await vscode.debug.startDebugging(undefined, { type: 'datagrok', request: 'launch', name: 'not a package', package: plain, publish: false }), false);
    assert.equal(vscode.debug.activeDebugSession, undefined);
  });

  it('no browser: the error says how to set runtimeExecutable', async () => {
    const folder = vscode.Uri.file(dir);
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('datagrok.packages.debug', { folder, publish: false, runtimeExecutable: path.join(root, 'no-chrome') })),
      /"runtimeExecutable" of the launch configuration, .*no-chrome, does not exist: set it to the path of Chrome, Edge or Chromium/,
    );
    const saved = { PATH: process.env.PATH, CHROME_PATH: process.env.CHROME_PATH, EDGE_PATH: process.env.EDGE_PATH };
    process.env.PATH = path.join(root, 'empty');
    delete process.env.CHROME_PATH;
    delete process.env.EDGE_PATH;
    try {
      await assert.rejects(
        Promise.resolve(vscode.commands.executeCommand('datagrok.packages.debug', { folder, publish: false })),
        /No Chrome, Edge or Chromium was found.*set "runtimeExecutable"/s,
      );
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
  });

  it('the server refuses the sign-in (401): the error says so, without the key, and no browser starts', async () => {
    await control('POST', 'faults', { match: 'POST /api/users/login/dev', status: 401 });
    try {
      await assert.rejects(
        Promise.resolve(vscode.commands.executeCommand('datagrok.packages.debug', { folder: vscode.Uri.file(dir), publish: false, runtimeExecutable: CHROMIUM })),
        (e: Error) => {
          assert.match(e.message, /Signing a browser in/);
          assert.ok(!e.message.includes(emulator.key), 'the message holds the key');
          return true;
        },
      );
      assert.equal(vscode.debug.activeDebugSession, undefined);
    } finally {
      await control('DELETE', 'faults');
    }
  });
});

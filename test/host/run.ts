// Runs the integration suite inside a real VS Code (code-server's workbench in headless Chromium),
// with the contract of @vscode/test-electron: an extension folder, a runner exporting run().
//
//   node out/test/host/run.js [--extension DIR] [--tests RUNNER.js] [--spec-dir DIR] [--grep TEXT]
//                             [--vsix [FILE]] [--timeout SECONDS] [--results FILE] [--workspace-trust] [--proxy]
//                             [--vscode current|oldest]
//
// Environment: DATAGROK_TEST_VSIX=1 (test the packaged .vsix), DATAGROK_TEST_GREP (ignored when CI=true), DATAGROK_TEST_TIMEOUT
// (seconds, default 1200), DATAGROK_TEST_VSCODE (current|oldest), DATAGROK_TEST_VERBOSE=1 (echo the whole page console),
// DATAGROK_TEST_WORKSPACE_TRUST=1 (workspace trust on), DATAGROK_TEST_KEEP=1 (keep the temp state),
// DATAGROK_VSCODE_TEST_CACHE (where code-server is provisioned).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { remoteUri, shortTempDir, startCodeServer } from './codeServer';
import { startEmulator } from './emulator';
import { type HostRelease, hostRelease, resultsDir, repoRoot } from './paths';
import { freePort, onStop, removeAfterStop, stopAll, stopAllOnSignals } from './processes';
import { ensureHost } from './provision';
import { type ProxyPass, startProxyPass } from './proxyPass';
import { packageVsix } from './vsix';
import { extensionHostMessage, openBrowser, recordConsole, workbenchUrl } from './workbench';

export interface LaunchOptions {
  /** The extension folder (package.json), as test-electron's extensionDevelopmentPath. */
  extensionDevelopmentPath: string;
  /** The runner module exporting run(), as test-electron's extensionTestsPath. */
  extensionTestsPath: string;
  /** Where the runner looks for *.test.js (default: the runner's own folder). */
  specDir?: string;
  grep?: string;
  /** Install this packaged .vsix (or package one when true) instead of the development folder. */
  vsix?: string | boolean;
  timeoutMs: number;
  resultsFile: string;
  workspaceTrust: boolean;
  /** A tinyproxy and `http.proxy` in the user settings (test/host/proxyPass.ts). */
  proxy?: boolean;
  verbose: boolean;
  keepState: boolean;
  /** The VS Code release to run in (paths.ts HOST_RELEASES; default the current one). */
  release?: HostRelease;
}

interface RunnerResults {
  /** False while the runner is still writing results after each test (test/integration/index.ts). */
  complete?: boolean;
  passed: number;
  failed: number;
}

/** Marks the extension host's console lines among the workbench's (see test/integration/index.ts). */
const LOG_TAG = 'dg-test| ';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';

const log = (message: string) => console.log(`[host] ${message}`);

/**
 * The whole run's limit, above the suite's own per-test budgets: the long tests' explicit budgets
 * (large transfers, paging, cancellation: 300 + 300 + 180 + 120 × 3 + 30 s) add up to 1170 s, so a slow
 * run where they all take long fails test by test (mocha's timeouts) rather than as a whole (124).
 */
const DEFAULT_TIMEOUT_SECONDS = 1200;

function readResults(file: string): RunnerResults | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as RunnerResults;
  } catch {
    return undefined;
  }
}

/** The logs the workbench hands to codeAutomationExit, saved for a post-mortem. */
function saveAutomationLogs(dir: string, logs: unknown): void {
  if (!Array.isArray(logs)) return;
  for (const entry of logs as Array<{ relativePath?: string; contents?: string }>) {
    if (!entry?.relativePath || typeof entry.contents !== 'string') continue;
    const file = path.join(dir, entry.relativePath.replace(/^([/\\]|\.\.)+/, '').replace(/\.\.[/\\]/g, ''));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, entry.contents);
  }
}

/** Runs the suite once; resolves with the process exit code (0 only when every test passed). */
export async function runIntegration(options: LaunchOptions): Promise<number> {
  const started = Date.now();
  const host = await ensureHost({ release: options.release });
  log(`VS Code ${host.vscodeVersion} (code-server ${host.codeServerVersion}), Chromium ${host.chromium}`);

  const stateDir = shortTempDir('dgvt-');
  if (!options.keepState) removeAfterStop(stateDir);
  const logsDir = `${options.resultsFile.replace(/\.json$/, '')}-logs`;
  fs.rmSync(logsDir, { recursive: true, force: true });
  fs.mkdirSync(logsDir, { recursive: true });
  fs.rmSync(options.resultsFile, { force: true });

  const workspace = path.join(stateDir, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  // A multi-root window: mounting a connector adds a folder without restarting the extension host.
  const workspaceFile = path.join(stateDir, 'test.code-workspace');
  fs.writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: 'workspace' }] }, null, 2));
  const emulator = await startEmulator({ logFile: path.join(logsDir, 'emulator.log') });
  log(`emulator ${emulator.baseUrl}`);
  const proxy: ProxyPass | undefined = options.proxy ? await startProxyPass(emulator, log) : undefined;

  const payload: Array<[string, string]> = [];
  const installVsix: string[] = [];
  if (options.vsix) {
    const vsix = typeof options.vsix === 'string' ? path.resolve(options.vsix) : packageVsix(path.join(stateDir, 'datagrok-vscode.vsix'));
    log(`testing the packaged extension ${vsix} (installed with --install-extension)`);
    installVsix.push(vsix);
  }
  const environment: Record<string, string> = {
    DATAGROK_TEST_URL: emulator.baseUrl,
    DATAGROK_TEST_KEY: emulator.key,
    DATAGROK_TEST_CONTROL: emulator.origin,
    DATAGROK_TEST_WORKSPACE: workspace,
    DATAGROK_TEST_RESULTS: path.resolve(options.resultsFile),
    // Trust on: the folder starts untrusted; off (--disable-workspace-trust): trusted. Tests check it.
    DATAGROK_TEST_TRUST: options.workspaceTrust ? 'on' : 'off',
    DATAGROK_TEST_LOG_TAG: LOG_TAG,
    ...proxy?.environment,
  };
  if (options.specDir) environment['DATAGROK_TEST_SPEC_DIR'] = path.resolve(options.specDir);
  if (options.grep) environment['DATAGROK_TEST_GREP'] = options.grep;
  const server = await startCodeServer(host, {
    stateDir,
    port: await freePort(),
    smokeTestDriver: true,
    workspaceTrust: options.workspaceTrust,
    installVsix,
    logFile: path.join(logsDir, 'code-server.log'),
    settings: { ...testSettings(emulator.baseUrl), ...proxy?.settings },
    environment,
  });
  log(`code-server ${server.origin}, state in ${stateDir}`);

  // The workbench runs tests only with a development extension: in vsix mode that is the folder the
  // .vsix was installed into, so what runs is exactly what ships.
  const extensionFolder = options.vsix ? installedExtensionFolder(server.extensionsDir) : path.resolve(options.extensionDevelopmentPath);
  payload.push(['extensionDevelopmentPath', remoteUri(server, extensionFolder)]);
  payload.push(['extensionTestsPath', remoteUri(server, path.resolve(options.extensionTestsPath))]);
  payload.push(['extensionEnvironment', JSON.stringify(environment)], ['skipWelcome', 'true'], ['skipReleaseNotes', 'true']);

  const workbench = await openBrowser(host.chromium);
  const consoleLog = recordConsole(workbench.page, path.join(logsDir, 'console.log'), (text) => {
    const message = extensionHostMessage(text);
    // Lines of the extension host (runner, tests) carry the tag: echoed verbatim. The workbench's own
    // errors (e.g. a runner that cannot load) are echoed marked; the rest only when verbose.
    if (message?.text.startsWith(LOG_TAG)) console.log(message.text.slice(LOG_TAG.length));
    else if (message?.level === 'ERR') console.log(`[workbench error] ${message.text}`);
    else if (options.verbose) console.log(`[page] ${text}`);
  });
  onStop(() => new Promise<void>((resolve) => consoleLog.end(resolve)));

  let timer: NodeJS.Timeout | undefined;
  const outcome = await new Promise<{ code: number; reason?: string }>((resolve) => {
    void workbench.page.exposeFunction('codeAutomationExit', (code: number, logs?: unknown) => {
      saveAutomationLogs(logsDir, logs);
      resolve({ code: typeof code === 'number' ? code : 1 });
    });
    timer = setTimeout(() => resolve({ code: 124, reason: `timed out after ${options.timeoutMs / 1000} s` }), options.timeoutMs);
    workbench.page.on('crash', () => resolve({ code: 1, reason: 'the workbench page crashed' }));
    workbench.browser.on('disconnected', () => resolve({ code: 1, reason: 'the browser went away' }));
    // Only until the page is on its way: the run's own timeout bounds the rest, and on a busy machine the
    // workbench's scripts alone can take longer than playwright's 30 s "load" default.
    workbench.page.goto(workbenchUrl(server.origin, workspaceFile, payload), { waitUntil: 'commit', timeout: 120_000 }).catch((error: Error) => {
      resolve({ code: 1, reason: `could not open the workbench: ${error.message}` });
    });
  });
  clearTimeout(timer);

  const results = readResults(options.resultsFile);
  let code = outcome.code;
  if (outcome.reason) log(outcome.reason);
  if (!results) {
    log(`the runner wrote no results: it did not load or did not finish (see ${path.relative(repoRoot, logsDir)}/)`);
    code ||= 1;
  } else if (results.complete === false) {
    log(`the runner did not finish: ${results.passed} passed, ${results.failed} failed so far (partial results kept)`);
    code ||= 1;
  } else if (results.failed > 0 || results.passed === 0) {
    code ||= 1;
  }
  log(`${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s; results ${path.relative(repoRoot, options.resultsFile)}`);
  return code;
}

function installedExtensionFolder(extensionsDir: string): string {
  const name = fs.readdirSync(extensionsDir).find((entry) => entry.startsWith(`${EXTENSION_ID}-`));
  if (!name) throw new Error(`the .vsix did not install ${EXTENSION_ID} into ${extensionsDir}`);
  return path.join(extensionsDir, name);
}

/** User settings of the test profile: pointed at the emulator, quiet, nothing fetched. */
export function testSettings(serverUrl: string): Record<string, unknown> {
  // Workspace trust is not set here: code-server's --disable-workspace-trust decides (see README).
  return {
    'datagrok.serverUrl': serverUrl,
    'workbench.startupEditor': 'none',
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'chat.disableAIFeatures': true,
    // Saves happen when a test saves: an auto-save racing document.save() made save tests flaky.
    'files.autoSave': 'off',
  };
}

function envFlag(name: string): boolean {
  const value = process.env[name];
  return !!value && value !== '0' && value.toLowerCase() !== 'false';
}

/**
 * DATAGROK_TEST_GREP from the environment, except under CI (CI=true): a variable left set there would
 * silently narrow the CI run to a few tests, so it is ignored with a warning. `--grep` on the command
 * line (as the untrusted-workspace pass uses) still applies.
 */
export function grepFromEnvironment(prefix = '[host]'): string | undefined {
  const grep = process.env['DATAGROK_TEST_GREP'];
  if (!grep) return undefined;
  if (envFlag('CI')) {
    console.warn(`${prefix} warning: ignoring DATAGROK_TEST_GREP="${grep}" under CI (CI=${process.env['CI']}): CI runs the whole suite; use --grep to narrow a run on purpose`);
    return undefined;
  }
  return grep;
}

function optionsFromCommandLine(argv: string[]): LaunchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      extension: { type: 'string' },
      tests: { type: 'string' },
      'spec-dir': { type: 'string' },
      grep: { type: 'string' },
      vsix: { type: 'string' },
      timeout: { type: 'string' },
      results: { type: 'string' },
      'workspace-trust': { type: 'boolean' },
      proxy: { type: 'boolean' },
      vscode: { type: 'string' },
    },
    strict: true,
  });
  let vsix: string | boolean = envFlag('DATAGROK_TEST_VSIX');
  if (values.vsix !== undefined) vsix = values.vsix === '' || values.vsix === 'true' ? true : values.vsix;
  const timeoutSeconds = Number(values.timeout ?? process.env['DATAGROK_TEST_TIMEOUT'] ?? DEFAULT_TIMEOUT_SECONDS);
  return {
    extensionDevelopmentPath: path.resolve(values.extension ?? repoRoot),
    extensionTestsPath: path.resolve(values.tests ?? path.join(repoRoot, 'out', 'test', 'integration', 'index.js')),
    specDir: values['spec-dir'],
    grep: values.grep ?? grepFromEnvironment(),
    vsix,
    timeoutMs: (Number.isFinite(timeoutSeconds) && timeoutSeconds > 0 ? timeoutSeconds : DEFAULT_TIMEOUT_SECONDS) * 1000,
    resultsFile: path.resolve(values.results ?? path.join(resultsDir, 'integration.json')),
    workspaceTrust: values['workspace-trust'] === true || envFlag('DATAGROK_TEST_WORKSPACE_TRUST'),
    proxy: values.proxy === true,
    verbose: envFlag('DATAGROK_TEST_VERBOSE'),
    keepState: envFlag('DATAGROK_TEST_KEEP'),
    release: hostRelease(values.vscode),
  };
}

if (require.main === module) {
  stopAllOnSignals();
  let code = 1;
  (async () => {
    try {
      code = await runIntegration(optionsFromCommandLine(process.argv.slice(2)));
    } catch (error) {
      console.error(`[host] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      code = 1;
    } finally {
      await stopAll();
      process.exit(code);
    }
  })();
}

// The extension host's side of test/bench/hostActivation.ts: loaded as the test runner
// (extensionTestsPath) in a fresh window, it causes one activation (DATAGROK_BENCH_CAUSE), waits for the
// extension to be active and reads VS Code's own activation figures for it from the workbench's
// "Developer: Startup Performance" document (perf:Startup Performance, its "Extension Activation
// Stats" table: the figures Developer: Show Running Extensions shows, with the activation event). The
// host's performance marks around the activation are kept beside them as a cross-check. The result goes
// to DATAGROK_BENCH_RESULT as JSON. Not a test: the launcher prints and judges the figures.
import * as fs from 'node:fs';
import * as inspector from 'node:inspector';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { cacheFileOf } from '../../src/start/codeCache';
import { activationMarks } from '../host/activationMarks';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';

export interface HostActivation {
  cause: string;
  /** True when the extension was active before the trigger: the figures are not for this cause. */
  activeBeforeTrigger: boolean;
  /** The row of the Extension Activation Stats table, as VS Code computed it (milliseconds). */
  eager: boolean;
  codeLoadingMs: number;
  activateCallMs: number;
  activateResolvedMs: number;
  activationEvent: string;
  /** The host's marks: willLoadExtensionCode..didLoadExtensionCode and will..didActivateExtension. */
  marks?: { loadMs: number; untilActiveMs: number };
  /** How busy the machine's cores were in the last quarter second before the trigger (0-1), the threshold it waited for, and how long it waited. */
  quiet?: { busy: number; under: number; waitedMs: number };
  /** The parts activation registered after activate() returned, each in a turn of its own (the extension's own figures). */
  parts?: { name: string; ms: number }[];
  /** What became of the entry's V8 code cache at this activation (used, or written later, or refused). */
  codeCache?: string;
  error?: string;
}

async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The machine's CPU time so far, busy and in total (jiffies, all cores), from /proc/stat. */
function cpuTimes(): { busy: number; total: number } {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  // idle and iowait
  return { busy: total - fields[3] - (fields[4] ?? 0), total };
}

const QUIET_BUSY = 0.25;
const QUIET_SAMPLE_MS = 250;
const QUIET_MAX_MS = 20_000;

/**
 * Waits until the machine is quiet: under a quarter of its cores busy over a quarter second (VS Code's
 * startup, the workbench's first paint and the other extensions done), at most 20 s. Our figure and the
 * reference's then measure the activation, not what else the window was doing at startup.
 */
async function untilQuiet(): Promise<NonNullable<HostActivation['quiet']>> {
  const started = Date.now();
  for (;;) {
    const before = cpuTimes();
    await new Promise((resolve) => setTimeout(resolve, QUIET_SAMPLE_MS));
    const after = cpuTimes();
    const busy = (after.busy - before.busy) / Math.max(1, after.total - before.total);
    const waitedMs = Date.now() - started;
    if (busy < QUIET_BUSY || waitedMs > QUIET_MAX_MS) return { busy, under: QUIET_BUSY, waitedMs };
  }
}

/** The one action of a user that makes VS Code activate the extension for this cause. */
async function trigger(cause: string, workspace: string): Promise<void> {
  switch (cause) {
    case 'view':
      // As a click on the Datagrok activity bar item: the container opens, its views become visible.
      await vscode.commands.executeCommand('workbench.view.extension.datagrok');
      return;
    case 'datagrok-editor':
      // An editor on a datagrok: resource, as a restored editor asks for it: the file service needs the
      // provider for the scheme. Not awaited: reading it may fail signed out, which is beside the point.
      void vscode.commands.executeCommand('vscode.open', vscode.Uri.from({ scheme: 'datagrok', path: '/Home/bench.csv' })).then(undefined, () => undefined);
      return;
    case 'json':
      await vscode.window.showTextDocument(vscode.Uri.file(path.join(workspace, 'bench.json')));
      return;
    default:
      throw new Error(`unknown cause "${cause}" (view, datagrok-editor, json)`);
  }
}

/** The extension's row of the Extension Activation Stats table, once the workbench has it. */
async function statsRow(): Promise<string[]> {
  // Its content provider comes with the command (a lazy workbench contribution).
  await vscode.commands.executeCommand('perfview.show');
  const document = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'perf', path: 'Startup Performance' }));
  return until(() => {
    const line = document
      .getText()
      .split('\n')
      .find((text) => text.replace(/\s/g, '').startsWith(`|${EXTENSION_ID}|`));
    return line
      ?.split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
  }, 'the extension in Developer: Startup Performance');
}

/** A CPU profile of this extension host from now (node:inspector); the returned function stops it. */
async function startProfile(): Promise<() => Promise<object>> {
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<{ profile?: object }>((resolve, reject) => session.post(method, params, (error, answer) => (error ? reject(error) : resolve(answer as { profile?: object }))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  return async () => {
    const { profile } = await post('Profiler.stop');
    session.disconnect();
    return profile ?? {};
  };
}

export async function run(): Promise<void> {
  const cause = process.env['DATAGROK_BENCH_CAUSE'] ?? '';
  const resultFile = process.env['DATAGROK_BENCH_RESULT'] ?? '';
  const workspace = process.env['DATAGROK_BENCH_WORKSPACE'] ?? '';
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  const result: Partial<HostActivation> = { cause };
  try {
    if (!extension) throw new Error(`${EXTENSION_ID} is not installed in this host`);
    // The window settles first (onStartupFinished has run, then a moment), so that nothing the
    // workbench does at startup is taken for the trigger. Not for a JSON file: VS Code 1.139 opens the
    // user's chatLanguageModels.json as a JSON model just after startup in every window, which is itself
    // this cause, so the runner opens its JSON file at once and VS Code reports whichever came first.
    if (cause !== 'json') {
      await until(() => (vscode.extensions.getExtension('vscode.merge-conflict')?.isActive ? true : undefined), 'the end of startup');
      await new Promise((resolve) => setTimeout(resolve, 3000));
      result.quiet = await untilQuiet();
    }
    result.activeBeforeTrigger = extension.isActive;
    const profiler = process.env['DATAGROK_BENCH_PROFILE'] ? await startProfile() : undefined;
    await trigger(cause, workspace);
    await until(() => (extension.isActive ? true : undefined), 'the extension to be active');
    if (profiler) fs.writeFileSync(path.join(process.env['DATAGROK_BENCH_PROFILE'] ?? '', `${cause}.cpuprofile`), JSON.stringify(await profiler()));
    // Extension, Eager, Load Code, Call Activate, Finish Activate, Event, By.
    const [, eager, load, call, finish, event] = await statsRow();
    const lightStart = (extension.exports as { lightStart?: { parts?: { name: string; ms: number }[]; codeCache?: { entry: string; dir: string } } } | undefined)?.lightStart;
    Object.assign(result, {
      eager: eager === 'true',
      codeLoadingMs: Number(load),
      activateCallMs: Number(call),
      activateResolvedMs: Number(finish),
      activationEvent: event,
      marks: activationMarks(EXTENSION_ID),
      parts: lightStart?.parts,
      codeCache: lightStart?.codeCache?.entry,
    });
    // A window that wrote the code cache stays until it is on disk, as a user's does: the next one uses it.
    const dir = lightStart?.codeCache?.dir;
    if (dir && lightStart?.codeCache?.entry !== 'used') {
      const cacheFile = cacheFileOf(path.join(extension.extensionPath, 'dist', 'extension.js'), path.dirname(dir));
      await until(() => (fs.existsSync(cacheFile) ? true : undefined), 'the code cache to be written', 20_000);
    }
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  }
  fs.writeFileSync(resultFile, JSON.stringify(result));
}

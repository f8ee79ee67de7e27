// Activation time in the real VS Code host, per activation cause: the Datagrok view opened (onView),
// an editor on a datagrok: resource (onFileSystem:datagrok), a JSON file opened (onLanguage:json).
// One code-server (test/host's launcher) with the production bundle as the development extension; every
// run is a fresh window, so a fresh extension host, whose runner (hostActivationRunner.ts) does only that
// one thing and reads VS Code's own figures for the activation (Developer: Startup Performance's
// Extension Activation Stats: load code, call activate, finish activate, the event). Total = load code +
// call activate, as Developer: Show Running Extensions shows it. Offline: nothing is fetched; the
// settings point datagrok.serverUrl at a closed local port and no one signs in.
//
//   node out/test/bench/hostActivation.js [--runs 7] [--profile DIR]   (DIR: a .cpuprofile of the host per cause)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { shortTempDir, startCodeServer } from '../host/codeServer';
import { freePort, removeAfterStop, stopAll, stopAllOnSignals } from '../host/processes';
import { ensureHost } from '../host/provision';
import { openBrowser } from '../host/workbench';
import { median, settle } from './figures';
import { productionExtension, runInWindow } from './hostRun';
import type { HostActivation } from './hostActivationRunner';

const TARGET_MS = 20;
const RUN_TIMEOUT_MS = 180_000;

const CAUSES = [
  { cause: 'view', title: 'the Datagrok view opened', expected: /^onView:datagrok\./ },
  { cause: 'datagrok-editor', title: 'an editor on a datagrok: file', expected: /^onFileSystem:datagrok$/ },
  { cause: 'json', title: 'a JSON file opened', expected: /^onLanguage:json$/ },
] as const;

/**
 * The same extension without the onLanguage:json/jsonc activation events. VS Code 1.139 opens the user's
 * chatLanguageModels.json as a JSON model about a second after startup in every window (even with
 * chat.disableAIFeatures), which activates every onLanguage:json extension: the view and datagrok:
 * causes can only be seen alone without it. The code that activates is the same.
 */
function withoutJsonActivation(from: string, dir: string): void {
  fs.cpSync(from, dir, { recursive: true });
  const manifestFile = path.join(dir, 'package.json');
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { activationEvents: string[] };
  manifest.activationEvents = manifest.activationEvents.filter((event) => !/^onLanguage:jsonc?$/.test(event));
  fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
}

/**
 * The reference: the same manifest with an entry that only requires `vscode` (the host builds the
 * extension's API object at that first require) and returns from activate(). What any extension that
 * uses VS Code's API pays for the same cause in the same minute, as curl is for the transfers.
 */
function referenceExtension(from: string, dir: string): void {
  fs.cpSync(from, dir, { recursive: true });
  fs.rmSync(path.join(dir, 'dist'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'dist'));
  const { main } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { main: string };
  fs.writeFileSync(path.join(dir, main), "'use strict';\nrequire('vscode');\nexports.activate = () => ({});\n");
}

/** VS Code's figure: load code + call activate, as Developer: Show Running Extensions shows it. */
function totalOf(result: HostActivation): number {
  return result.codeLoadingMs + result.activateCallMs;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, profile: { type: 'string' } } });
  // --profile DIR: a CPU profile of the extension host from the trigger to the end of activation, per cause.
  const profileDir = values.profile ? path.resolve(values.profile) : undefined;
  if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
  const runs = Math.max(1, Number(values.runs) || 7);
  const host = await ensureHost();
  const stateDir = shortTempDir('dgact-');
  if (!process.env['DATAGROK_TEST_KEEP']) removeAfterStop(stateDir);
  const extension = path.join(stateDir, 'extension');
  productionExtension(extension);
  const extensionWithoutJson = path.join(stateDir, 'extension-without-json');
  withoutJsonActivation(extension, extensionWithoutJson);
  const reference = path.join(stateDir, 'reference');
  referenceExtension(extensionWithoutJson, reference);
  // For a JSON file, the reference with our manifest's onLanguage:json: VS Code's figure there counts the
  // other extensions the same event activates, for any extension.
  const referenceJson = path.join(stateDir, 'reference-json');
  referenceExtension(extension, referenceJson);
  const server = await startCodeServer(host, {
    stateDir,
    port: await freePort(),
    smokeTestDriver: true,
    // No sign-in, no server: activation must not need one.
    settings: { 'chat.disableAIFeatures': true },
    logFile: path.join(stateDir, 'code-server.log'),
  });
  const workbench = await openBrowser(host.chromium);
  const runner = path.join(__dirname, 'hostActivationRunner.js');

  const load = os.loadavg()[0].toFixed(1);
  const entryKb = (file: string) => (fs.statSync(path.join(extension, 'dist', file)).size / 1024).toFixed(1);
  console.log(
    `Activation in the real host (VS Code ${host.vscodeVersion}, code-server ${host.codeServerVersion}, production bundle; a fresh window per run, median of ${runs}; ${os.cpus().length} cores, load average ${load}; target <= ${TARGET_MS} ms each):`,
  );
  console.log(
    `  entry bundle loaded at activation: dist/boot.js ${entryKb('boot.js')} KB, dist/extension.js ${entryKb('extension.js')} KB (through V8's code cache once a window has written it); on first use: dist/features.js ${entryKb('features.js')} KB, dist/api.js ${entryKb('api.js')} KB`,
  );
  /** One fresh window activating `dir` for `cause`; its figures. */
  const activateIn = async (cause: string, dir: string, name: string): Promise<HostActivation> => {
    // A workspace per run: a window restores what the previous one on its workspace had open (the
    // view, an editor), which would activate the extension before the trigger.
    const workspace = path.join(stateDir, `workspace-${name}`);
    fs.mkdirSync(workspace, { recursive: true });
    fs.writeFileSync(path.join(workspace, 'bench.json'), '{ "bench": true }\n');
    const resultFile = path.join(stateDir, `${name}.json`);
    // Dirty pages written back first (the transfer benches before this one write gigabytes): the
    // host writes its log synchronously while it activates an extension.
    await settle();
    await runInWindow(server, workbench, {
      workspace,
      extension: dir,
      runner,
      environment: {
        DATAGROK_BENCH_CAUSE: cause,
        DATAGROK_BENCH_RESULT: resultFile,
        DATAGROK_BENCH_WORKSPACE: workspace,
        ...(profileDir && dir !== reference && dir !== referenceJson ? { DATAGROK_BENCH_PROFILE: profileDir } : {}),
      },
      consoleFile: path.join(stateDir, `console-${name}.log`),
      timeoutMs: RUN_TIMEOUT_MS,
    });
    return JSON.parse(fs.readFileSync(resultFile, 'utf8')) as HostActivation;
  };
  for (const { cause, title, expected } of CAUSES) {
    const results: HostActivation[] = [];
    const referenceTotals: number[] = [];
    for (let run = 0; run < runs; run++) {
      const checked = (result: HostActivation, what: string) => {
        if (result.error) throw new Error(`${what}: ${result.error}`);
        // For a JSON file the window's own chatLanguageModels.json may come first: the same cause, which
        // VS Code reports as the event (checked next). The other two causes have no JSON activation.
        if (result.activeBeforeTrigger && cause !== 'json') throw new Error(`${what}: the extension was active before the trigger`);
        if (!expected.test(result.activationEvent)) throw new Error(`${what}: VS Code reports the activation event "${result.activationEvent}", expected ${expected}`);
        return result;
      };
      const runReference = async () =>
        referenceTotals.push(totalOf(checked(await activateIn(cause, cause === 'json' ? referenceJson : reference, `reference-${cause}-${run}`), `${title} (the reference)`)));
      // The reference in the same minute, taking turns at going first.
      if (run % 2 === 1) await runReference();
      results.push(checked(await activateIn(cause, cause === 'json' ? extension : extensionWithoutJson, `${cause}-${run}`), title));
      if (run % 2 === 0) await runReference();
    }
    const totals = results.map(totalOf);
    const total = median(totals);
    const ms = (pick: (r: HostActivation) => number) => `${median(results.map(pick))} ms`;
    const judged = (value: number) => (value <= TARGET_MS ? `ok (<= ${TARGET_MS} ms)` : `ABOVE ${TARGET_MS} ms`);
    console.log(
      `  ${title.padEnd(30)} event ${results[0].activationEvent.padEnd(24)} code loading ${ms((r) => r.codeLoadingMs)}, activate call ${ms((r) => r.activateCallMs)}, total ${total} ms  ${judged(total)}`,
    );
    const mark = (pick: (m: NonNullable<HostActivation['marks']>) => number) => median(results.map((r) => (r.marks ? pick(r.marks) : Number.NaN))).toFixed(1);
    console.log(
      `  ${''.padEnd(30)} runs (total): ${totals.join(', ')} ms; activate resolved after ${ms((r) => r.activateResolvedMs)} more; the entry's code cache: ${results.map((r) => r.codeCache ?? 'none').join(', ')}`,
    );
    const quiet = results.filter((r) => r.quiet).map((r) => r.quiet as NonNullable<HostActivation['quiet']>);
    if (quiet.length > 0)
      console.log(
        `  ${''.padEnd(30)} before the trigger: the cores ${(median(quiet.map((q) => q.busy)) * 100).toFixed(0)}% busy over a quarter second, after waiting ${(median(quiet.map((q) => q.waitedMs)) / 1000).toFixed(1)} s for under ${(quiet[0].under * 100).toFixed(0)}% (median)`,
      );
    if (referenceTotals.length > 0)
      console.log(
        `  ${''.padEnd(30)} reference, an extension that only requires vscode, same minute: total ${median(referenceTotals)} ms (runs: ${referenceTotals.join(', ')} ms)`,
      );
    // Until active is wall time: the parts below and whatever else the host ran between them (for a
    // JSON file, the other extensions activated with ours). A figure, not judged.
    console.log(`  ${''.padEnd(30)} the host's marks: require() ${mark((m) => m.loadMs)} ms, from the activate() call until active ${mark((m) => m.untilActiveMs)} ms (wall time)`);
    // Our own code alone: the host's require() of dist/extension.js and the activate() call. VS Code's
    // code loading starts earlier, before an await that lets the other extensions activated by the same
    // event load first (for a JSON file: VS Code's JSON language features, npm, ...).
    const ownTotals = results.map((r) => (r.marks ? r.marks.loadMs + r.activateCallMs : Number.NaN));
    const ownTotal = median(ownTotals);
    console.log(
      `  ${''.padEnd(30)} our own code: require() + activate call ${ownTotal.toFixed(1)} ms  ${judged(ownTotal)} (runs: ${ownTotals.map((t) => t.toFixed(1)).join(', ')} ms)`,
    );
    // After activate() returns, the stand-ins are registered in parts, a turn of the host's event loop
    // each, before VS Code counts the extension active ("activate resolved"): the longest is how long
    // the host is held at once after the call.
    const parts = results[0].parts ?? [];
    const part = (name: string) => median(results.map((r) => r.parts?.find((p) => p.name === name)?.ms ?? Number.NaN)).toFixed(1);
    const longest = median(results.map((r) => Math.max(...(r.parts ?? []).map((p) => p.ms))));
    if (parts.length > 0)
      console.log(
        `  ${''.padEnd(30)} registered after the call, a turn each: ${parts.map((p) => `${p.name} ${part(p.name)} ms`).join(', ')}; the longest ${longest.toFixed(1)} ms  ${judged(longest)}`,
      );
  }
  // Figures, not a test (as the other benches): a figure above its target is printed as ABOVE, the exit
  // status is for a run that could not measure.
  return 0;
}

if (require.main === module) {
  stopAllOnSignals();
  let code = 1;
  main()
    .then((result) => {
      code = result;
    })
    .catch((error: unknown) => {
      console.error(`[bench] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    })
    .finally(async () => {
      await stopAll();
      process.exit(code);
    });
}

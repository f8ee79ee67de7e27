// The integration suite's runner: the extension host require()s this file and awaits run(), under
// the real-VS-Code launcher (test/host/run.ts) and under @vscode/test-electron (test/host/electron.ts).
// The host's stdout is not visible to the launcher, so every result goes through console.log
// (forwarded to the workbench page, echoed by the launcher) and into a results JSON file, rewritten
// after every test (`complete: false` until the run is over).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
import * as vscode from 'vscode';

interface TestResult {
  title: string;
  file?: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs?: number;
  error?: string;
}

export interface SuiteResults {
  /**
   * False while the suite runs: the file is rewritten after every test, so a run cut short (the
   * launcher's timeout, a crash) still leaves what had finished; true once the run is over.
   */
  complete: boolean;
  vscodeVersion: string;
  uiKind: string;
  node: string;
  startedAt: string;
  durationMs: number;
  passed: number;
  failed: number;
  pending: number;
  tests: TestResult[];
}

/** The spec files: every *.test.js below the suite folder (this folder unless told otherwise). */
function specFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((name) => name.endsWith('.test.js'))
    .map((name) => path.join(dir, name))
    .sort();
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

function resultsPath(): string {
  return process.env['DATAGROK_TEST_RESULTS'] || path.resolve(__dirname, '..', '..', '..', 'test-results', 'integration.json');
}

function writeResults(results: SuiteResults): void {
  const file = resultsPath();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

/**
 * Logs a line to the terminal of whoever runs the suite; tests use it too (`import { log } from './index'`).
 * Under the code-server launcher the host's console reaches the page mixed with the workbench's own
 * log lines (and VS Code's console wrapper cannot be replaced), so lines carry the tag the launcher
 * sets and strips. Under @vscode/test-electron there is no tag and lines go to stdout as they are.
 */
export function log(...args: unknown[]): void {
  const tag = process.env['DATAGROK_TEST_LOG_TAG'] ?? '';
  for (const line of format(...args).split('\n')) console.log(`${tag}${line}`);
}

export async function run(): Promise<void> {
  const started = Date.now();
  const results: SuiteResults = {
    complete: false,
    vscodeVersion: vscode.version,
    uiKind: vscode.UIKind[vscode.env.uiKind],
    node: process.version,
    startedAt: new Date(started).toISOString(),
    durationMs: 0,
    passed: 0,
    failed: 0,
    pending: 0,
    tests: [],
  };
  const mocha = new Mocha({ ui: 'bdd', timeout: 60000, color: false, reporter: class {} as unknown as Mocha.ReporterConstructor });
  const grep = process.env['DATAGROK_TEST_GREP'];
  if (grep) mocha.grep(grep);
  const dir = process.env['DATAGROK_TEST_SPEC_DIR'] || __dirname;
  for (const file of specFiles(dir)) mocha.addFile(file);
  log(`integration suite: VS Code ${vscode.version} (${results.uiKind}), Node ${process.version}, ${mocha.files.length} files in ${dir}${grep ? `, grep "${grep}"` : ''}`);

  try {
    await mocha.loadFilesAsync();
  } catch (error) {
    // A spec that cannot load (syntax error, missing module) is a failure of the whole suite.
    results.failed = 1;
    results.tests.push({ title: 'loading the spec files', state: 'failed', error: errorText(error) });
    results.durationMs = Date.now() - started;
    results.complete = true;
    writeResults(results);
    log(`FAIL loading the spec files\n${errorText(error)}`);
    log('0 passed, 1 failed');
    throw error;
  }

  // Partial results from here on: rewritten after every test (a few KB, synchronous, cheap).
  const checkpoint = () => {
    results.durationMs = Date.now() - started;
    writeResults(results);
  };
  checkpoint();
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on(Mocha.Runner.constants.EVENT_TEST_PASS, (test: Mocha.Test) => {
      results.passed++;
      results.tests.push({ title: test.fullTitle(), file: test.file, state: 'passed', durationMs: test.duration });
      log(`ok   ${test.fullTitle()} (${test.duration ?? 0} ms)`);
      checkpoint();
    });
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test: Mocha.Test, error: unknown) => {
      results.failed++;
      results.tests.push({ title: test.fullTitle(), file: test.file, state: 'failed', durationMs: test.duration, error: errorText(error) });
      log(`FAIL ${test.fullTitle()}\n${errorText(error).replace(/^/gm, '     ')}`);
      checkpoint();
    });
    runner.on(Mocha.Runner.constants.EVENT_TEST_PENDING, (test: Mocha.Test) => {
      results.pending++;
      results.tests.push({ title: test.fullTitle(), file: test.file, state: 'pending' });
      log(`skip ${test.fullTitle()}`);
      checkpoint();
    });
  });

  results.durationMs = Date.now() - started;
  results.complete = true;
  writeResults(results);
  if (results.pending > 0) log(`${results.pending} skipped`);
  log(`${results.passed} passed, ${results.failed} failed`);
  if (results.failed > 0) throw new Error(`${results.failed} integration test(s) failed`);
  if (results.passed === 0) throw new Error(`no integration test ran${grep ? ` (grep "${grep}")` : ''}`);
}

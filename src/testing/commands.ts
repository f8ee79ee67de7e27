// The function tests' commands: datagrok.tests.run (CI, scripts, the palette), Accept Actual (a case's
// context menu in the Test Explorer) and Turn Into Test (a parameter file, a run in the Runs view).
import * as path from 'node:path';
import { minimatch } from 'minimatch';
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { hostOf } from '../api/names';
import type { CommandInvocation } from '../core/commands';
import { parseParameterFile } from '../core/parameterFile';
import { uriOption } from '../core/options';
import { type CaseResult, junitXml } from '../platform/tests/junit';
import { parseTestFile } from '../platform/tests/cases';
import { judge, recordedExpectation } from '../platform/tests/expect';
import type { Services } from '../services';
import { callCase, newTestRunId } from './caseCall';
import { type ExpectWrite, writeExpectations } from './expectEdits';
import { type RunnerDeps, type Selection, type TestRunner, WRITES_SKIPPED } from './testRunner';
import type { CaseRef } from './testTree';

export interface TestsRunOptions {
  include?: string[];
  junit?: vscode.Uri | string;
}

export interface TestsRunResult {
  passed: number;
  failed: number;
  skipped: number;
  errored: number;
  cases: { id: string; name: string; outcome: CaseResult['outcome']; message?: string }[];
}

export interface Testing {
  readonly services: Services;
  readonly deps: RunnerDeps;
  readonly runner: TestRunner;
}

/** A cancellation token that follows an abort signal (the command layer's progress Cancel). */
function tokenOf(signal: AbortSignal): vscode.CancellationTokenSource {
  const source = new vscode.CancellationTokenSource();
  if (signal.aborted) source.cancel();
  else signal.addEventListener('abort', () => source.cancel(), { once: true });
  return source;
}

const hasGlob = (pattern: string) => /[*?[\]{}]/.test(pattern);

/** datagrok.tests.run `{ include?, junit? }`: the matching cases (all when no include); a case that writes runs only when named exactly. */
export async function runTests(t: Testing, inv: CommandInvocation<TestsRunOptions>): Promise<TestsRunResult> {
  const options = inv.options ?? {};
  const include = options.include;
  if (include !== undefined && (!Array.isArray(include) || include.some((g) => typeof g !== 'string' || g.trim() === ''))) {
    throw badInput('The option "include" must be an array of globs of workspace-relative paths or test ids, e.g. ["tests/**", "math.datagrok.json#big"].');
  }
  const junit = uriOption(options.junit, 'junit');
  // The workspace is read afresh: a script or CI step may have just written the files, and the file
  // watcher does not always report files written from outside the editor (seen in code-server).
  await t.deps.tree.reload();
  const all = t.deps.tree.all();
  const named = new Set((include ?? []).filter((g) => !hasGlob(g)).map((g) => g.trim()));
  const matches = (ref: CaseRef) => include === undefined || include.some((g) => ref.names.some((name) => named.has(name) || minimatch(name, g.trim(), { dot: true })));
  const chosen = all.filter(matches);
  if (include !== undefined && chosen.length === 0) {
    throw badInput(
      `No test matches ${include.map((g) => JSON.stringify(g)).join(', ')}. Tests: ${all.map((r) => r.id).join(', ') || 'none in this workspace (a test is a *.datagrok.json file with "$expect")'}.`,
    );
  }
  const runWritingCases = vscode.workspace.getConfiguration('datagrok.tests').get<boolean>('runWritingCases', false);
  const selection: Selection = { run: [], skipped: [] };
  for (const ref of chosen) {
    if (ref.testCase.writes && !runWritingCases && !ref.names.some((name) => named.has(name))) selection.skipped.push({ ref, reason: WRITES_SKIPPED });
    else selection.run.push(ref);
  }
  const request = new vscode.TestRunRequest(include === undefined ? undefined : chosen.map((r) => r.item));
  const results = await inv.withProgress(`Running ${selection.run.length} Datagrok function test(s)`, async (_progress, signal) => {
    const source = tokenOf(signal);
    try {
      return await t.runner.run(request, selection, source.token);
    } finally {
      source.dispose();
    }
  });
  const count = (o: CaseResult['outcome']) => results.filter((r) => r.outcome === o).length;
  const result: TestsRunResult = {
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    errored: count('errored'),
    cases: results.map(({ id, name, outcome, message }) => (message === undefined ? { id, name, outcome } : { id, name, outcome, message })),
  };
  if (junit) await vscode.workspace.fs.writeFile(junit, new TextEncoder().encode(junitXml('Datagrok functions', results)));
  if (inv.interactive) {
    const summary = `Datagrok tests: ${result.passed} passed, ${result.failed} failed, ${result.errored} errored, ${result.skipped} skipped.`;
    void vscode.window.showInformationMessage(summary, 'Show Test Results').then((c) => (c ? vscode.commands.executeCommand('workbench.view.testing.focus') : undefined));
  }
  return result;
}

/** What Accept Actual takes: `{ id }`, a Test Explorer item, or a failure message's menu's `{ test, message }`. */
type AcceptArg = { id?: string; test?: vscode.TestItem };

const isTestItem = (value: unknown): value is vscode.TestItem => !!value && typeof value === 'object' && 'children' in value && 'id' in value;

/** The cases an Accept Actual is for (an item's cases: all under it). */
function casesFor(t: Testing, inv: CommandInvocation<AcceptArg>): CaseRef[] {
  const { tree } = t.deps;
  // The test results' message menu passes a plain `{ test, message }`, which reads as options.
  const item = isTestItem(inv.options?.test) ? inv.options.test : inv.options ? undefined : inv.arg;
  if (inv.options && !item) {
    const id = inv.options.id;
    if (typeof id !== 'string' || id.trim() === '') throw badInput('Accept Actual takes { id }: a test id (a workspace-relative path, plus #<case> for a file of cases).');
    const refs = tree.all().filter((r) => r.names.includes(id.trim()));
    if (refs.length === 0) throw badInput(`No test "${id}" in this workspace.`);
    return refs;
  }
  if (!isTestItem(item)) throw badInput('Accept Actual works on a test in the Test Explorer, or with { id }.');
  return tree.casesUnder(item);
}

/** Writes the answer of each failed or new case into its "$expect" (runs those that have no answer yet). */
export async function acceptActual(t: Testing, inv: CommandInvocation<AcceptArg>): Promise<{ files: vscode.Uri[]; cases: string[] }> {
  await t.deps.tree.ready();
  const refs = casesFor(t, inv);
  const unanswered = refs.filter((r) => !t.runner.actuals.has(r.id) && !r.testCase.problem);
  if (unanswered.length > 0) {
    await inv.withProgress(`Running ${unanswered.length} case(s) to record their answers`, async (_progress, signal) => {
      const source = tokenOf(signal);
      try {
        await t.runner.run(new vscode.TestRunRequest(unanswered.map((r) => r.item)), { run: unanswered, skipped: [] }, source.token);
      } finally {
        source.dispose();
      }
    });
  }
  const writes: (ExpectWrite & { id: string })[] = [];
  for (const ref of refs) {
    const actual = t.runner.actuals.get(ref.id);
    if (!actual) continue;
    const c = ref.testCase;
    if (c.hasExpect && judge(c.expect, actual.outcome, { tolerance: c.tolerance, outputs: actual.call.outputs }).pass) continue;
    writes.push({ id: ref.id, uri: ref.uri, index: c.inArray ? c.index : undefined, value: recordedExpectation(actual.outcome, actual.call.outputs) });
  }
  if (writes.length === 0) {
    if (inv.interactive) void vscode.window.showInformationMessage('Nothing to accept: every case here passed (or could not run).');
    return { files: [], cases: [] };
  }
  const files = await writeExpectations(writes, 'Accept actual output as "$expect"');
  for (const file of files) await t.deps.tree.refresh(file);
  if ((inv.interactive || inv.options?.test) && files.length > 0) announceAccepted(writes.length, files);
  return { files, cases: writes.map((w) => w.id) };
}

/** Says what Accept Actual changed, and where to undo it (the file's editor: one Undo reverts it). */
function announceAccepted(cases: number, files: readonly vscode.Uri[]): void {
  const names = files.map((f) => path.posix.basename(f.path)).join(', ');
  const what = `Accepted the actual answer of ${cases} case${cases === 1 ? '' : 's'} as "$expect" in ${names}.`;
  void vscode.window.showInformationMessage(`${what} Undo in the file's editor reverts it.`, 'Open File').then((choice) => {
    if (choice) return vscode.window.showTextDocument(files[0]);
  });
}

/** The parameter file of a Turn Into Test: a Uri, `{ uri }`, or a run of the Runs view that has one. */
function parameterFileOf(inv: CommandInvocation<{ uri?: vscode.Uri | string }>): vscode.Uri {
  const arg = inv.arg as { run?: { file?: unknown } } | undefined;
  if (!inv.options && arg && typeof arg.run?.file === 'string') return vscode.Uri.parse(arg.run.file, true);
  const uri = inv.options ? uriOption(inv.options.uri, 'uri') : inv.arg instanceof vscode.Uri ? inv.arg : vscode.window.activeTextEditor?.document.uri;
  if (!uri) throw badInput('Turn Into Test takes a parameter file: { uri }, or open one in the editor.');
  return uri;
}

/** Runs a parameter file once and writes its answer into the file as "$expect": the file becomes a test. */
export async function turnIntoTest(t: Testing, inv: CommandInvocation<{ uri?: vscode.Uri | string }>): Promise<{ uri: vscode.Uri; id: string; expect: unknown }> {
  const uri = parameterFileOf(inv);
  const what = `"${path.posix.basename(uri.path)}"`;
  const document = await vscode.workspace.openTextDocument(uri);
  const text = document.getText();
  if (parseTestFile(text).cases.length > 0) throw badInput(`${what} already holds "$expect": it is a test. Run it from the Test Explorer; Accept Actual records a new answer.`);
  const file = parseParameterFile(text, what);
  if (!file.functionName) throw badInput(`${what} does not name a function: add "$function": "Package:Name" first.`);
  if (vscode.workspace.isTrusted === false) throw badInput(`Refused to run ${what}: this workspace is not trusted.`);
  const functionName = file.functionName;
  const client = await t.deps.client();
  const call = await inv.withProgress(`Recording ${functionName} on ${hostOf(client.baseUrl)}`, (_progress, signal) =>
    callCase({ client, catalog: t.deps.catalog, log: t.deps.log }, functionName, file.params, uri, newTestRunId(), signal),
  );
  const expect = recordedExpectation(call.outcome, call.outputs);
  await writeExpectations([{ uri, value: expect }], `Turn ${what} into a test`);
  await t.deps.tree.refresh(uri);
  const id = vscode.workspace.asRelativePath(uri, false);
  t.deps.log.info(`Turned ${uri.toString(true)} into a test of ${functionName}`);
  return { uri, id, expect };
}

// Running function tests: the cases a request selects (a case that writes data only when run on its own,
// or when datagrok.tests.runWritingCases says so), a few at a time (datagrok.tests.concurrency), each
// reported to a TestRun with its duration and, when it failed, a diff of expected and actual. Cancel
// stops the calls under way and skips what had not started.
import * as vscode from 'vscode';
import type { DatagrokApi } from '../api/datagrokApi';
import { hostOf } from '../api/names';
import type { Catalog } from '../platform/functions/catalog';
import type { CaseResult } from '../platform/tests/junit';
import { type CallOutcome, judge } from '../platform/tests/expect';
import { type CaseCall, callCase, isCancel, newTestRunId } from './caseCall';
import type { CaseRef, TestTree } from './testTree';

export interface RunnerDeps {
  readonly tree: TestTree;
  readonly controller: vscode.TestController;
  readonly catalog: Catalog;
  readonly log: vscode.LogOutputChannel;
  client(): Promise<DatagrokApi>;
}

/** What the last run of each case answered: what "Accept Actual" writes. */
export interface Actual {
  outcome: CallOutcome;
  call: CaseCall;
}

export interface Selection {
  run: CaseRef[];
  skipped: { ref: CaseRef; reason: string }[];
}

export const WRITES_SKIPPED = 'skipped: this case writes data ("$writes": true); run it on its own, or set datagrok.tests.runWritingCases to run it with the others.';

function settings() {
  const config = vscode.workspace.getConfiguration('datagrok.tests');
  const concurrency = config.get<number>('concurrency', 4);
  return { concurrency: Number.isInteger(concurrency) && concurrency >= 1 ? Math.min(concurrency, 32) : 4, runWritingCases: config.get<boolean>('runWritingCases', false) };
}

/** The cases of a request: its items (all when none) without the excluded, write cases only when asked for by themselves. */
export function selectCases(tree: TestTree, request: { include?: readonly vscode.TestItem[]; exclude?: readonly vscode.TestItem[] }): Selection {
  const excluded = new Set((request.exclude ?? []).flatMap((i) => tree.casesUnder(i)).map((r) => r.id));
  const chosen = new Map<string, CaseRef>();
  for (const item of request.include ?? tree.roots()) for (const ref of tree.casesUnder(item)) if (!excluded.has(ref.id)) chosen.set(ref.id, ref);
  // Run on its own: the case's own item, or its file's (a file of cases), is what was asked for.
  const explicit = (ref: CaseRef) => (request.include ?? []).some((i) => i.id === ref.item.id || i.id === ref.item.parent?.id);
  const { runWritingCases } = settings();
  const selection: Selection = { run: [], skipped: [] };
  for (const ref of chosen.values()) {
    if (ref.testCase.writes && !runWritingCases && !explicit(ref)) selection.skipped.push({ ref, reason: WRITES_SKIPPED });
    else selection.run.push(ref);
  }
  return selection;
}

/** The context of a failure message that Accept Actual can fix (its menu in the test results: package.json). */
const ACCEPTABLE = 'datagrok.acceptable';

const line = (text: string) => `${text.replace(/\r?\n/g, '\r\n')}\r\n`;

/** What the last run reported of a case (the Test Explorer shows the same; tests read it here). */
export interface Reported {
  outcome: CaseResult['outcome'];
  message?: vscode.TestMessage;
  durationMs?: number;
  server: string;
}

export class TestRunner {
  readonly actuals = new Map<string, Actual>();
  readonly reported = new Map<string, Reported>();

  constructor(private readonly deps: RunnerDeps) {}

  /** Runs a selection into a new TestRun; resolves with every case's result when all are done or cancelled. */
  async run(request: vscode.TestRunRequest, selection: Selection, token: vscode.CancellationToken): Promise<CaseResult[]> {
    const { controller, log } = this.deps;
    let client: DatagrokApi | undefined;
    let clientError: string | undefined;
    try {
      if (vscode.workspace.isTrusted === false)
        throw new Error('This workspace is not trusted: trust it to run its function tests (their inputs are sent to the server, their "$csv" files uploaded).');
      client = await this.deps.client();
    } catch (error) {
      clientError = error instanceof Error ? error.message : String(error);
    }
    const host = client ? hostOf(client.baseUrl) : 'no server';
    const run = controller.createTestRun(request, `Datagrok functions on ${host}`, true);
    const results: CaseResult[] = [];
    const abort = new AbortController();
    const cancelled = token.onCancellationRequested(() => abort.abort());
    const { concurrency } = settings();
    const runId = newTestRunId();
    const tablesLeft: string[] = [];
    run.appendOutput(
      line(
        `Datagrok functions on ${client ? client.baseUrl : host}: ${selection.run.length} case(s), ${concurrency} at a time${selection.skipped.length ? `, ${selection.skipped.length} skipped` : ''}.`,
      ),
    );
    for (const { ref, reason } of selection.skipped) {
      run.skipped(ref.item);
      this.reported.set(ref.id, { outcome: 'skipped', server: host });
      run.appendOutput(line(`○ ${ref.id}: ${reason}`), undefined, ref.item);
      results.push({ id: ref.id, name: ref.testCase.name, outcome: 'skipped', message: reason });
    }
    for (const ref of selection.run) run.enqueued(ref.item);
    const queue = [...selection.run];
    const worker = async () => {
      for (let ref = queue.shift(); ref; ref = queue.shift()) {
        if (abort.signal.aborted) {
          run.skipped(ref.item);
          this.reported.set(ref.id, { outcome: 'skipped', server: host });
          results.push({ id: ref.id, name: ref.testCase.name, outcome: 'skipped', message: 'cancelled' });
          continue;
        }
        const result = await this.runCase(run, ref, client, clientError, runId, abort.signal, tablesLeft);
        const { testMessage: _, ...plain } = result;
        results.push(plain);
        this.reported.set(ref.id, { outcome: result.outcome, durationMs: result.durationMs, message: result.testMessage, server: host });
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, queue.length)) }, worker));
    } finally {
      cancelled.dispose();
      const counts = ['passed', 'failed', 'errored', 'skipped'].map((o) => `${results.filter((r) => r.outcome === o).length} ${o}`).join(', ');
      run.appendOutput(line(`${abort.signal.aborted ? 'Cancelled' : 'Done'} on ${host}: ${counts}.`));
      if (tablesLeft.length) run.appendOutput(line(`Tables pushed for "$csv" inputs, left on the server (the public API cannot delete tables): ${tablesLeft.join(', ')}.`));
      log.info(`Function tests on ${host}: ${counts}`);
      run.end();
    }
    const order = new Map([...selection.skipped.map((s) => s.ref), ...selection.run].map((r, i) => [r.id, i]));
    return results.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  }

  private async runCase(
    run: vscode.TestRun,
    ref: CaseRef,
    client: DatagrokApi | undefined,
    clientError: string | undefined,
    runId: string,
    signal: AbortSignal,
    tablesLeft: string[],
  ): Promise<CaseResult & { testMessage?: vscode.TestMessage }> {
    const { testCase: c, item } = ref;
    const base = { id: ref.id, name: c.name };
    run.started(item);
    const errored = (message: string, acceptable = false): CaseResult & { testMessage: vscode.TestMessage } => {
      const testMessage = new vscode.TestMessage(message);
      if (acceptable) testMessage.contextValue = ACCEPTABLE;
      run.errored(item, testMessage);
      run.appendOutput(line(`! ${ref.id}: ${message}`), undefined, item);
      return { ...base, outcome: 'errored', message, testMessage };
    };
    if (c.problem) return errored(c.problem);
    if (!c.hasExpect) return errored('The case has no "$expect" yet: use Accept Actual to record its answer, or write what it must answer.', true);
    if (!client || !c.functionName) return errored(clientError ?? 'Not signed in.');
    let call: CaseCall;
    try {
      call = await callCase({ client, catalog: this.deps.catalog, log: this.deps.log }, c.functionName, c.params, ref.uri, runId, signal);
    } catch (error) {
      if (isCancel(error, signal)) {
        run.skipped(item);
        run.appendOutput(line(`○ ${ref.id}: cancelled`), undefined, item);
        return { ...base, outcome: 'skipped', message: 'cancelled' };
      }
      return errored(error instanceof Error ? error.message : String(error));
    }
    tablesLeft.push(...call.tables);
    this.actuals.set(ref.id, { outcome: call.outcome, call });
    const verdict = judge(c.expect, call.outcome, { tolerance: c.tolerance, outputs: call.outputs });
    const ms = call.durationMs;
    if (verdict.pass) {
      run.passed(item, ms);
      run.appendOutput(line(`✓ ${ref.id} (${ms} ms)`), undefined, item);
      return { ...base, outcome: 'passed', durationMs: ms };
    }
    const message = vscode.TestMessage.diff(`${c.functionName}: ${verdict.message}`, verdict.expected, verdict.actual);
    message.location = new vscode.Location(ref.uri, item.range ?? new vscode.Range(0, 0, 0, 0));
    message.contextValue = ACCEPTABLE;
    run.failed(item, message, ms);
    run.appendOutput(line(`✗ ${ref.id} (${ms} ms): ${verdict.message}`), undefined, item);
    return {
      ...base,
      outcome: 'failed',
      message: `${verdict.message}. Expected: ${oneLine(verdict.expected)}; actual: ${oneLine(verdict.actual)}`,
      durationMs: ms,
      testMessage: message,
    };
  }
}

function oneLine(json: string): string {
  const text = json.replace(/\s*\n\s*/g, ' ');
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

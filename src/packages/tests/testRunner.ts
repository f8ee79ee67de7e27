// Runs package tests through `grok test` and puts the results in the Test Explorer as they come: each
// invocation's output goes to the run's output and through the stream reader (started, passed, failed
// with the message, skipped); when it ends, test-report.csv fills in what the stream lacked (durations,
// whole failures) and a failure's stack, mapped through the package's source maps, puts a message at the
// line where it failed. Cancel stops the CLI's process group; the tests left are marked skipped.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { bundlesInStack, failureLocation } from '../../platform/packages/tests/failureLocation';
import { type DebugBrowser, debugBrowser } from './debugBrowser';
import { GROK_ALIAS, findGrok, grokEnvironment, INSTALL_GROK, privateGrokHome, startGrok } from './grokProcess';
import { grokTestArgs, testsReached } from '../../platform/packages/tests/grokTest';
import { failureMessage, type Outcome, parseReport } from '../../platform/packages/tests/report';
import { plainText, splitterFor, type StreamEvent, TestStream } from '../../platform/packages/tests/stream';
import { packageCategories, packageItems, type RunUnit, testKey } from './runPlan';
import type { PackageTestTree } from './testTree';

export interface CaseResult {
  id: string;
  outcome: Outcome;
  ms: number;
  message?: string;
}

/** What a run told the Test Explorer about a test item (for the integration tests). */
export interface Reported {
  outcome: Outcome | 'started';
  ms?: number;
  messages: { text: string; uri?: string; line?: number }[];
}

export interface RunnerDeps {
  tree: PackageTestTree;
  controller: vscode.TestController;
  log: vscode.LogOutputChannel;
  /** The signed-in server's API URL and key, or a reason why there is none. */
  credentials(): Promise<{ url: string; key: string }>;
  /** Attaches VS Code's JavaScript debugger; the function returned detaches it. */
  attach(config: DebugBrowser['attach']): Promise<() => void>;
}

export interface RunOptions {
  nodeOnly: boolean;
  debug?: boolean;
  /** false: run what the server has; true: build and publish first; undefined: publish unless this editor just did. */
  publish?: boolean;
}

/** Settles a test in the run and in the results; a located failure's message shows at its line. */
type Record = (category: string, test: string, outcome: Outcome, ms: number | undefined, message?: string, located?: { location: vscode.Location; text: string }) => void;

const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');

export class PackageTestRunner {
  /** Packages `grok test` published from here, per server, and when. */
  private readonly published = new Map<string, { url: string; at: number }>();
  readonly reported = new Map<string, Reported>();
  runCount = 0;

  constructor(private readonly deps: RunnerDeps) {}

  async run(request: vscode.TestRunRequest, units: RunUnit[], options: RunOptions, token: vscode.CancellationToken): Promise<CaseResult[]> {
    this.runCount++;
    const run = this.deps.controller.createTestRun(request, options.nodeOnly ? 'Datagrok packages: Node pass' : 'Datagrok packages', true);
    const results = new Map<string, CaseResult>();
    try {
      const credentials = await this.deps.credentials().catch((e: Error) => e);
      for (const unit of units) {
        if (token.isCancellationRequested) break;
        await this.runUnit(run, unit, options, credentials, token, results, new Set((request.exclude ?? []).map((i) => i.id)));
      }
    } finally {
      run.end();
    }
    return [...results.values()];
  }

  private async runUnit(
    run: vscode.TestRun,
    unit: RunUnit,
    options: RunOptions,
    credentials: { url: string; key: string } | Error,
    token: vscode.CancellationToken,
    results: Map<string, CaseResult>,
    excluded: Set<string>,
  ): Promise<void> {
    const { tree } = this.deps;
    const categories = packageCategories(tree, unit.packageDir);
    const { tests: items, categories: categoryItems } = packageItems(tree, tree.packageItem(unit.packageDir));
    const settled = new Set<string>();
    const record: Record = (category, test, outcome, ms, message, located) => {
      const key = testKey(category, test);
      let item = items.get(key);
      const categoryItem = categoryItems.get(category);
      if (!item && categoryItem?.uri) {
        // A name only the run knows (a test made in a loop over computed values): it joins its category.
        item = tree.testItem(unit.packageDir, categoryItem.uri.fsPath, category, test, categoryItem.range);
        categoryItem.children.add(item);
        items.set(key, item);
      }
      if (item && excluded.has(item.id)) return;
      settled.add(key);
      results.set(`${category}/${test}`, { id: `${category}/${test}`, outcome, ms: ms ?? 0, ...(message ? { message } : {}) });
      if (!item) return;
      const messages = message ? [Object.assign(new vscode.TestMessage(located?.text ?? message), located ? { location: located.location } : {})] : [];
      const before = outcome === 'failed' ? (this.reported.get(item.id)?.messages ?? []) : [];
      this.reported.set(item.id, {
        outcome,
        ms,
        messages: [...before, ...messages.map((m) => ({ text: String(m.message), uri: m.location?.uri.fsPath, line: m.location?.range.start.line }))],
      });
      if (outcome === 'passed') run.passed(item, ms);
      else if (outcome === 'skipped') run.skipped(item);
      else if (outcome === 'failed') run.failed(item, messages, ms);
      else run.errored(item, messages, ms);
    };

    const reached = testsReached(categories, { ...unit, nodeOnly: options.nodeOnly });
    for (const t of reached) {
      const item = items.get(testKey(t.category, t.test));
      if (item && !excluded.has(item.id)) {
        run.enqueued(item);
        this.reported.delete(item.id);
      }
    }
    // Browser-only tests asked for in the Node profile do not run there: shown as skipped.
    if (options.nodeOnly) {
      const all = testsReached(categories, { ...unit, nodeOnly: false });
      for (const t of all.filter((a) => !reached.some((r) => r.category === a.category && r.test === a.test))) record(t.category, t.test, 'skipped', 0);
      if (reached.length === 0) return;
    }
    const fail = (message: string) => {
      run.appendOutput(crlf(`${message}\n`));
      for (const t of reached) if (!settled.has(testKey(t.category, t.test))) record(t.category, t.test, 'errored', 0, message);
    };
    if (credentials instanceof Error) return fail(credentials.message);
    const grok = findGrok(unit.packageDir);
    if (!grok) return fail(INSTALL_GROK);

    const home = await privateGrokHome(credentials.url, credentials.key);
    const csv = path.join(home.home, 'test-report.csv');
    const last = this.published.get(unit.packageDir);
    const entry = tree.packages.get(unit.packageDir);
    const fresh = last !== undefined && last.url === credentials.url && (entry?.changedAt ?? 0) < last.at;
    const skipPublish = options.publish === false || (options.publish === undefined && fresh);
    const args = grokTestArgs({ host: GROK_ALIAS, category: unit.category, test: unit.test, nodeOnly: options.nodeOnly, skipPublish, debug: options.debug, csv });
    run.appendOutput(crlf(`> ${path.basename(grok)} ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}   (in ${unit.packageDir}, on ${credentials.url})\n`));
    this.deps.log.info(`Package tests: grok ${args.join(' ')} in ${unit.packageDir}`);
    const startedAt = Date.now();
    let tail = '';
    const stream = new TestStream((e) => this.onEvent(e, run, items, record, unit, credentials.url, startedAt), splitterFor(categories.map((c) => c.name)));
    let detach = () => {};
    try {
      const env = grokEnvironment(home.home);
      const debug = options.debug ? await debugBrowser(grok, unit.packageDir, home.home, env).catch((e: Error) => e) : undefined;
      if (debug instanceof Error) return fail(debug.message);
      if (debug) Object.assign(env, debug.env);
      const proc = startGrok(grok, args, unit.packageDir, env, (text) => {
        run.appendOutput(crlf(text));
        tail = (tail + text).slice(-2000);
        stream.write(text);
      });
      // The debugger keeps trying to attach until the browser opens its port (or the attach times out).
      if (debug) detach = await this.deps.attach(debug.attach);
      const cancel = token.onCancellationRequested(() => proc.kill());
      let code: number | null;
      try {
        code = await proc.done;
      } catch (e) {
        return fail(`Could not start ${grok}: ${(e as Error).message}`);
      } finally {
        cancel.dispose();
      }
      stream.finish();
      if (existsSync(csv)) this.fillFromReport(readFileSync(csv, 'utf8'), unit.packageDir, settled, record);
      const left = reached.filter((t) => !settled.has(testKey(t.category, t.test)));
      if (token.isCancellationRequested) for (const t of left) record(t.category, t.test, 'skipped', 0);
      else if (left.length > 0) {
        const lastLines = plainText(tail)
          .split(/\r?\n|\r/)
          .filter((l) => l.trim())
          .slice(-3)
          .join('\n');
        fail(`grok test ended (exit code ${code}) without a result for this test. Its last output:\n${lastLines}`);
      }
    } finally {
      detach();
      await home.dispose().catch(() => undefined);
    }
  }

  private onEvent(e: StreamEvent, run: vscode.TestRun, items: Map<string, vscode.TestItem>, record: Record, unit: RunUnit, url: string, startedAt: number): void {
    if (e.kind === 'published') this.published.set(unit.packageDir, { url, at: startedAt });
    else if (e.kind === 'started') {
      const item = items.get(testKey(e.category, e.test));
      if (item) {
        run.started(item);
        this.reported.set(item.id, { outcome: 'started', messages: [] });
      }
    } else if (e.kind === 'passed') record(e.category, e.test, 'passed', e.ms);
    else if (e.kind === 'skipped') record(e.category, e.test, 'skipped', 0, e.reason);
    else if (e.kind === 'failed') record(e.category, e.test, 'failed', e.ms, e.message ?? 'failed (the message is in the output)');
    else if (e.kind === 'categoryFailed' && e.message) run.appendOutput(crlf(`\n${e.category}: ${e.phase}() failed: ${e.message}\n`));
  }

  /** The report's rows: results the stream missed, and each failure's whole text at its source line. */
  private fillFromReport(text: string, packageDir: string, settled: Set<string>, record: Record): void {
    for (const row of parseReport(text)) {
      const key = testKey(row.category, row.name);
      if (row.outcome === 'failed') {
        const location = this.locate(row.result, packageDir);
        // At the line it failed: the whole result (the error and its stack); the command returns the error.
        if (!settled.has(key) || location) record(row.category, row.name, 'failed', row.ms, failureMessage(row.result), location ? { location, text: row.result } : undefined);
      } else if (!settled.has(key)) record(row.category, row.name, row.outcome, row.ms);
    }
  }

  private locate(stack: string, packageDir: string): vscode.Location | undefined {
    const maps = new Map<string, string>();
    for (const bundle of bundlesInStack(stack)) {
      const file = path.join(packageDir, `${bundle}.map`);
      if (existsSync(file)) maps.set(bundle, readFileSync(file, 'utf8'));
    }
    const where = failureLocation(stack, maps);
    return where ? new vscode.Location(vscode.Uri.file(path.join(packageDir, where.file)), new vscode.Position(where.line, where.character)) : undefined;
  }
}

// The `grok test` command line for a run (datagrok-tools 6.7.5 bin/commands/test.js): what to run
// (`--category` matches categories by prefix, case-insensitively; `--test` a test's whole name), against
// which server alias (`--host`), the Node pass alone (`--node-only`), skipping the build and the upload
// when the server already has this code (`--skip-build --skip-publish`), the browser with the debugger's
// pauses (`--gui --debug`), and the report file (`--csv=<path>`). Pure.
import type { DiscoveredCategory, DiscoveredTest } from './discovery';

export interface GrokTestRun {
  host: string;
  category?: string;
  test?: string;
  nodeOnly?: boolean;
  /** The package on the server is this code already: no build, no upload. */
  skipPublish?: boolean;
  /** A visible browser that stops at `debugger` statements (the Node pass does not run then). */
  debug?: boolean;
  csv: string;
}

export function grokTestArgs(run: GrokTestRun): string[] {
  const args = ['test', `--host=${run.host}`];
  if (run.category !== undefined) args.push(`--category=${run.category}`);
  if (run.test !== undefined) args.push(`--test=${run.test}`);
  if (run.nodeOnly) args.push('--node-only');
  if (run.skipPublish) args.push('--skip-build', '--skip-publish');
  if (run.debug) args.push('--gui', '--debug');
  args.push(`--csv=${run.csv}`);
  return args;
}

/** Whether a test runs in the Node pass: its own `node` option, else its category's. */
export function runsInNode(test: DiscoveredTest, category: DiscoveredCategory): boolean {
  return test.options.node ?? category.options.node ?? false;
}

/** What a `--category` filter runs: every category whose name starts with it (case-insensitive). */
export function categoriesMatching<T extends { name: string }>(filter: string, categories: readonly T[]): T[] {
  const f = filter.toLowerCase().trim();
  return categories.filter((c) => c.name.toLowerCase().startsWith(f));
}

/**
 * The tests a run of `category`/`test` reaches in the chosen profile: the Node profile only those that
 * run in Node; the browser profile (the full `grok test`) all of them, the Node ones in its Node pass.
 */
export function testsReached(categories: readonly DiscoveredCategory[], run: { category?: string; test?: string; nodeOnly?: boolean }): { category: string; test: string }[] {
  const chosen = run.category === undefined ? categories : categoriesMatching(run.category, categories);
  const reached: { category: string; test: string }[] = [];
  for (const c of chosen)
    for (const t of c.tests) {
      if (run.test !== undefined && t.name.toLowerCase() !== run.test.toLowerCase()) continue;
      if (run.nodeOnly && !runsInNode(t, c)) continue;
      reached.push({ category: c.name, test: t.name });
    }
  return reached;
}

// `datagrok.packages.test { folder: Uri, category?, test?, nodeOnly?, publish? }`: runs a package's tests
// (a category: every category whose name starts with it, as grok does; a test: by its whole name) through
// the Test Explorer, so the results show there too, and returns them: `{ passed, failed, skipped,
// errored, cases: [{ id: '<Category>/<Test>', outcome, ms, message? }] }`. `publish: false` runs what the
// server has (--skip-build --skip-publish); by default grok builds and publishes first unless this editor
// published the package since its files last changed. From the palette it asks which package.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { badInput } from '../../api/errors';
import { type CommandInvocation, UserCancelled } from '../../core/commands';
import { optionalText, uriOption } from '../../core/options';
import { testsReached } from '../../platform/packages/tests/grokTest';
import { isPackageFolder } from '../../platform/packages/recognition';
import { packageCategories, type RunUnit } from './runPlan';
import type { CaseResult, PackageTestRunner } from './testRunner';
import type { PackageTestTree } from './testTree';

export interface PackageTestsOptions {
  folder?: unknown;
  category?: unknown;
  test?: unknown;
  nodeOnly?: unknown;
  publish?: unknown;
}

export interface PackageTestsResult {
  passed: number;
  failed: number;
  skipped: number;
  errored: number;
  cases: CaseResult[];
}

interface Deps {
  tree: PackageTestTree;
  runner: PackageTestRunner;
  roots(): vscode.TestItem[];
}

const WHAT_A_PACKAGE_IS = 'a Datagrok package is a folder with a package.json that depends on datagrok-api, and src/package.ts (or package.js)';

function flag(value: unknown, name: string): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  throw badInput(`The option "${name}" must be true or false.`);
}

export async function testCommand(deps: Deps, inv: CommandInvocation<PackageTestsOptions>): Promise<PackageTestsResult> {
  const options = inv.options ?? {};
  const folder = inv.options ? optionFolder(options.folder) : await pickedFolder(deps, inv.arg);
  const category = optionalText(options.category, 'category');
  const test = optionalText(options.test, 'test');
  const nodeOnly = flag(options.nodeOnly, 'nodeOnly') ?? false;
  const publish = flag(options.publish, 'publish');
  await deps.tree.include(folder);
  const categories = packageCategories(deps.tree, folder);
  const reachable = testsReached(categories, { category, test, nodeOnly });
  const dynamic = categories.some((c) => c.tests.some((t) => t.dynamic));
  if (reachable.length === 0 && !dynamic) {
    const what = [category && `category "${category}"`, test && `test "${test}"`].filter(Boolean).join(', ') || 'the package';
    throw badInput(
      `No ${nodeOnly ? '{node: true} ' : ''}test of ${path.basename(folder)} matches ${what}. Its categories: ${categories.map((c) => `"${c.name}"`).join(', ') || 'none (no category() under src/)'}.`,
    );
  }
  const unit: RunUnit = { packageDir: folder, category, test };
  const item = deps.tree.packageItem(folder);
  const request = new vscode.TestRunRequest(item ? [item] : undefined);
  const cases = await inv.withProgress(`Running the tests of ${path.basename(folder)}${nodeOnly ? ' (Node pass)' : ''}`, async (_progress, signal) => {
    const source = new vscode.CancellationTokenSource();
    if (signal.aborted) source.cancel();
    else signal.addEventListener('abort', () => source.cancel(), { once: true });
    try {
      return await deps.runner.run(request, [unit], { nodeOnly, publish }, source.token);
    } finally {
      source.dispose();
    }
  });
  const count = (o: CaseResult['outcome']) => cases.filter((c) => c.outcome === o).length;
  const result = { passed: count('passed'), failed: count('failed'), skipped: count('skipped'), errored: count('errored'), cases };
  if (inv.interactive) {
    const summary = `${path.basename(folder)}: ${result.passed} passed, ${result.failed} failed, ${result.errored} errored, ${result.skipped} skipped.`;
    void vscode.window.showInformationMessage(summary, 'Show Test Results').then((c) => (c ? vscode.commands.executeCommand('workbench.view.testing.focus') : undefined));
  }
  return result;
}

function optionFolder(value: unknown): string {
  const uri = uriOption(value, 'folder');
  if (!uri) throw badInput(`Give the package to test as \`folder\` (the Uri of its folder): ${WHAT_A_PACKAGE_IS}.`);
  if (uri.scheme !== 'file') throw badInput(`The package must be on disk (a file: Uri), not ${uri.scheme}:.`);
  if (!isPackageFolder(uri.fsPath)) throw badInput(`${uri.fsPath} is not a Datagrok package: ${WHAT_A_PACKAGE_IS}.`);
  return uri.fsPath;
}

async function pickedFolder(deps: Deps, arg: unknown): Promise<string> {
  if (arg instanceof vscode.Uri && arg.scheme === 'file' && isPackageFolder(arg.fsPath)) return arg.fsPath;
  await deps.tree.ready();
  const packages = [...deps.tree.packages.values()].filter((p) => p.files.size > 0);
  if (packages.length === 0) throw badInput(`No Datagrok package with tests in this workspace (${WHAT_A_PACKAGE_IS}; tests are category() and test() calls under src/).`);
  if (packages.length === 1) return packages[0].dir;
  const pick = await vscode.window.showQuickPick(
    packages.map((p) => ({ label: p.name, description: vscode.workspace.asRelativePath(p.dir), dir: p.dir })),
    { placeHolder: 'Run the tests of which package?' },
  );
  if (!pick) throw new UserCancelled();
  return pick.dir;
}

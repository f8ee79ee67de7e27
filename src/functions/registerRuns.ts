// The Runs view and the result documents: runs remembered per server in the global state (larger
// inputs and results in the extension's global storage), the `datagrok-result:` file system, and the
// `datagrok.runs.*` commands.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Services } from '../services';
import type { ExplorerNode, ExplorerTree } from '../ui/explorerTree';
import { DEFAULT_RUN_LIMITS, FolderBlobStore, type RunLimits, RunsStore } from '../platform/runs/store';
import { RESULT_SCHEME, ResultFileSystem } from './resultDocuments';
import { runResultView } from './resultParts';
import type { FinishedRun, RunServices } from './runCommand';
import * as commands from './runsCommands';
import { createRunsTree, RUNS_VIEW, scriptOfRun } from './runsView';

/** `datagrok.runs.maxRemembered` (per server; 0 keeps none). */
export function runLimits(): RunLimits {
  const max = vscode.workspace.getConfiguration('datagrok.runs').get<number>('maxRemembered', DEFAULT_RUN_LIMITS.maxRuns);
  return { ...DEFAULT_RUN_LIMITS, maxRuns: Number.isFinite(max) ? Math.min(1000, Math.max(0, Math.floor(max))) : DEFAULT_RUN_LIMITS.maxRuns };
}

/** The runs store over the extension's global state and storage (also what a fresh reader sees). */
export function openRunsStore(context: vscode.ExtensionContext): RunsStore {
  return new RunsStore(context.globalState, new FolderBlobStore(path.join(context.globalStorageUri.fsPath, 'runs')), runLimits);
}

export function registerRuns(services: Services): { runs: RunServices; tree: ExplorerTree } {
  const { context, connection, log } = services;
  const store = openRunsStore(context);
  const results = new ResultFileSystem();
  const runs: RunServices = {
    results,
    onDidRun: async (run: FinishedRun) => {
      await store.add({
        id: run.id,
        server: connection.baseUrl(),
        functionName: run.functionName,
        file: run.fileUri && run.fileUri.scheme !== 'untitled' ? run.fileUri.toString() : undefined,
        startedAt: run.startedAt,
        durationMs: run.durationMs,
        outcome: run.outcome,
        summary: run.summary,
        inputs: run.inputs,
        result: run.result,
        script: services.platform.scriptRuns.get(run.functionName),
      });
    },
  };
  // A restored result editor after a reload: its run's result, read from the store.
  results.load = async (runId) => {
    const run = store.get(runId);
    if (!run) return undefined;
    const got = await store.result(run);
    return 'value' in got ? (await runResultView(services.platform.catalog, run.functionName, await scriptOfRun(store, run), got.value)).parts : undefined;
  };
  const tree = createRunsTree(store, connection, log);
  const view = services.contributions.treeView<ExplorerNode>(RUNS_VIEW, { treeDataProvider: tree });
  const describe = () => {
    const count = (() => {
      try {
        return store.list(connection.baseUrl()).length;
      } catch {
        return 0;
      }
    })();
    view.description = count > 0 ? `${count}` : undefined;
  };
  describe();
  // Relative times ("5 min ago") stay true while the view is open.
  const timer = setInterval(() => {
    if (view.visible) tree.refresh();
  }, 60_000);
  const c: commands.RunsContext = { services, store, runs };
  const layer = services.commands;
  context.subscriptions.push(
    store,
    results,
    tree,
    view,
    { dispose: () => clearInterval(timer) },
    services.contributions.fileSystem(RESULT_SCHEME, results, { isReadonly: true, isCaseSensitive: true }),
    store.onDidChange(() => {
      tree.refresh();
      describe();
    }),
    connection.onDidChange(() => {
      tree.refresh();
      describe();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('datagrok.runs.maxRemembered')) void store.trim();
    }),
    layer.register('datagrok.runs.runAgain', (inv) => commands.runAgain(c, inv)),
    layer.register('datagrok.runs.openResult', (inv) => commands.openResult(c, inv)),
    layer.register('datagrok.runs.openParameterFile', (inv) => commands.openParameterFile(c, inv)),
    layer.register('datagrok.runs.saveResultAs', (inv) => commands.saveRunResultAs(c, inv)),
    layer.register('datagrok.runs.pushResult', (inv) => commands.pushRunResult(c, inv)),
    layer.register('datagrok.runs.saveAsParameterFile', (inv) => commands.saveAsParameterFile(c, inv)),
    layer.register('datagrok.runs.copyAsCurl', (inv) => commands.copyAsCurl(c, inv)),
    layer.register('datagrok.runs.copyAsPython', (inv) => commands.copyAsPython(c, inv)),
    layer.register('datagrok.runs.remove', (inv) => commands.removeRun(c, inv)),
    layer.register('datagrok.runs.clear', (inv) => commands.clearRuns(c, inv)),
  );
  return { runs, tree };
}

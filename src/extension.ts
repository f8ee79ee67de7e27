// The extension's entry (dist/extension.js), kept small: activation loads this only. It makes what must
// exist from the start (the log, the connection and its status bar, the MCP server definition provider)
// and registers every other contribution with a stand-in that loads the features (dist/features.js,
// src/features.ts) on first use (src/start/lazyFeatures.ts). No network during activation.
import type * as vscode from 'vscode';
import { Connection } from './connection/connection';
import { ConnectionStatusBar } from './connection/statusBar';
import { createLog } from './core/log';
import type { FunctionsTree } from './functions/functionsTree';
import type { GroupsTreeProvider } from './groups/groupsTree';
import type { FilesDragAndDrop } from './files/filesDragAndDrop';
import type { FilesTree } from './files/filesTree';
import type { Group } from './api/types';
import type { RememberedEntity } from './platform/recent';
import type { SyncStatusView } from './sync/scm';
import type { ExplorerTree } from './ui/explorerTree';
import type { AgentsApi } from './agents/register';
import type { BundlesApi } from './bundles/register';
import type { PackageTests } from './packages/tests/register';
import type { FunctionTests } from './testing/register';
import type { DataViewsApi } from './dataView/provider';
import type { NotebookTablesApi } from './notebook/tableOutputs';
import type { PackagesTree } from './packages/packagesTree';
import { registerMcpProvider } from './agents/mcpProvider';
import type { RunsStore, StoredRun } from './platform/runs/store';
import { LazyFeatures } from './start/lazyFeatures';
import type { Boot, CodeCacheUse } from './start/codeCache';
import { featuresCodeCache, requireFeatures, useBundleLoader } from './start/loadFeatures';
import { registerTerminalEnvironment, type TerminalEnvironment } from './terminals/terminalEnvironment';
import { watchForParameterFiles } from './start/parameterFileWatch';

/**
 * What `activate` returns: read-only views for the integration tests (the tree's data, the status bar).
 * Reading a feature's part loads the features if nothing has yet.
 */
export interface DatagrokExtensionApi {
  readonly groupsTree: GroupsTreeProvider;
  /** The Functions view's data provider. */
  readonly functionsTree: FunctionsTree;
  /** The Runs view's data provider. */
  readonly runsTree: ExplorerTree;
  readonly statusBar: vscode.StatusBarItem;
  /** The Files view's data (its `tree` is the TreeDataProvider). */
  readonly filesTree: FilesTree;
  /** The Files view's drag and drop. */
  readonly filesDragAndDrop: FilesDragAndDrop;
  /** The Tables view's data. */
  readonly tablesTree: ExplorerTree;
  /** The Dashboards view's data. */
  readonly dashboardsTree: ExplorerTree;
  /** The folder sync's badges and Source Control entries (tests read its decorations). */
  readonly syncView: SyncStatusView;
  /** The tables or dashboards remembered for a server, read afresh from the global state (what a reload or another workspace sees). */
  remembered(kind: 'tables' | 'dashboards', server: string): RememberedEntity[];
  /** The user remembered for a server (what the status bar shows after a reload), read from the global state. */
  knownUser(server: string): Group | undefined;
  /** The function runs remembered for a server, read by a fresh store from the global state and storage (what a restart sees). */
  rememberedRuns(server: string): { runs: StoredRun[]; store: RunsStore };
  /** The Datagrok variables of new terminals and the .env files they keep in line (src/terminals/). */
  readonly terminals: TerminalEnvironment;
  /** The Test Explorer's function tests: the controller, its run profile, the tree, the last answers. */
  readonly functionTests: FunctionTests;
  /** The Test Explorer's package tests: the controller, its tree, the Run and Node pass profiles. */
  readonly packageTests: PackageTests;
  /** The open data views and their message protocol (what the extension sends each webview). */
  readonly dataViews: DataViewsApi;
  /** The notebooks' table outputs and the table renderer's message protocol. */
  readonly notebookTables: NotebookTablesApi;
  /** The Packages view's data (the workspace's packages, their functions, the server's versions). */
  readonly packagesTree: PackagesTree;
  /** The language-model tools (what the tools registered with vscode.lm call) and the MCP server definition provider. */
  readonly agents: AgentsApi;
  /** The bundles feature: what the Datagrok Source Control view lists; the bundle folders the Explorer's menu knows. */
  readonly bundles: BundlesApi;
  /**
   * The light start: whether the features are loaded, what they registered without a stand-in, and the
   * parts activation registered, each in a turn of its own, with the time each took.
   */
  readonly lightStart: {
    readonly featuresLoaded: boolean;
    readonly unplanned: readonly string[];
    readonly parts: readonly { name: string; ms: number }[];
    /** What became of V8's code cache of the entry (dist/boot.js loads it) and of the features; the folder it is in. */
    readonly codeCache: { readonly entry: CodeCacheUse; readonly features: CodeCacheUse; readonly dir: string };
  };
}

/** Called by dist/boot.js, which loaded this bundle (through V8's code cache) and hands over its loader. */
export async function activate(context: vscode.ExtensionContext, boot?: Boot): Promise<DatagrokExtensionApi> {
  // At once: the connection and its status bar. The rest is registered in parts, each in a turn of the
  // extension host's event loop (LazyFeatures.register); VS Code waits for them before it counts the
  // extension active.
  useBundleLoader(boot?.loadBundle);
  const log = createLog();
  const connection = new Connection(context, log, () => requireFeatures().keyCheck);
  const statusBar = new ConnectionStatusBar(connection);
  context.subscriptions.push(log, connection, statusBar);
  // The terminals' variables follow the connection from the start (only after the user's opt-in).
  const terminals = registerTerminalEnvironment(context, connection, log, () => requireFeatures().privateFiles);
  const lazy = new LazyFeatures({ context, log, connection, terminals });
  await lazy.register();
  const mcp = registerMcpProvider(context, connection, () => requireFeatures().mcpEnvironment);
  context.subscriptions.push(
    watchForParameterFiles(
      () => lazy.loaded,
      () => lazy.features(),
    ),
  );

  // Reads SecretStorage only: no network during activation.
  void connection.refresh();
  const features = () => lazy.features();
  // Each view's data is a getter: reading it (tests only) loads the features, activation does not.
  const views = lazyGetters(features, [
    'groupsTree',
    'functionsTree',
    'runsTree',
    'filesTree',
    'filesDragAndDrop',
    'tablesTree',
    'dashboardsTree',
    'syncView',
    'functionTests',
    'packageTests',
    'dataViews',
    'notebookTables',
    'packagesTree',
  ]);
  return Object.assign(views, {
    statusBar: statusBar.item,
    remembered: (kind: 'tables' | 'dashboards', server: string) => features().remembered(kind, server),
    knownUser: (server: string) => features().knownUser(server),
    rememberedRuns: (server: string) => features().rememberedRuns(server),
    agents: Object.assign(lazyGetters(features, ['tools']), { mcp }),
    terminals,
    bundles: { scmResources: () => features().bundles.scmResources(), folders: () => features().bundles.folders() },
    lightStart: {
      get featuresLoaded() {
        return lazy.loaded;
      },
      unplanned: lazy.unplanned,
      parts: lazy.parts,
      codeCache: {
        entry: boot?.entryCache ?? 'off',
        dir: boot?.cacheDir ?? '',
        get features() {
          return featuresCodeCache;
        },
      },
    },
  });
}

/**
 * An object whose `keys` are getters reading them from `load()` when read. Never spread it (a spread
 * reads every getter); Object.assign onto it keeps them.
 */
function lazyGetters<T, K extends keyof T>(load: () => T, keys: readonly K[]): { readonly [P in K]: T[P] } {
  const target = {} as { readonly [P in K]: T[P] };
  for (const key of keys) Object.defineProperty(target, key, { get: () => load()[key], enumerable: true });
  return target;
}

export function deactivate(): void {}

// The features (dist/features.js): loaded on first use by the stand-ins the entry registered at activation
// (src/extension.ts, src/start/): a command's first run, a view's first children, a provider's first call on
// a parameter file, the first access to a datagrok: or datagrok-result: file, a tool's first call. Builds the
// shared services and lets each feature register itself, through the stand-ins (Services.contributions).
import type * as vscode from 'vscode';
import type { Connection } from './connection/connection';
import { registerConnection } from './connection/register';
import { notSignedIn } from './connection/signInFailure';
import { CommandLayer } from './core/commands';
import type { Contributions } from './core/contributions';
import type { Services } from './services';
import type { FunctionsTree } from './functions/functionsTree';
import type { GroupsTreeProvider } from './groups/groupsTree';
import type { FilesDragAndDrop } from './files/filesDragAndDrop';
import type { FilesTree } from './files/filesTree';
import type { Group } from './api/types';
import { KnownUsers } from './platform/knownUsers';
import { type RememberedEntity, RecentEntities } from './platform/recent';
import type { ExplorerTree } from './ui/explorerTree';
import type { OperationTool } from './agents/lmTools';
import { registerAgents } from './agents/register';
import { type BundlesApi, registerBundles } from './bundles/register';
import { registerDashboards } from './dashboards/register';
import { registerFiles } from './files/register';
import { registerFunctions } from './functions/register';
import { openRunsStore } from './functions/registerRuns';
import type { RunsStore, StoredRun } from './platform/runs/store';
import { registerGroups } from './groups/register';
import { Platform } from './platform';
import { registerTables } from './tables/register';
import { registerSync } from './sync/register';
import type { SyncStatusView } from './sync/scm';
import { registerPackages } from './packages/register';
import type { PackagesTree } from './packages/packagesTree';
import type { PackageTests } from './packages/tests/register';
import { registerPackageDebug } from './packageDebug/register';
import { registerScripts } from './scripts/register';
import { registerTerminals } from './terminals/register';
import type { TerminalEnvironment } from './terminals/terminalEnvironment';
import { type FunctionTests, registerTesting } from './testing/register';
import type { DataViewsApi } from './dataView/provider';
import { registerDataView } from './dataView/register';
import { registerNotebook } from './notebook/register';
import type { NotebookTablesApi } from './notebook/tableOutputs';

/** What the entry made at activation and hands to the features. */
/** Files holding the key, written readable by the user alone: the entry's terminal environment loads them from here. */
export * as privateFiles from './core/privateFile';
/** The key check of a sign-in: the entry's connection loads it from here on the first sign-in. */
export * as keyCheck from './connection/keyCheck';
/** What the MCP server starts with: the entry's MCP provider loads it from here when a server starts. */
export * as mcpEnvironment from './agents/mcpEnvironment';

export interface Shell {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly connection: Connection;
  readonly contributions: Contributions;
  /** The terminals' Datagrok variables, kept from activation (src/terminals/terminalEnvironment.ts). */
  readonly terminals?: TerminalEnvironment;
}

/** The features once loaded: what the extension's test API reads (src/extension.ts). */
export interface Features {
  readonly groupsTree: GroupsTreeProvider;
  readonly functionsTree: FunctionsTree;
  readonly runsTree: ExplorerTree;
  readonly filesTree: FilesTree;
  readonly filesDragAndDrop: FilesDragAndDrop;
  readonly tablesTree: ExplorerTree;
  readonly dashboardsTree: ExplorerTree;
  readonly tools: ReadonlyMap<string, OperationTool>;
  readonly syncView: SyncStatusView;
  /** The bundles feature: the Source Control view's resources. */
  readonly bundles: BundlesApi;
  /** The open data views (custom editors), and their message protocol. */
  readonly dataViews: DataViewsApi;
  /** The notebooks' table outputs (their files), and the renderer's message protocol. */
  readonly notebookTables: NotebookTablesApi;
  remembered(kind: 'tables' | 'dashboards', server: string): RememberedEntity[];
  knownUser(server: string): Group | undefined;
  rememberedRuns(server: string): { runs: StoredRun[]; store: RunsStore };
  readonly functionTests: FunctionTests;
  /** The Packages view's data. */
  readonly packagesTree: PackagesTree;
  /** The Test Explorer's package tests (controller, tree, profiles). */
  readonly packageTests: PackageTests;
}

export function startFeatures(shell: Shell): Features {
  const { context, log, connection, contributions } = shell;
  const platform = new Platform(connection, context.workspaceState, context.globalState);
  // Another server, key or sign-in: what the catalog knew may not hold (same server, other user).
  context.subscriptions.push(
    platform,
    connection.onDidChange(() => platform.catalog.reload()),
  );
  const gate = { signedIn: () => connection.hasActiveKey(), host: () => connection.activeHost(), notSignedIn: () => notSignedIn(connection.baseUrl()) };
  const commands = new CommandLayer(log, 'datagrok.signIn', gate, (id, callback) => contributions.command(id, callback));
  const services: Services = { context, log, connection, commands, platform, contributions };

  registerConnection(services);
  const groupsTree = registerGroups(services);
  const tablesTree = registerTables(services);
  const dashboardsTree = registerDashboards(services);
  const { functionsTree, runsTree } = registerFunctions(services);
  const { filesTree, filesDragAndDrop } = registerFiles(services);
  const tools = registerAgents(services);
  const syncView = registerSync(services);
  registerScripts(services);
  const { packagesTree, packageTests } = registerPackages(services);
  registerPackageDebug(services);
  registerTerminals(services, shell.terminals);
  const bundles = registerBundles(services);
  const functionTests = registerTesting(services);
  const dataViews = registerDataView(services);
  const notebookTables = registerNotebook(services);

  return {
    groupsTree,
    functionsTree,
    runsTree,
    filesTree,
    filesDragAndDrop,
    tablesTree,
    dashboardsTree,
    tools,
    syncView,
    bundles,
    functionTests,
    packageTests,
    dataViews,
    notebookTables,
    packagesTree,
    remembered: (kind, server) => new RecentEntities(context.globalState, kind).list(server),
    knownUser: (server) => new KnownUsers(context.globalState).get(server),
    rememberedRuns: (server) => {
      const store = openRunsStore(context);
      return { runs: store.list(server), store };
    },
  };
}

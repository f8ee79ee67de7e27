// Composition root: builds the shared services and lets each feature register itself.
import type * as vscode from 'vscode';
import { Connection } from './connection/connection';
import { registerConnection } from './connection/register';
import { CommandLayer } from './core/commands';
import { createLog } from './core/log';
import type { Services } from './services';
import type { FunctionsTree } from './functions/functionsTree';
import type { GroupsTreeProvider } from './groups/groupsTree';
import type { FilesDragAndDrop } from './files/filesDragAndDrop';
import type { FilesTree } from './files/filesTree';
import type { Group } from './api/types';
import { KnownUsers } from './platform/knownUsers';
import { type RememberedEntity, RecentEntities } from './platform/recent';
import type { ExplorerTree } from './ui/explorerTree';
import { type AgentsApi, registerAgents } from './agents/register';
import { registerDashboards } from './dashboards/register';
import { registerFiles } from './files/register';
import { registerFunctions } from './functions/register';
import { openRunsStore } from './functions/registerRuns';
import type { RunsStore, StoredRun } from './platform/runs';
import { registerGroups } from './groups/register';
import { Platform } from './platform';
import { registerTables } from './tables/register';

/** What `activate` returns: read-only views for the integration tests (the tree's data, the status bar). */
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
  /** The tables or dashboards remembered for a server, read afresh from the global state (what a reload or another workspace sees). */
  remembered(kind: 'tables' | 'dashboards', server: string): RememberedEntity[];
  /** The user remembered for a server (what the status bar shows after a reload), read from the global state. */
  knownUser(server: string): Group | undefined;
  /** The function runs remembered for a server, read by a fresh store from the global state and storage (what a restart sees). */
  rememberedRuns(server: string): { runs: StoredRun[]; store: RunsStore };
  /** The language-model tools (the objects registered with vscode.lm) and the MCP server definition provider. */
  readonly agents: AgentsApi;
}

export function activate(context: vscode.ExtensionContext): DatagrokExtensionApi {
  const log = createLog();
  const connection = new Connection(context, log);
  const platform = new Platform(connection, context.workspaceState, context.globalState);
  // Another server, key or sign-in: what the catalog knew may not hold (same server, other user).
  context.subscriptions.push(log, connection, platform, connection.onDidChange(() => platform.catalog.reload()));
  const commands = new CommandLayer(log, 'datagrok.signIn', { signedIn: () => connection.hasActiveKey(), host: () => connection.activeHost() });
  const services: Services = { context, log, connection, commands, platform };

  const { statusBar } = registerConnection(services);
  const groupsTree = registerGroups(services);
  const tablesTree = registerTables(services);
  const dashboardsTree = registerDashboards(services);
  const { functionsTree, runsTree } = registerFunctions(services);
  const { filesTree, filesDragAndDrop } = registerFiles(services);
  const agents = registerAgents(services);

  // Reads SecretStorage only: no network during activation.
  void connection.refresh();
  const remembered = (kind: 'tables' | 'dashboards', server: string) => new RecentEntities(context.globalState, kind).list(server);
  const knownUser = (server: string) => new KnownUsers(context.globalState).get(server);
  const rememberedRuns = (server: string) => {
    const store = openRunsStore(context);
    return { runs: store.list(server), store };
  };
  return { groupsTree, functionsTree, runsTree, statusBar, tablesTree, dashboardsTree, remembered, knownUser, rememberedRuns, filesTree, filesDragAndDrop, agents };
}

export function deactivate(): void {}

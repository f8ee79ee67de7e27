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
import { type RememberedEntity, RecentEntities } from './platform/recent';
import type { ExplorerTree } from './ui/explorerTree';
import { type AgentsApi, registerAgents } from './agents/register';
import { registerDashboards } from './dashboards/register';
import { registerFiles } from './files/register';
import { registerFunctions } from './functions/register';
import { registerGroups } from './groups/register';
import { Platform } from './platform';
import { registerTables } from './tables/register';

/** What `activate` returns: read-only views for the integration tests (the tree's data, the status bar). */
export interface DatagrokExtensionApi {
  readonly groupsTree: GroupsTreeProvider;
  /** The Functions view's data provider. */
  readonly functionsTree: FunctionsTree;
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
  const functionsTree = registerFunctions(services);
  const { filesTree, filesDragAndDrop } = registerFiles(services);
  const agents = registerAgents(services);

  // Reads SecretStorage only: no network during activation.
  void connection.refresh();
  const remembered = (kind: 'tables' | 'dashboards', server: string) => new RecentEntities(context.globalState, kind).list(server);
  return { groupsTree, functionsTree, statusBar, tablesTree, dashboardsTree, remembered, filesTree, filesDragAndDrop, agents };
}

export function deactivate(): void {}

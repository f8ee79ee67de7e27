// Composition root: builds the shared services and lets each feature register itself.
import type * as vscode from 'vscode';
import { Connection } from './connection/connection';
import { registerConnection } from './connection/register';
import { CommandLayer } from './core/commands';
import { createLog } from './core/log';
import type { Services } from './services';
import type { GroupsTreeProvider } from './groups/groupsTree';
import type { FilesDragAndDrop } from './files/filesDragAndDrop';
import type { FilesTree } from './files/filesTree';
import { registerDashboards } from './dashboards/register';
import { registerFiles } from './files/register';
import { registerFunctions } from './functions/register';
import { registerGroups } from './groups/register';
import { Platform } from './platform';
import { registerTables } from './tables/register';

/** What `activate` returns: read-only views for the integration tests (the tree's data, the status bar). */
export interface DatagrokExtensionApi {
  readonly groupsTree: GroupsTreeProvider;
  readonly statusBar: vscode.StatusBarItem;
  /** The Files view's data (its `tree` is the TreeDataProvider). */
  readonly filesTree: FilesTree;
  /** The Files view's drag and drop. */
  readonly filesDragAndDrop: FilesDragAndDrop;
}

export function activate(context: vscode.ExtensionContext): DatagrokExtensionApi {
  const log = createLog();
  const connection = new Connection(context, log);
  const platform = new Platform(connection, context.workspaceState);
  context.subscriptions.push(log, connection, platform);
  const services: Services = { context, log, connection, commands: new CommandLayer(log), platform };

  const { statusBar } = registerConnection(services);
  const groupsTree = registerGroups(services);
  registerTables(services);
  registerDashboards(services);
  registerFunctions(services);
  const { filesTree, filesDragAndDrop } = registerFiles(services);

  // Reads SecretStorage only: no network during activation.
  void connection.refresh();
  return { groupsTree, statusBar, filesTree, filesDragAndDrop };
}

export function deactivate(): void {}

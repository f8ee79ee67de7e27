// The Files view's own commands: refresh, show more, new file, new folder, delete. From the view they
// take the item; called with options they name the file and ask nothing. Writes go through the
// `datagrok` file system, whose change events reload the folder in the view.
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import type { Services } from '../services';
import { activeServerUri } from './commands';
import type { ConnectorFileSystem } from './connectorFileSystem';
import { checkPath, displayPath } from './connectorPaths';
import { type FilesTree, isFolderItem, itemUri } from './filesTree';
import { askConnectorPath } from './prompts';
import { parseUri } from './uris';
import { ExplorerNode } from '../ui/explorerTree';

/** `{ connector, path }` of a file or folder on the active server. */
export interface FileOptions {
  connector: string;
  path: string;
}

export interface FilesView {
  readonly services: Services;
  readonly fs: ConnectorFileSystem;
  readonly files: FilesTree;
}

/** Reloads the view (the connection list asked again); from an error item's Retry, only that part. */
export async function refreshFiles(v: FilesView, inv: CommandInvocation<never>): Promise<void> {
  if (inv.arg instanceof ExplorerNode) {
    v.files.tree.retry(inv.arg);
  } else {
    v.services.platform.catalog.reload(); // fires the catalog's change: the view reloads
    v.files.tree.refresh();
  }
}

export async function showMoreFiles(v: FilesView, inv: CommandInvocation<never>): Promise<void> {
  if (inv.arg instanceof ExplorerNode) v.files.tree.showMore(inv.arg);
}

/** The URI of a new file or folder: from options, or a name asked for within the folder item (or a connector and path). */
async function newUri(v: FilesView, inv: CommandInvocation<FileOptions>, title: string, what: string): Promise<vscode.Uri> {
  if (inv.options) return activeServerUri(v.services, inv.options.connector, inv.options.path);
  if (!isFolderItem(inv.arg)) {
    const { connector, path: filePath } = await askConnectorPath(v.services, title);
    return activeServerUri(v.services, connector, filePath);
  }
  const folder = inv.arg.uri;
  const name = await vscode.window.showInputBox({
    title,
    prompt: `Name of the new ${what} in ${displayPath(parseUri(folder))}`,
    validateInput: (value) => {
      try {
        checkPath(value);
        return undefined;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
  });
  if (name === undefined) throw new UserCancelled();
  return vscode.Uri.joinPath(folder, checkPath(name));
}

/** Creates an empty file (refused when one is there); opens it when run from the view. Returns its Uri. */
export async function newFile(v: FilesView, inv: CommandInvocation<FileOptions>): Promise<vscode.Uri> {
  const uri = await newUri(v, inv, 'New Connector File', 'file');
  try {
    await v.fs.writeFile(uri, new Uint8Array(0), { create: true, overwrite: false });
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileExists') throw badInput(`${displayPath(parseUri(uri))} already exists.`);
    throw error;
  }
  if (inv.interactive) await vscode.commands.executeCommand('vscode.open', uri);
  return uri;
}

/** A new folder: connectors keep no empty folders, so it appears on the server with its first file. Returns its Uri. */
export async function newFolder(v: FilesView, inv: CommandInvocation<FileOptions>): Promise<vscode.Uri> {
  const uri = await newUri(v, inv, 'New Connector Folder', 'folder');
  await v.fs.createDirectory(uri);
  if (inv.interactive) {
    // Never awaited: the command has its result.
    void vscode.window.showInformationMessage(
      `Created the folder ${displayPath(parseUri(uri))}: connectors keep no empty folders, so add a file to it (New Connector File… on the folder) to keep it on the server.`,
    );
  }
  return uri;
}

/** Deletes a file: asks first (modal) from the view or palette; with options or a Uri, asks nothing. */
export async function deleteFile(v: FilesView, inv: CommandInvocation<FileOptions & { uri?: vscode.Uri }>): Promise<void> {
  let uri = itemUri(inv.arg);
  if (inv.options) {
    uri = inv.options.uri !== undefined ? itemUri(inv.options.uri) : await activeServerUri(v.services, inv.options.connector, inv.options.path);
    if (!uri) throw badInput('datagrok.files.delete needs { connector, path } or a datagrok: Uri.');
  } else if (!uri) {
    const title = 'Delete Connector File';
    const { connector, path: filePath } = await askConnectorPath(v.services, title);
    uri = await activeServerUri(v.services, connector, filePath);
  }
  if (inv.interactive) {
    const name = displayPath(parseUri(uri));
    const choice = await vscode.window.showWarningMessage(
      `Delete ${name} from ${uri.authority}?`,
      { modal: true, detail: 'The server keeps no copy: this cannot be undone.' },
      'Delete',
    );
    if (choice !== 'Delete') throw new UserCancelled();
  }
  await vscode.workspace.fs.delete(uri);
}

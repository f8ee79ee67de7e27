// The connector-file commands: open, mount, download, upload, copy path, bound to their ids in
// register.ts. Thin: the file system (connectorFileSystem.ts) and the API client do the work, the
// command layer shows failures.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { UserCancelled, uiArguments } from '../core/commands';
import { badInput } from '../api/errors';
import type { CommandInvocation } from '../core/commands';
import type { Services } from '../services';
import { fileUriOption } from '../core/options';
import { anySignal } from '../core/signals';
import type { ConnectorFileSystem } from './connectorFileSystem';
import { mountFolder } from './mount';
import { askConnectorPath, pickConnector } from './prompts';
import { clientForAuthority } from './servers';
import { connectorUri, parseUri, SCHEME } from './uris';
import { isFolderItem, itemUri } from './filesTree';
import { baseName, checkConnector, checkPath, displayPath, platformName } from './connectorPaths';

interface OpenOptions {
  connector: string;
  path: string;
}

interface MountOptions {
  connector: string;
  /** Open the connector in a new window instead of adding it to this one (which may reload it). */
  newWindow?: boolean;
}

interface DownloadOptions {
  connector: string;
  path: string;
  target: vscode.Uri;
  /** For scripts and tests: aborts the transfer like the notification's Cancel button. */
  signal?: AbortSignal;
}

interface UploadOptions {
  source: vscode.Uri;
  connector: string;
  path: string;
  /** For scripts and tests: aborts the transfer like the notification's Cancel button. */
  signal?: AbortSignal;
}

const DOWNLOAD_LABEL = 'Download to Disk…';

/** The URI of a connector file on the active server; rejects when not signed in or the names are wrong. */
export async function activeServerUri(services: Services, connector: unknown, filePath: unknown): Promise<vscode.Uri> {
  const rest = checkConnector(connector);
  const within = checkPath(filePath);
  await services.connection.client(); // "not signed in" said here, with its Sign In action
  return connectorUri(services.connection.baseUrl(), rest, within);
}

/** A datagrok: Uri given, or the Uri of the Files view's item. */
function connectorFileArg(arg: unknown): vscode.Uri | undefined {
  return itemUri(arg);
}

/** Offers the download a file too large for an editor; never awaited by the caller. */
export function offerDownload(uri: vscode.Uri, message: string): void {
  void vscode.window.showWarningMessage(message, DOWNLOAD_LABEL).then((choice) => {
    if (choice === DOWNLOAD_LABEL) void vscode.commands.executeCommand('datagrok.files.download', ...uiArguments(uri));
  });
}

export async function openConnectorFile(services: Services, fs: ConnectorFileSystem, inv: CommandInvocation<OpenOptions>): Promise<unknown> {
  let uri = connectorFileArg(inv.arg);
  if (!uri) {
    if (inv.options) {
      uri = await activeServerUri(services, inv.options.connector, inv.options.path);
    } else {
      const { connector, path: filePath } = await askConnectorPath(services, 'Open Connector File');
      uri = await activeServerUri(services, connector, filePath);
    }
  }
  // The download this does is the one the editor reads (one request per open).
  const tooLarge = await fs.tooLargeForEditor(uri);
  if (tooLarge) {
    if (!inv.interactive) throw badInput(tooLarge);
    const choice = await vscode.window.showWarningMessage(tooLarge, DOWNLOAD_LABEL);
    if (choice === DOWNLOAD_LABEL) await vscode.commands.executeCommand('datagrok.files.download', ...uiArguments(uri));
    return undefined;
  }
  await vscode.commands.executeCommand('vscode.open', uri);
  return uri;
}

export async function mountConnector(services: Services, fs: ConnectorFileSystem, inv: CommandInvocation<MountOptions>): Promise<unknown> {
  const fromView = isFolderItem(inv.arg) ? parseUri(inv.arg.uri).connector : undefined; // a connection of the Files view
  const connector = inv.options ? inv.options.connector : (fromView ?? (await pickConnector(services, 'Mount Connector as Folder')));
  const rest = checkConnector(connector);
  await services.connection.client();
  const uri = connectorUri(services.connection.baseUrl(), rest, '');
  try {
    await fs.readDirectory(uri); // an unknown connector is refused here (when the server can tell)
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') {
      throw badInput(`There is no connector ${platformName(rest)} on ${uri.authority} (or you cannot see it): ${error.message}`);
    }
    throw error;
  }
  return mountFolder(services.context.globalState, uri, `Datagrok: ${platformName(rest)}`, inv.interactive, inv.options?.newWindow === true);
}

export async function downloadConnectorFile(services: Services, inv: CommandInvocation<DownloadOptions>): Promise<unknown> {
  const o = inv.options;
  let source: vscode.Uri;
  let target: vscode.Uri;
  if (o) {
    source = await activeServerUri(services, o.connector, o.path);
    target = fileUriOption(o.target, 'target');
  } else {
    source = connectorFileArg(inv.arg) ?? (await askActiveFile(services, 'Download Connector File'));
    const dir = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath ?? os.homedir();
    const picked = await vscode.window.showSaveDialog({
      title: `Download ${displayPath(parseUri(source))}`,
      defaultUri: vscode.Uri.file(path.join(dir, baseName(parseUri(source).path))),
      saveLabel: 'Download',
    });
    if (!picked) throw new UserCancelled();
    target = fileUriOption(picked, 'target');
  }
  const file = parseUri(source);
  const { client } = await clientForAuthority(services.connection, file.authority, displayPath(file));
  const done = await inv.withProgress(`Downloading ${displayPath(file)}`, async (progress, signal) => {
    // Streamed to a temporary sibling, renamed into place when complete: no partial file on cancel.
    await client.downloadFile(file.connector, file.path, { file: target.fsPath }, { onProgress: progress.bytes, signal: anySignal(signal, o?.signal) });
    return target;
  });
  if (inv.interactive) {
    // Where it went, and the two things one does next (never awaited: the command has its result).
    void vscode.window.showInformationMessage(`Downloaded ${displayPath(file)} to ${done.fsPath}.`, 'Open', 'Reveal in Explorer').then((choice) => {
      if (choice === 'Open') return vscode.commands.executeCommand('vscode.open', done);
      if (choice === 'Reveal in Explorer') return vscode.commands.executeCommand('revealFileInOS', done);
      return undefined;
    });
  }
  return done;
}

export async function uploadToConnector(services: Services, fs: ConnectorFileSystem, inv: CommandInvocation<UploadOptions>): Promise<unknown> {
  const o = inv.options;
  let source: vscode.Uri;
  let destination: vscode.Uri;
  if (o) {
    source = fileUriOption(o.source, 'source');
    destination = await activeServerUri(services, o.connector, o.path);
  } else {
    const fromMenu = inv.arg instanceof vscode.Uri && inv.arg.scheme === 'file' ? inv.arg : undefined;
    const folder = isFolderItem(inv.arg) ? inv.arg.uri : undefined; // Upload File Here… in the Files view
    const picked = fromMenu ? [fromMenu] : await vscode.window.showOpenDialog({ title: 'Upload File to Connector', canSelectMany: false, openLabel: 'Upload' });
    if (!picked?.[0]) throw new UserCancelled();
    source = fileUriOption(picked[0], 'source');
    if (folder) {
      destination = vscode.Uri.joinPath(folder, path.basename(source.fsPath));
    } else {
      const { connector, path: filePath } = await askConnectorPath(services, 'Upload File to Connector', path.basename(source.fsPath));
      destination = await activeServerUri(services, connector, filePath);
    }
  }
  const file = parseUri(destination);
  const { client } = await clientForAuthority(services.connection, file.authority, displayPath(file));
  await inv.withProgress(`Uploading ${path.basename(source.fsPath)} to ${displayPath(file)}`, (progress, signal) =>
    client.uploadFile(file.connector, file.path, { file: source.fsPath }, { onProgress: progress.bytes, signal: anySignal(signal, o?.signal) }),
  );
  await fs.noteUploaded(destination);
  if (inv.interactive) void vscode.window.setStatusBarMessage(`Uploaded to ${displayPath(file)}`, 5000);
  return undefined;
}

export async function copyDatagrokPath(inv: CommandInvocation<{ uri: vscode.Uri }>): Promise<unknown> {
  const given = itemUri(inv.arg) ?? (inv.arg instanceof vscode.Uri ? inv.arg : inv.options?.uri);
  const uri = given ?? vscode.window.activeTextEditor?.document.uri;
  if (!(uri instanceof vscode.Uri) || uri.scheme !== SCHEME) {
    throw badInput('Copy Datagrok Path works on connector files (datagrok: URIs): open or select one first.');
  }
  const text = displayPath(parseUri(uri));
  await vscode.env.clipboard.writeText(text);
  if (inv.interactive) void vscode.window.setStatusBarMessage(`Copied ${text}`, 3000);
  return text;
}

async function askActiveFile(services: Services, title: string): Promise<vscode.Uri> {
  const { connector, path: filePath } = await askConnectorPath(services, title);
  return activeServerUri(services, connector, filePath);
}

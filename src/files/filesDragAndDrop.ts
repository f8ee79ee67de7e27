// Drag and drop on the Files view. Dropping local files (the Explorer's or the desktop's) on a folder
// or connection uploads them there through datagrok.files.upload, which streams each file from disk
// (never read into memory). Dragging server files out gives `text/uri-list` with their datagrok: URIs
// (what VS Code's editor area opens on a drop).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExplorerNode } from '../ui/explorerTree';
import { FileNode, FilesNode, FolderNode } from './filesTree';
import { parseUri } from './uris';

const URI_LIST = 'text/uri-list';

export interface DropResult {
  /** The datagrok: URIs written. */
  readonly uploaded: vscode.Uri[];
  /** What was not uploaded, and why. */
  readonly skipped: string[];
}

/** The `file:` URIs of a `text/uri-list` (RFC 2483: one per line, '#' lines are comments). */
export function localUris(uriList: string): vscode.Uri[] {
  const uris: vscode.Uri[] = [];
  for (const line of uriList.split(/\r?\n/)) {
    const text = line.trim();
    if (!text || text.startsWith('#')) continue;
    try {
      const uri = vscode.Uri.parse(text, true);
      if (uri.scheme === 'file') uris.push(uri);
    } catch {
      // not a URI: ignored like any other line a drop source may add
    }
  }
  return uris;
}

export class FilesDragAndDrop implements vscode.TreeDragAndDropController<ExplorerNode> {
  readonly dragMimeTypes = [URI_LIST];
  readonly dropMimeTypes = [URI_LIST, 'files'];

  constructor(private readonly log: vscode.LogOutputChannel) {}

  handleDrag(source: readonly ExplorerNode[], dataTransfer: vscode.DataTransfer): void {
    const files = source.filter((n): n is FileNode => n instanceof FileNode);
    if (files.length > 0) dataTransfer.set(URI_LIST, new vscode.DataTransferItem(files.map((f) => f.uri.toString()).join('\r\n')));
  }

  async handleDrop(target: ExplorerNode | undefined, dataTransfer: vscode.DataTransfer, token: vscode.CancellationToken): Promise<void> {
    await this.upload(target, dataTransfer, token);
  }

  /** Uploads the dropped local files into the folder dropped on (a file's folder when dropped on a file). */
  async upload(target: ExplorerNode | undefined, dataTransfer: vscode.DataTransfer, token?: vscode.CancellationToken): Promise<DropResult> {
    const result: DropResult = { uploaded: [], skipped: [] };
    const folder = target instanceof FolderNode ? target : target instanceof FilesNode && target.parent instanceof FolderNode ? target.parent : undefined;
    const sources = await droppedFiles(dataTransfer);
    if (sources.length === 0) return result;
    if (!folder) {
      void vscode.window.showInformationMessage('Drop files on a connection or a folder of the Files view to upload them there.');
      return result;
    }
    const { connector, path: folderPath } = parseUri(folder.uri);
    for (const source of sources) {
      if (token?.isCancellationRequested) break;
      const name = path.basename(source.fsPath);
      try {
        if ((await vscode.workspace.fs.stat(source)).type & vscode.FileType.Directory) {
          result.skipped.push(`${name}: a folder (drop the files in it)`);
          continue;
        }
        const filePath = folderPath ? `${folderPath}/${name}` : name;
        await vscode.commands.executeCommand('datagrok.files.upload', { source, connector, path: filePath });
        result.uploaded.push(vscode.Uri.joinPath(folder.uri, name));
      } catch (error) {
        // The upload command has shown the failure; the other files still go.
        result.skipped.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (result.uploaded.length > 0) {
      // The upload command called with options says nothing on success: the drop says what went where.
      const where = folderPath ? `${connector}/${folderPath}` : connector;
      const what = result.uploaded.length === 1 ? path.posix.basename(result.uploaded[0]!.path) : `${result.uploaded.length} files`;
      const first = result.uploaded[0]!;
      void vscode.window
        .showInformationMessage(`Uploaded ${what} to ${where}.`, 'Open')
        .then((choice) => (choice === 'Open' ? vscode.commands.executeCommand('vscode.open', first) : undefined));
    }
    if (result.skipped.length > 0) {
      this.log.warn(`Files view: not uploaded: ${result.skipped.join('; ')}`);
      const folders = result.skipped.filter((s) => s.endsWith('(drop the files in it)'));
      if (folders.length > 0) void vscode.window.showWarningMessage(`Folders are not uploaded: ${folders.map((s) => s.split(':')[0]).join(', ')}.`);
    }
    return result;
  }
}

/** The local files of a drop: its uri-list, else the dropped files that have a local Uri. */
async function droppedFiles(dataTransfer: vscode.DataTransfer): Promise<vscode.Uri[]> {
  const list = dataTransfer.get(URI_LIST);
  if (list) {
    const uris = localUris(await list.asString());
    if (uris.length > 0) return uris;
  }
  const files: vscode.Uri[] = [];
  dataTransfer.forEach((item) => {
    const uri = item.asFile()?.uri;
    if (uri?.scheme === 'file') files.push(uri);
  });
  return files;
}

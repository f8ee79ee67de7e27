// Which folder a sync command is about: the options' `folder`, the explorer's folder, or (asked) one of the
// linked folders of the workspace (those holding `.datagrok/sync.json`).
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { UserCancelled } from '../core/commands';
import { uriOption } from '../core/options';
import { readLink, STATE_DIR, type SyncLink } from '../platform/sync/store';

export interface LinkedFolder {
  uri: vscode.Uri;
  link: SyncLink;
}

/** Every linked folder under the workspace folders. */
export async function linkedFolders(): Promise<LinkedFolder[]> {
  const files = await vscode.workspace.findFiles(`**/${STATE_DIR}/sync.json`, '**/node_modules/**', 200);
  const out: LinkedFolder[] = [];
  for (const file of files) {
    if (file.scheme !== 'file') continue;
    const uri = vscode.Uri.joinPath(file, '..', '..');
    const link = await readLink(uri.fsPath).catch(() => undefined);
    if (link) out.push({ uri, link });
  }
  return out.sort((a, b) => a.uri.fsPath.localeCompare(b.uri.fsPath));
}

/** A folder option: a file: Uri of an existing folder on disk. */
export async function folderOption(value: unknown): Promise<vscode.Uri> {
  const uri = uriOption(value, 'folder');
  if (!uri) throw badInput('Give the folder to sync as `folder` (a Uri or a path).');
  if (uri.scheme !== 'file') throw badInput(`The folder must be on disk (a file: Uri), not ${uri.scheme}:.`);
  const stat = await vscode.workspace.fs.stat(uri).then(
    (s) => s,
    () => undefined,
  );
  if (!stat || (stat.type & vscode.FileType.Directory) === 0) throw badInput(`${uri.fsPath} is not a folder.`);
  return uri;
}

/** The linked folder a command is about; from the palette, asks which when there are several. */
export async function linkedFolderArg(arg: unknown, options: { folder?: unknown } | undefined): Promise<LinkedFolder> {
  let uri: vscode.Uri | undefined;
  if (options) uri = await folderOption(options.folder);
  else if (arg instanceof vscode.Uri) uri = arg;
  else if (arg && typeof arg === 'object' && (arg as { rootUri?: unknown }).rootUri instanceof vscode.Uri) uri = (arg as { rootUri: vscode.Uri }).rootUri;
  if (uri) {
    const link = await readLink(uri.fsPath);
    if (!link) throw badInput(`${uri.fsPath} is not linked to a connector folder. Link it first (Datagrok: Link Folder to Connector Folder).`);
    return { uri, link };
  }
  const all = await linkedFolders();
  if (all.length === 0) throw badInput('No folder of this workspace is linked to a connector folder. Link one first (Datagrok: Link Folder to Connector Folder).');
  if (all.length === 1) return all[0];
  const pick = await vscode.window.showQuickPick(
    all.map((f) => ({ label: vscode.workspace.asRelativePath(f.uri), description: `${f.link.connector}/${f.link.path}`, folder: f })),
    { title: 'Which linked folder?' },
  );
  if (!pick) throw new UserCancelled();
  return pick.folder;
}

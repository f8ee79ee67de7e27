// The user's files as the language-model tools read them: only inside the workspace folders (symlinks
// resolved before the check), paths relative to the first folder on disk (or to the parameter file for
// its "$csv" inputs), open editors with their unsaved edits, the active CSV editor when no path is given.
// A path outside the workspace is refused with the folders that are allowed, whatever the editor holds.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { activeCsvEditor, csvToPush, readUserText } from '../core/documents';
import { confine, outsideMessage } from '../platform/confinement';
import type { LocalCsv, LocalFiles, LocalText } from './operations';

function folders(): readonly vscode.WorkspaceFolder[] {
  return vscode.workspace.workspaceFolders ?? [];
}

function localRoots(): string[] {
  return folders()
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => f.uri.fsPath);
}

function allowedNames(): string[] {
  return folders().map((f) => (f.uri.scheme === 'file' ? f.uri.fsPath : f.uri.toString(true)));
}

/** A URI of another scheme (a connector folder mounted in the workspace): inside one of its folders. */
function confineUri(p: string, uri: vscode.Uri): vscode.Uri {
  const within = folders().some(
    (f) => f.uri.scheme === uri.scheme && f.uri.authority === uri.authority && (uri.path === f.uri.path || uri.path.startsWith(`${f.uri.path.replace(/\/$/, '')}/`)),
  );
  if (!within || uri.path.split('/').includes('..')) throw badInput(outsideMessage(p, allowedNames()));
  return uri;
}

async function resolve(p: string, base: string | undefined): Promise<vscode.Uri> {
  const baseUri = base ? vscode.Uri.parse(base, true) : undefined;
  if (/^[a-z][\w+.-]*:\/\//i.test(p)) {
    const uri = vscode.Uri.parse(p, true);
    return uri.scheme === 'file' ? vscode.Uri.file(await confine(uri.fsPath, localRoots())) : confineUri(p, uri);
  }
  if (baseUri && baseUri.scheme !== 'file' && !path.isAbsolute(p)) return confineUri(p, vscode.Uri.joinPath(baseUri, p));
  if (localRoots().length === 0) throw badInput(outsideMessage(p, allowedNames()));
  return vscode.Uri.file(await confine(p, localRoots(), baseUri?.fsPath));
}

/** The active CSV editor, when it is an untitled document or a file inside the workspace. */
async function activeCsv(): Promise<vscode.Uri | undefined> {
  const uri = activeCsvEditor();
  if (!uri || uri.scheme === 'untitled') return uri;
  return uri.scheme === 'file' ? vscode.Uri.file(await confine(uri.fsPath, localRoots())) : confineUri(uri.toString(true), uri);
}

export const workspaceFiles: LocalFiles = {
  get trusted() {
    return vscode.workspace.isTrusted;
  },

  async csv(p: string | undefined, base?: string): Promise<LocalCsv> {
    const csv = await csvToPush(p === undefined ? await activeCsv() : await resolve(p, base));
    return { source: csv.source, what: csv.what, defaultName: csv.defaultName };
  },

  async text(p: string): Promise<LocalText> {
    const uri = await resolve(p, undefined);
    const what = `"${path.posix.basename(uri.path)}"`;
    return { text: await readUserText(uri, what), what, dir: vscode.Uri.joinPath(uri, '..').toString() };
  },
};

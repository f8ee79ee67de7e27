// The user's files as the language-model tools read them: paths relative to the first workspace folder
// (or to the parameter file for its "$csv" inputs), open editors with their unsaved edits, the active
// CSV editor when no path is given.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { csvToPush, readUserText } from '../core/documents';
import { isAbsolutePath } from '../core/csvReferences';
import type { LocalCsv, LocalFiles, LocalText } from './operations';

function resolve(p: string, base: string | undefined): vscode.Uri {
  if (isAbsolutePath(p)) return vscode.Uri.file(p);
  if (/^[a-z][\w+.-]*:\/\//i.test(p)) return vscode.Uri.parse(p, true);
  const root = base ? vscode.Uri.parse(base, true) : vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!root) throw badInput(`The relative path "${p}" needs a workspace folder: open one, or give an absolute path.`);
  return vscode.Uri.joinPath(root, p);
}

export const workspaceFiles: LocalFiles = {
  get trusted() {
    return vscode.workspace.isTrusted;
  },

  async csv(p: string | undefined, base?: string): Promise<LocalCsv> {
    const csv = await csvToPush(p === undefined ? undefined : resolve(p, base));
    return { source: csv.source, what: csv.what, defaultName: csv.defaultName };
  },

  async text(p: string): Promise<LocalText> {
    const uri = resolve(p, undefined);
    const what = `"${path.posix.basename(uri.path)}"`;
    return { text: await readUserText(uri, what), what, dir: vscode.Uri.joinPath(uri, '..').toString() };
  },
};

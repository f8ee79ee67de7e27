// Script and query files: `*.py`, `*.R`, `*.js`, `*.jl`, `*.m`, `*.sql` (and untitled editors of those
// languages) whose first comment block is a Datagrok header. No language id of our own: the user's
// Python, R, JavaScript and SQL extensions keep theirs; the header is found by the file's name.
import * as vscode from 'vscode';
import { parseScriptHeader, type ScriptHeader } from '../platform/scripts/header';
import { scriptPrefix } from './scriptFileNames';

export { isNotebookCell, mayBeScript, SCRIPT_CELL_SELECTOR, SCRIPT_FILE_PATTERN, SCRIPT_FILE_SELECTOR, scriptPrefix } from './scriptFileNames';

/** The document's Datagrok header, or undefined when it is not a script or query with one. */
export function scriptHeaderOf(document: vscode.TextDocument): ScriptHeader | undefined {
  const prefix = scriptPrefix(document.languageId, document.uri.path);
  return prefix ? parseScriptHeader(document.getText(), prefix) : undefined;
}

/** The file name a script's messages use: its base name, or the untitled editor's. */
export function scriptFileName(document: vscode.TextDocument): string {
  return document.uri.path.slice(document.uri.path.lastIndexOf('/') + 1);
}

/** The script a parameter file's `$script` names: a URI string, or a path relative to the parameter file. */
export function resolveScriptUri(parameterFile: vscode.Uri | undefined, value: string): vscode.Uri {
  if (/^[a-z][\w+.-]*:/i.test(value) && !/^[a-z]:[\\/]/i.test(value)) return vscode.Uri.parse(value);
  if (value.startsWith('/')) return parameterFile ? parameterFile.with({ path: value }) : vscode.Uri.file(value);
  if (!parameterFile || parameterFile.scheme === 'untitled') {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!folder) throw new Error(`"${value}" is relative, and there is no folder it is relative to: open a workspace folder, or give the script's full path.`);
    return vscode.Uri.joinPath(folder, value);
  }
  return vscode.Uri.joinPath(parameterFile, '..', value);
}

/** A script's text: its open editor's (unsaved edits included), else the file's. */
export async function scriptText(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

/** The header of the script a URI names, or undefined when it cannot be read or has none. */
export async function readScriptHeader(uri: vscode.Uri): Promise<ScriptHeader | undefined> {
  const prefix = scriptPrefix('', uri.path) ?? scriptPrefix(vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.languageId ?? '', uri.path);
  if (!prefix) return undefined;
  try {
    return parseScriptHeader(await scriptText(uri), prefix);
  } catch {
    return undefined;
  }
}

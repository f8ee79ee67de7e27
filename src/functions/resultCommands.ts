// Save Result As… and Push as Table, for the read-only result documents (editor title buttons) and the
// runs in the Runs view (which give their result documents' URIs).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activeCustomEditorUri } from '../core/documents';
import { badInput } from '../api/errors';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { uriOption } from '../core/options';
import { tableNameProblem } from '../platform/tables/names';
import { RESULT_SCHEME } from './resultDocuments';

export interface SaveResultOptions {
  /** The result document (a `datagrok-result:` Uri); default: the active editor's. */
  uri?: vscode.Uri | string;
  /** Where to write it. Required when called with options. */
  target?: vscode.Uri | string;
  /** Replace an existing target file (otherwise refused). */
  overwrite?: boolean;
}

export interface PushResultOptions {
  /** The CSV result document; default: the active editor's. */
  uri?: vscode.Uri | string;
  /** The table name; default: `<Function name>_result`. */
  name?: string;
}

function activeResult(): vscode.Uri | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri ?? activeCustomEditorUri();
  return uri?.scheme === RESULT_SCHEME ? uri : undefined;
}

function resultOption(value: unknown): vscode.Uri {
  const uri = uriOption(value, 'uri') ?? activeResult();
  if (!uri) throw badInput('There is no function result to use: open a result (Runs view → Open Result) or pass { uri } of a result document.');
  if (uri.scheme !== RESULT_SCHEME) throw badInput(`${uri.toString(true)} is not a function result (a ${RESULT_SCHEME}: document).`);
  return uri;
}

/** `Demo:Filter — result 2.csv` → `Demo-Filter-result-2.csv` (a name every file system takes). */
export function savedFileName(uri: vscode.Uri): string {
  const base = path.posix.basename(uri.path);
  const ext = path.posix.extname(base) || '.json';
  const stem = base.slice(0, base.length - path.posix.extname(base).length);
  return `${stem.replace(/[^\p{L}\p{N}_.-]+/gu, '-').replace(/^-+|-+$/g, '')}${ext}`;
}

/** `Demo:Filter — result 2.csv` → `Filter_result_2`. */
export function defaultResultTableName(uri: vscode.Uri): string {
  const base = path.posix.basename(uri.path).replace(/\.csv$/i, '');
  const fn = base.split(' — ')[0] ?? base;
  const short = fn.includes(':') ? fn.slice(fn.lastIndexOf(':') + 1) : fn;
  const suffix = (base.split(' — ')[1] ?? 'result').replace(/\s+/g, '_');
  return `${short}_${suffix}`.replace(/[^\p{L}\p{N}_-]+/gu, '_');
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** datagrok.runs.saveResultAs on a result document: writes a copy, returns its Uri. */
export async function saveResultAs(source: vscode.Uri | undefined, inv: CommandInvocation<SaveResultOptions>): Promise<vscode.Uri> {
  const options = inv.options;
  const uri = source ?? resultOption(options?.uri);
  const bytes = await vscode.workspace.fs.readFile(uri);
  let target: vscode.Uri | undefined;
  if (options) {
    target = uriOption(options.target, 'target');
    if (!target) throw badInput('Pass { target } (a file Uri or path) to save the result to.');
    if (options.overwrite !== true && (await exists(target))) {
      throw badInput(`${target.toString(true)} already exists: pass { overwrite: true } to replace it. Nothing was written.`);
    }
  } else {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = savedFileName(uri);
    const csv = name.endsWith('.csv');
    target = await vscode.window.showSaveDialog({
      title: `Save ${path.posix.basename(uri.path)} As`,
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: csv ? { CSV: ['csv'], 'All files': ['*'] } : { JSON: ['json'], 'All files': ['*'] },
    });
    if (!target) throw new UserCancelled();
  }
  await vscode.workspace.fs.writeFile(target, bytes);
  if (inv.interactive) {
    const open = 'Open';
    void vscode.window.showInformationMessage(`Saved the result as ${path.posix.basename(target.path)}.`, open).then((c) => {
      if (c === open) void vscode.window.showTextDocument(target);
    });
  }
  return target;
}

/** datagrok.runs.pushResult on a CSV result document: `datagrok.tables.push` with it and a name. */
export async function pushResult(source: vscode.Uri | undefined, inv: CommandInvocation<PushResultOptions>): Promise<unknown> {
  const uri = source ?? resultOption(inv.options?.uri);
  if (!uri.path.toLowerCase().endsWith('.csv')) throw badInput(`${path.posix.basename(uri.path)} is not a dataframe: only CSV results can be pushed as tables.`);
  let name = inv.options?.name;
  if (name === undefined && inv.interactive) {
    name = await vscode.window.showInputBox({
      title: `Push ${path.posix.basename(uri.path)} as a table`,
      prompt: 'Table name: table, <project>.<table> or Project:table; an existing table of that name is replaced.',
      value: defaultResultTableName(uri),
      ignoreFocusOut: true,
      validateInput: (value) => tableNameProblem(value),
    });
    if (name === undefined) throw new UserCancelled();
  }
  return vscode.commands.executeCommand('datagrok.tables.push', { uri, name: (name ?? defaultResultTableName(uri)).trim() });
}

import * as path from 'node:path';
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import type { CsvSource } from '../platform/tables/push';
import { defaultTableName } from '../platform/tables/names';

/**
 * The text of a file as the user sees it: an open editor's text (unsaved edits included), else the
 * file's content. `what` names the file in messages, e.g. 'The layout file "x.json"'.
 */
export async function readUserText(uri: vscode.Uri, what = `The file "${path.posix.basename(uri.path)}"`): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) {
    return open.getText();
  }
  try {
    return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
  } catch (e) {
    throw badInput(`${what} cannot be read: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export interface CsvToPush {
  uri: vscode.Uri;
  source: CsvSource;
  /** For messages: the file's name in quotes. */
  what: string;
  defaultName: string;
}

/**
 * Where the CSV comes from. An open document that is unsaved, untitled or not on disk is pushed as its
 * editor text; a saved file is streamed from disk (any size) without being read into memory.
 */
export async function csvToPush(target: vscode.Uri | undefined): Promise<CsvToPush> {
  const uri = target ?? activeCsvEditor();
  if (!uri) {
    throw badInput('There is no CSV to push: open a CSV file in the editor (or pass { uri }).');
  }
  const fileName = path.posix.basename(uri.path) || uri.toString();
  const what = `"${fileName}"`;
  const defaultName = defaultTableName(fileName);
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (document && (document.isDirty || document.isUntitled || uri.scheme !== 'file')) {
    return { uri, source: { text: document.getText() }, what, defaultName };
  }
  if (uri.scheme === 'file') {
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.type & vscode.FileType.Directory) throw badInput(`${what} is a folder, not a CSV file.`);
    } catch (e) {
      if (e instanceof vscode.FileSystemError) throw badInput(`Cannot push ${what}: ${e.message}`);
      throw e;
    }
    return { uri, source: { file: uri.fsPath }, what, defaultName };
  }
  const bytes = await vscode.workspace.fs.readFile(uri);
  return { uri, source: { text: new TextDecoder('utf-8').decode(bytes) }, what, defaultName };
}

const CSV_FILE = /\.(csv|tsv|txt)$/i;

/** The resource of the active custom editor (the data view), when the active tab is one. */
export function activeCustomEditorUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputCustom ? input.uri : undefined;
}

/** The active editor's document when it holds CSV (by language or file name), or the data view's file; refuses any other. */
export function activeCsvEditor(): vscode.Uri | undefined {
  const document = vscode.window.activeTextEditor?.document;
  if (!document) return activeCustomEditorUri();
  if (document.languageId === 'csv' || document.languageId === 'tsv' || CSV_FILE.test(document.uri.path) || document.isUntitled) {
    return document.uri;
  }
  throw badInput(`The active editor ("${path.posix.basename(document.uri.path)}") is not a CSV file: open a CSV file (or pass { uri }).`);
}

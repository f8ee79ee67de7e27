// Completion inside the values of a parameter file: for a dataframe input the server's tables (searched
// as you type) and `{"$csv": …}` with the workspace's CSV files; inside `"$csv"` the CSV paths relative
// to the file; for a column input `<table>/<column>` from the table's columns (read once, cached: the
// tables of the file's other inputs first), or the tables to pick one from. Choices stay with the caller.
import * as path from 'node:path';
import type { Node } from 'jsonc-parser';
import * as vscode from 'vscode';
import type { FuncInfo, FuncParam, TableInfo } from '../api/types';
import { inputsOf } from '../platform/functions/signature';
import { propertiesOf, rootOf } from './parameterChecks';
import type { SignatureSource } from './parameterFileSignature';

/** At most this many CSV files are offered (the nearest first). */
const CSV_FILES = 50;

/** What the cursor is in: the input's value (a string node or nothing yet), or the `$csv` path of its object. */
export interface ValueSpot {
  input: FuncParam;
  func: FuncInfo;
  /** The string node under the cursor, if any. */
  node: Node | undefined;
  /** The range the completion replaces (the string with its quotes), if in a string. */
  range: vscode.Range | undefined;
  /** The string's text before the cursor. */
  typed: string;
  inCsvPath: boolean;
}

export async function valueCompletions(source: SignatureSource, document: vscode.TextDocument, spot: ValueSpot): Promise<vscode.CompletionList> {
  const type = spot.input.propertyType.toLowerCase();
  if (spot.inCsvPath) return new vscode.CompletionList((await csvFiles(document)).map((file) => pathItem(file, spot.range)));
  if (type === 'dataframe') {
    const tables = await searchTables(source, spot.typed);
    const csv = (await csvFiles(document)).map((file) => csvObjectItem(file, spot.range));
    // Incomplete: the next key searches the server again.
    return new vscode.CompletionList([...tables.map((t, i) => tableItem(t, i, spot.range)), ...csv], true);
  }
  if (type === 'column') return columnCompletions(source, document, spot);
  return new vscode.CompletionList([]);
}

async function columnCompletions(source: SignatureSource, document: vscode.TextDocument, spot: ValueSpot): Promise<vscode.CompletionList> {
  const slash = spot.typed.lastIndexOf('/');
  if (slash > 0) {
    const table = spot.typed.slice(0, slash);
    return new vscode.CompletionList((await columnsOf(source, table)).map((c, i) => columnItem(table, c, i, spot.range)));
  }
  // The tables the file's dataframe inputs name, with their columns; then the server's tables, to pick one.
  const named = tablesOfFile(document.getText(), spot.func);
  const items: vscode.CompletionItem[] = [];
  for (const table of named) items.push(...(await columnsOf(source, table)).map((c, i) => columnItem(table, c, i, spot.range)));
  const tables = await searchTables(source, spot.typed);
  items.push(...tables.map((t, i) => tableForColumnItem(t, i, spot.range)));
  return new vscode.CompletionList(items, true);
}

async function searchTables(source: SignatureSource, typed: string): Promise<TableInfo[]> {
  if (!source.connection.isSignedIn) return [];
  try {
    return await source.platform.catalog.listTables(typed.trim());
  } catch {
    return [];
  }
}

async function columnsOf(source: SignatureSource, table: string): Promise<string[]> {
  if (!source.connection.isSignedIn || table.trim() === '') return [];
  try {
    const answer = await source.platform.tableColumns.columnsOf(table);
    return answer === 'missing' ? [] : answer.columns;
  } catch {
    return [];
  }
}

/** The string values of the function's dataframe inputs in the text (`$csv` objects have no name yet). */
export function tablesOfFile(text: string, func: FuncInfo): string[] {
  const root = rootOf(text);
  if (!root) return [];
  const frames = new Set(
    inputsOf(func)
      .filter((p) => p.propertyType.toLowerCase() === 'dataframe')
      .map((p) => p.name),
  );
  return propertiesOf(root)
    .filter(({ key, value }) => frames.has(String(key.value)) && value?.type === 'string' && String(value.value).trim() !== '')
    .map(({ value }) => String(value!.value));
}

/** The table's name as parameter files and calls take it: the server's full name (`<owner>:<project>:<table>`). */
const tableName = (t: TableInfo) => t.nqName ?? t.id;

/** The name without the owner's part, quoted as typed (`"Sales:q1` finds `Admin:Sales:q1`). */
const shortName = (t: TableInfo) => JSON.stringify((t.nqName ?? t.name).split(':').slice(-2).join(':'));

function tableItem(t: TableInfo, index: number, range: vscode.Range | undefined): vscode.CompletionItem {
  const item = new vscode.CompletionItem({ label: tableName(t), description: t.id }, vscode.CompletionItemKind.Reference);
  item.detail = ['table', t.projectName ? `project ${t.projectName}` : undefined].filter(Boolean).join(' · ');
  item.insertText = JSON.stringify(tableName(t));
  // Typed as a name (with or without the owner's part) or as an ID, it matches.
  item.filterText = `${JSON.stringify(tableName(t))} ${shortName(t)} ${t.id} ${t.name}`;
  item.sortText = `1${String(index).padStart(4, '0')}`;
  if (range) item.range = range;
  return item;
}

function tableForColumnItem(t: TableInfo, index: number, range: vscode.Range | undefined): vscode.CompletionItem {
  const item = new vscode.CompletionItem({ label: `${tableName(t)}/`, description: t.id }, vscode.CompletionItemKind.Reference);
  item.detail = 'table: then pick a column';
  item.insertText = new vscode.SnippetString(`"${tableName(t).replace(/[$}\\]/g, (c) => `\\${c}`)}/$0"`);
  item.filterText = `${JSON.stringify(tableName(t))} ${shortName(t)} ${t.id}`;
  item.sortText = `2${String(index).padStart(4, '0')}`;
  item.command = { command: 'editor.action.triggerSuggest', title: 'Pick a column' };
  if (range) item.range = range;
  return item;
}

function columnItem(table: string, column: string, index: number, range: vscode.Range | undefined): vscode.CompletionItem {
  const value = `${table}/${column}`;
  const item = new vscode.CompletionItem({ label: value, description: 'column' }, vscode.CompletionItemKind.Field);
  item.detail = `a column of ${table}`;
  item.insertText = JSON.stringify(value);
  item.filterText = JSON.stringify(value);
  item.sortText = `0${String(index).padStart(4, '0')}`;
  if (range) item.range = range;
  return item;
}

/** The workspace's CSV files as paths relative to the parameter file, nearest first. */
async function csvFiles(document: vscode.TextDocument): Promise<string[]> {
  if (document.uri.scheme !== 'file') return [];
  const dir = path.dirname(document.uri.fsPath);
  const found = await vscode.workspace.findFiles('**/*.csv', '**/node_modules/**', 500);
  return found
    .filter((uri) => uri.scheme === 'file')
    .map((uri) => {
      const relative = path.relative(dir, uri.fsPath).split(path.sep).join('/');
      return relative.startsWith('.') ? relative : `./${relative}`;
    })
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b))
    .slice(0, CSV_FILES);
}

function pathItem(file: string, range: vscode.Range | undefined): vscode.CompletionItem {
  const item = new vscode.CompletionItem(file, vscode.CompletionItemKind.File);
  item.detail = 'pushed as a table before the call';
  item.insertText = JSON.stringify(file);
  item.filterText = JSON.stringify(file);
  if (range) item.range = range;
  return item;
}

function csvObjectItem(file: string, range: vscode.Range | undefined): vscode.CompletionItem {
  const item = new vscode.CompletionItem({ label: `{"$csv": "${file}"}`, description: 'local CSV' }, vscode.CompletionItemKind.File);
  item.detail = 'pushed as a table before the call; the input receives its ID';
  item.insertText = `{ "$csv": ${JSON.stringify(file)} }`;
  item.filterText = `"${file} {"$csv": "${file}"}`;
  item.sortText = `3${file}`;
  if (range) item.range = range;
  return item;
}

// What the language features of a notebook's cells know about one cell: its notebook and place, the
// functions its call cells name (from the catalog, cached there), the variables the cells above make
// (with the shapes of what ran) and the cells below that make others.
import * as vscode from 'vscode';
import type { FuncInfo } from '../api/types';
import { lookUpFunction, type SignatureSource } from '../platform/functions/lookups';
import { outputsOf } from '../platform/functions/signature';
import { cellKind } from '../platform/notebook/cells';
import { NOTEBOOK_TYPE } from '../platform/notebook/format';
import { type CellText, cellCall, declaredOutputs, type KnownVariable, variablesAt } from '../platform/notebook/notebookFlow';
import type { NotebookSessions } from './session';

export interface NotebookFacts {
  notebook: vscode.NotebookDocument;
  cells: CellText[];
  /** The functions the call cells name, by lower-case name: the signature, or `missing` (the server has none). */
  functions: Map<string, { func?: FuncInfo; missing?: boolean }>;
  /** The variables known at a cell. */
  at(index: number): { above: Map<string, KnownVariable>; below: Map<string, number> };
}

export interface CellFactsSource extends SignatureSource {
  readonly sessions: NotebookSessions;
}

/** The Datagrok notebook and cell a text document is, if it is one. */
export function cellOf(document: vscode.TextDocument): { notebook: vscode.NotebookDocument; cell: vscode.NotebookCell } | undefined {
  if (document.uri.scheme !== 'vscode-notebook-cell') return undefined;
  const key = document.uri.toString();
  for (const notebook of vscode.workspace.notebookDocuments) {
    if (notebook.notebookType !== NOTEBOOK_TYPE) continue;
    const cell = notebook.getCells().find((c) => c.document.uri.toString() === key);
    if (cell) return { notebook, cell };
  }
  return undefined;
}

/** The cells' languages and texts (a Markdown cell by its kind, whatever its language). */
export function cellTexts(notebook: vscode.NotebookDocument): CellText[] {
  return notebook.getCells().map((c) => ({ language: c.kind === vscode.NotebookCellKind.Markup ? 'markdown' : c.document.languageId, text: c.document.getText() }));
}

/** What is known of a notebook's cells now; `extra`: a function to look up too (the one a cursor is on). */
export async function notebookFacts(source: CellFactsSource, notebook: vscode.NotebookDocument, extra?: string): Promise<NotebookFacts> {
  const cells = cellTexts(notebook);
  const names = new Set<string>(extra ? [extra] : []);
  for (const cell of cells) {
    const call = cellKind(cell.language) === 'call' ? cellCall(cell) : undefined;
    if (call) names.add(call.function);
  }
  const functions = new Map<string, { func?: FuncInfo; missing?: boolean }>();
  await Promise.all([...names].map(async (name) => functions.set(name.toLowerCase(), await lookUpFunction(source, name))));
  const outputs = (name: string) => {
    const func = functions.get(name.toLowerCase())?.func;
    return func ? outputsOf(func) : undefined;
  };
  const made = source.sessions.peek(notebook)?.variables.list() ?? [];
  const declared = cells.map((cell) => declaredOutputs(cell, outputs));
  return { notebook, cells, functions, at: (index) => variablesAt(declared, index, made) };
}

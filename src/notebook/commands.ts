// The notebook's commands: a new notebook, Run Notebook (the contract: which cells, and each one's
// outcome, outputs and time), saving outputs in the file (per notebook), the variables.
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import type { CommandInvocation } from '../core/commands';
import { uriOption } from '../core/options';
import { NOTEBOOK_TYPE } from '../platform/notebook/format';
import { describeVariable } from '../platform/notebook/variables';
import type { CellResult, NotebookKernels } from './kernel';
import type { SavedOutputs } from './savedOutputs';
import type { NotebookSessions } from './session';

export interface NotebookContext {
  kernels: NotebookKernels;
  sessions: NotebookSessions;
  savedOutputs: SavedOutputs;
}

const FIRST_CELLS: [vscode.NotebookCellKind, string, string][] = [
  [
    vscode.NotebookCellKind.Markup,
    '# A Datagrok notebook\n\nEach cell runs on the server: a query, a script, a function call. A table a cell outputs is a variable later cells take by name.',
    'markdown',
  ],
  [vscode.NotebookCellKind.Code, '--connection: Samples:Northwind\n--output: dataframe customers\nselect * from customers', 'sql'],
  [vscode.NotebookCellKind.Code, '#input: dataframe customers\n#output: int count\ncount = customers.shape[0]', 'python'],
  [vscode.NotebookCellKind.Code, 'Demo:RowCount(table: customers)', 'datagrok-call'],
];

/** datagrok.notebooks.new: an untitled notebook with a cell of each kind; returns its URI. */
export async function newNotebook(): Promise<vscode.Uri> {
  const data = new vscode.NotebookData(FIRST_CELLS.map(([kind, text, language]) => new vscode.NotebookCellData(kind, text, language)));
  const notebook = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, data);
  await vscode.window.showNotebookDocument(notebook);
  return notebook.uri;
}

/** The notebook an invocation names (`{ uri }`, a `Uri`), or the active one. */
export async function targetNotebook(inv: CommandInvocation<{ uri?: unknown }>): Promise<vscode.NotebookDocument> {
  const uri = inv.options ? uriOption(inv.options.uri, 'uri') : inv.arg instanceof vscode.Uri ? inv.arg : undefined;
  if (!uri) {
    const active = vscode.window.activeNotebookEditor?.notebook;
    if (active?.notebookType === NOTEBOOK_TYPE) return active;
    throw badInput('No Datagrok notebook: open a .dgnb file, or pass { uri }.');
  }
  const open = vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === uri.toString());
  const notebook = open ?? (await vscode.workspace.openNotebookDocument(uri));
  if (notebook.notebookType !== NOTEBOOK_TYPE) throw badInput(`${uri.toString(true)} is not a Datagrok notebook (a .dgnb file).`);
  return notebook;
}

/** datagrok.notebooks.run: `{ uri, cells? }` (0-based indices; all by default) → each cell's result, in order. */
export async function runNotebook(c: NotebookContext, inv: CommandInvocation<{ uri?: unknown; cells?: unknown }>): Promise<CellResult[]> {
  const cellsOption = inv.options?.cells;
  if (cellsOption !== undefined && (!Array.isArray(cellsOption) || !cellsOption.every((i) => Number.isInteger(i) && i >= 0)))
    throw badInput('The option "cells" must be a list of cell indices (0 for the first cell).');
  const notebook = await targetNotebook(inv);
  const indices = (cellsOption as number[] | undefined) ?? notebook.getCells().map((cell) => cell.index);
  const beyond = indices.find((i) => i >= notebook.cellCount);
  if (beyond !== undefined) throw badInput(`The notebook has ${notebook.cellCount} cells: there is no cell ${beyond} (0 is the first).`);
  const editor = await vscode.window.showNotebookDocument(notebook, { preserveFocus: true });
  const { controller, url } = await c.kernels.select(notebook, editor);
  const results = await c.kernels.execute(
    url,
    controller,
    [...new Set(indices)].sort((a, b) => a - b).map((i) => notebook.cellAt(i)),
    notebook,
  );
  // A notebook that saves its outputs has them in its cells' metadata when this returns.
  await c.savedOutputs.settled();
  return results;
}

/** datagrok.notebooks.saveOutputs: `{ uri?, save? }` turns saving outputs in the file on or off (toggles without `save`); returns the new setting. */
export async function saveOutputs(c: NotebookContext, inv: CommandInvocation<{ uri?: unknown; save?: unknown }>): Promise<boolean> {
  const save = inv.options?.save;
  if (save !== undefined && typeof save !== 'boolean') throw badInput('The option "save" must be true or false.');
  const notebook = await targetNotebook(inv);
  const next = save ?? notebook.metadata.saveOutputs !== true;
  const edit = new vscode.WorkspaceEdit();
  edit.set(notebook.uri, [vscode.NotebookEdit.updateNotebookMetadata({ ...notebook.metadata, saveOutputs: next })]);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`The notebook's setting could not be changed: is ${notebook.uri.toString(true)} read-only?`);
  await c.savedOutputs.sync(notebook, next);
  if (inv.interactive)
    void vscode.window.showInformationMessage(
      next ? "Outputs are saved in this notebook's file (tables by reference, never their rows)." : "Outputs are not saved in this notebook's file.",
    );
  return next;
}

/** datagrok.notebooks.showVariables: the notebook's variables; from the palette, a list to read. */
export async function showVariables(c: NotebookContext, inv: CommandInvocation<{ uri?: unknown }>) {
  const notebook = await targetNotebook(inv);
  const session = c.sessions.peek(notebook);
  const variables = (session?.variables.list() ?? []).map(({ name, type, cell, value, table, rows, columns }) => ({ name, type, cell, value, table, rows, columns }));
  if (inv.interactive) {
    if (variables.length === 0) void vscode.window.showInformationMessage("The notebook has no variables yet: a cell's outputs become variables when it runs.");
    else
      await vscode.window.showQuickPick(
        variables.map((v) => ({
          label: v.name,
          description: `${v.type} · ${describeVariable(v)}`,
          detail: `made by cell ${v.cell + 1}${v.table ? ` · on the server as table ${v.table}` : ''}`,
        })),
        { title: 'Datagrok notebook variables' },
      );
  }
  return { variables, stale: session?.staleCells(notebook) ?? [] };
}

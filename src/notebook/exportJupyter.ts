// Export as Jupyter notebook: the notebook's cells written as a .ipynb in Python with Datagrok's Python
// client (src/platform/notebook/jupyter.ts), beside the notebook or where the user chooses. An existing
// file is replaced only with the user's yes (the save dialog's) or, called with options, `overwrite: true`.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { uriOption } from '../core/options';
import { type ExportCell, jupyterText, toJupyter } from '../platform/notebook/jupyter';
import type { Services } from '../services';
import { type NotebookContext, targetNotebook } from './commands';
import { callOf, NotebookKernels } from './kernel';

interface ExportOptions {
  uri?: unknown;
  /** The .ipynb to write; default: `<stem>.ipynb` beside the notebook. */
  target?: unknown;
  /** Replace an existing file (without it, an existing target is refused). */
  overwrite?: unknown;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** The outputs a call cell's function declares: from this session's run, else the server's signature (when signed in). */
async function callOutputs(s: Services, c: NotebookContext, notebook: vscode.NotebookDocument, index: number, name: string) {
  const ran = (c.sessions.peek(notebook)?.variables.list() ?? []).filter((v) => v.cell === index);
  if (ran.length > 0) return ran.map((v) => ({ name: v.name, type: v.type }));
  try {
    const api = await s.connection.clientFor(c.kernels.serverOf(notebook));
    const func = await api.getFunction(name);
    return (func.params ?? []).filter((p) => !p.isInput).map((p) => ({ name: p.name, type: p.propertyType.toLowerCase() }));
  } catch {
    // Signed out, or the server does not know it: the answer is kept as it comes (the cell says so).
    return undefined;
  }
}

async function exportCells(s: Services, c: NotebookContext, notebook: vscode.NotebookDocument): Promise<ExportCell[]> {
  const out: ExportCell[] = [];
  for (const cell of notebook.getCells()) {
    const language = cell.kind === vscode.NotebookCellKind.Markup ? 'markdown' : cell.document.languageId;
    const item: ExportCell = { language, text: cell.document.getText() };
    if (cell.kind === vscode.NotebookCellKind.Code) {
      try {
        item.call = callOf(cell);
      } catch (e) {
        item.callProblem = (e as Error).message;
      }
      if (item.call) item.outputs = await callOutputs(s, c, notebook, cell.index, item.call.function);
    }
    out.push(item);
  }
  return out;
}

/** Where to write: the option, the user's choice, or `<stem>.ipynb` beside the notebook. */
async function targetOf(inv: CommandInvocation<ExportOptions>, notebook: vscode.NotebookDocument): Promise<{ target: vscode.Uri; chosen: boolean }> {
  const given = inv.options ? uriOption(inv.options.target, 'target') : undefined;
  if (given) {
    if (!given.path.toLowerCase().endsWith('.ipynb')) throw badInput(`The target ${given.toString(true)} is not a .ipynb file: name it <name>.ipynb.`);
    return { target: given, chosen: false };
  }
  const stem = path.posix.basename(notebook.uri.path).replace(/\.[^.]*$/, '') || 'notebook';
  const folder = notebook.isUntitled ? vscode.workspace.workspaceFolders?.[0]?.uri : vscode.Uri.joinPath(notebook.uri, '..');
  const beside = folder ? vscode.Uri.joinPath(folder, `${stem}.ipynb`) : undefined;
  if (!inv.interactive) {
    if (!beside || notebook.isUntitled) throw badInput('The notebook is not saved yet: save it first, or pass { target } (the .ipynb to write).');
    return { target: beside, chosen: false };
  }
  const picked = await vscode.window.showSaveDialog({ defaultUri: beside, filters: { 'Jupyter notebook': ['ipynb'] }, title: 'Export as Jupyter notebook' });
  if (!picked) throw new UserCancelled();
  return { target: picked, chosen: true };
}

/** datagrok.notebooks.exportJupyter: `{ uri?, target?, overwrite? }` → the written .ipynb's Uri. */
export async function exportJupyter(s: Services, c: NotebookContext, inv: CommandInvocation<ExportOptions>): Promise<vscode.Uri> {
  const overwrite = inv.options?.overwrite;
  if (overwrite !== undefined && typeof overwrite !== 'boolean') throw badInput('The option "overwrite" must be true or false.');
  const notebook = await targetNotebook(inv);
  const { target, chosen } = await targetOf(inv, notebook);
  // A file the user chose in the save dialog was confirmed there; called with options, only `overwrite: true` replaces one.
  if (!chosen && overwrite !== true && (await exists(target))) throw badInput(`${target.toString(true)} exists already: pass overwrite: true to replace it, or another target.`);
  const fileName = path.posix.basename(notebook.uri.path);
  const { notebook: ipynb, cells } = toJupyter(await exportCells(s, c, notebook), { fileName, tablePrefix: NotebookKernels.tablePrefix(notebook) });
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(jupyterText(ipynb)));
  if (inv.interactive) {
    const commented = cells.filter((cell) => cell.as === 'commented');
    const note = commented.length === 0 ? '' : ` ${commented.map((cell) => `Cell ${cell.index + 1} is written as comments: ${cell.reason}`).join(' ')}`;
    void vscode.window.showInformationMessage(`Exported ${fileName} to ${path.posix.basename(target.path)}.${note}`);
  }
  return target;
}

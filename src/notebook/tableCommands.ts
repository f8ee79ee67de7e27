// Out of the notebook: its tables pushed to the server (each goes up once; a table a later cell took is
// there already) and a dashboard of them, made by Create Dashboard (datagrok.dashboards.create) with the
// notebook's tables chosen.
import * as vscode from 'vscode';
import { badInput, DatagrokError } from '../api/errors';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { tableRef } from '../platform/notebook/runCell';
import type { NotebookVariable } from '../platform/notebook/variables';
import { describeVariable } from '../platform/notebook/variables';
import type { Services } from '../services';
import { type NotebookContext, targetNotebook } from './commands';
import { NotebookKernels } from './kernel';

interface TablesOptions {
  uri?: unknown;
  /** The variables (tables) to push; default: every table of the notebook. */
  tables?: unknown;
}

/** The notebook's tables the invocation names (all by default; from the palette, the user's choice, all preselected). */
async function chosenTables(c: NotebookContext, notebook: vscode.NotebookDocument, inv: CommandInvocation<TablesOptions>, title: string): Promise<NotebookVariable[]> {
  const tables = (c.sessions.peek(notebook)?.variables.list() ?? []).filter((v) => v.type === 'dataframe');
  if (tables.length === 0) throw badInput('The notebook has no tables yet: run the cells that make them first.');
  const names = inv.options?.tables;
  if (names !== undefined) {
    if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) throw badInput('The option "tables" must be a list of the notebook\'s table names.');
    const unknown = names.find((n) => !tables.some((t) => t.name === n));
    if (unknown) throw badInput(`The notebook has no table "${unknown}" (its tables: ${tables.map((t) => t.name).join(', ')}).`);
    return tables.filter((t) => names.includes(t.name));
  }
  if (!inv.interactive) return tables;
  const picked = await vscode.window.showQuickPick(
    tables.map((t) => ({ label: t.name, description: describeVariable(t), detail: `cell ${t.cell + 1}`, picked: true, table: t })),
    { title, canPickMany: true },
  );
  if (!picked || picked.length === 0) throw new UserCancelled();
  return picked.map((p) => p.table);
}

async function pushed(
  s: Services,
  c: NotebookContext,
  notebook: vscode.NotebookDocument,
  tables: NotebookVariable[],
  signal: AbortSignal,
): Promise<{ name: string; table: string }[]> {
  const api = await s.connection.clientFor(c.kernels.serverOf(notebook));
  const out: { name: string; table: string }[] = [];
  for (const t of tables) out.push({ name: t.name, table: await tableRef({ api, signal, tablePrefix: NotebookKernels.tablePrefix(notebook) }, t) });
  return out;
}

/** datagrok.notebooks.pushTables: `{ uri?, tables? }` → `[{ name, table }]`, each table's server ID. */
export async function pushTables(s: Services, c: NotebookContext, inv: CommandInvocation<TablesOptions>): Promise<{ name: string; table: string }[]> {
  const notebook = await targetNotebook(inv);
  const tables = await chosenTables(c, notebook, inv, "Push the notebook's tables to Datagrok");
  const result = await inv.withProgress("Pushing the notebook's tables", (_, signal) => pushed(s, c, notebook, tables, signal));
  if (inv.interactive) void vscode.window.showInformationMessage(`Pushed ${result.map((r) => r.name).join(', ')} to Datagrok (as ${NotebookKernels.tablePrefix(notebook)}<name>).`);
  return result;
}

/**
 * A table output's Push as Table (its grid's toolbar): that table to the notebook's server, once — the variable
 * the output's file holds, or, when a later run made another table of its name, the output's own rows. Says
 * the outcome in a notification, a failure too (nothing is reported to the grid).
 */
export async function pushOutputTable(s: Services, c: NotebookContext, output: { notebook: string; name: string; file: string }): Promise<void> {
  try {
    const notebook = vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === output.notebook);
    if (!notebook) throw badInput(`The notebook of ${output.name} is closed: open it and run the cell again.`);
    const variable = c.sessions
      .peek(notebook)
      ?.variables.list()
      .find((v) => v.type === 'dataframe' && v.file === output.file);
    const table: NotebookVariable = variable ?? { name: output.name, type: 'dataframe', cell: -1, file: output.file };
    const already = table.table !== undefined;
    const [result] = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Pushing ${output.name} to Datagrok`, cancellable: true },
      (_, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        return pushed(s, c, notebook, [table], controller.signal);
      },
    );
    const as = `${NotebookKernels.tablePrefix(notebook)}${output.name}`;
    void vscode.window.showInformationMessage(
      already
        ? `${output.name} is on Datagrok already (table ${result.table}): a cell took it, so it went up then.`
        : `Pushed ${output.name} to Datagrok as ${as} (table ${result.table}).`,
    );
  } catch (error) {
    if (error instanceof DatagrokError && error.kind === 'cancelled') return;
    void vscode.window.showErrorMessage(`Push as Table of ${output.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** datagrok.notebooks.createDashboard: `{ uri?, name, tables? }` → what datagrok.dashboards.create returns. */
export async function createDashboard(s: Services, c: NotebookContext, inv: CommandInvocation<TablesOptions & { name?: unknown }>): Promise<unknown> {
  const given = inv.options?.name;
  if (!inv.interactive && (typeof given !== 'string' || given.trim() === '')) throw badInput('The option "name" (the dashboard\'s name) is required.');
  const notebook = await targetNotebook(inv);
  const tables = await chosenTables(c, notebook, inv, 'Tables of the dashboard');
  const name =
    typeof given === 'string' && given.trim() !== ''
      ? given.trim()
      : await vscode.window.showInputBox({ title: 'Name of the dashboard', value: notebook.uri.path.replace(/^.*\//, '').replace(/\.[^.]*$/, '') });
  if (!name) throw new UserCancelled();
  const ids = await inv.withProgress("Pushing the notebook's tables", (_, signal) => pushed(s, c, notebook, tables, signal));
  return vscode.commands.executeCommand('datagrok.dashboards.create', { name, tables: ids.map((t) => t.table) });
}

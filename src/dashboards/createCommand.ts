// datagrok.dashboards.create: a dashboard from tables (pushed here, or typed IDs/names), a name and an
// optional layout JSON file; remembered for sharing.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CreationResult } from '../api/types';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { badInput } from '../api/errors';
import { readUserText } from '../core/documents';
import type { Services } from '../services';
import { announceCreated } from '../ui/entityPick';
import { uriOption } from '../core/options';
import type { RecentEntities } from '../platform/recent';
import { parseJsonObject } from '../core/jsonc';
import { DashboardTarget } from './shareCommand';

export interface CreateDashboardOptions {
  name: string;
  /** Table IDs or names (`<project>.<table>`, `Project:table`). */
  tables: string[];
  /** A JSON file holding the layout object (comments allowed). */
  layout?: vscode.Uri | string;
}

/** Reads and parses a layout file; a broken file stops the command before anything is created. */
export async function readLayout(uri: vscode.Uri): Promise<Record<string, unknown>> {
  const what = `The layout file "${path.posix.basename(uri.path)}"`;
  const text = await readUserText(uri, what);
  if (text.trim() === '') throw badInput(`${what} is empty: it must contain a JSON object.`);
  return parseJsonObject(text, what);
}

function checkOptions(options: CreateDashboardOptions): { name: string; tables: string[] } {
  if (typeof options.name !== 'string' || options.name.trim() === '') throw badInput('The option "name" (the dashboard name) is required.');
  if (options.name.includes('/')) throw badInput(`Invalid dashboard name "${options.name}": it cannot contain "/".`);
  if (!Array.isArray(options.tables) || options.tables.length === 0) {
    throw badInput('The option "tables" must list at least one table ID or name.');
  }
  const bad = options.tables.find((t) => typeof t !== 'string' || t.trim() === '' || t.includes(','));
  if (bad !== undefined) throw badInput(`Invalid table "${String(bad)}" in "tables": each must be a table ID or name (no commas).`);
  return { name: options.name.trim(), tables: options.tables.map((t) => t.trim()) };
}

interface TableItem extends vscode.QuickPickItem {
  id?: string;
}

async function askTables(recent: RecentEntities, server: string): Promise<string[]> {
  const remembered = recent.list(server);
  const typeItem: TableItem = { label: '$(edit) Type table IDs or names…', alwaysShow: true };
  let picked: TableItem[] = [];
  if (remembered.length > 0) {
    const items: TableItem[] = [...remembered.map((t) => ({ label: t.name, description: t.ID, id: t.ID })), typeItem];
    picked =
      (await vscode.window.showQuickPick(items, {
        title: 'Create Dashboard (1/3): tables',
        placeHolder: 'Pick the tables pushed from this workspace to put on the dashboard',
        canPickMany: true,
        ignoreFocusOut: true,
      })) ?? [];
    if (picked.length === 0) throw new UserCancelled();
  }
  const tables = picked.filter((p) => p.id).map((p) => p.id!);
  if (remembered.length === 0 || picked.includes(typeItem)) {
    const typed = await vscode.window.showInputBox({
      title: 'Create Dashboard (1/3): tables',
      prompt: 'Table IDs or names, separated by commas (e.g. Demo:demog, Sales.q1)',
      ignoreFocusOut: true,
      validateInput: (v) => (tables.length === 0 && v.split(',').every((s) => s.trim() === '') ? 'Enter at least one table ID or name.' : undefined),
    });
    if (typed === undefined) throw new UserCancelled();
    tables.push(...typed.split(',').map((s) => s.trim()).filter(Boolean));
  }
  if (tables.length === 0) throw new UserCancelled();
  return tables;
}

async function askLayout(): Promise<vscode.Uri | undefined> {
  const none = { label: 'No layout', description: 'the server lays the tables out' };
  const file = { label: '$(file) Choose a layout JSON file…' };
  const choice = await vscode.window.showQuickPick([none, file], { title: 'Create Dashboard (3/3): layout', ignoreFocusOut: true });
  if (!choice) throw new UserCancelled();
  if (choice === none) return undefined;
  const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'JSON layout': ['json', 'jsonc'] }, title: 'Dashboard layout' });
  if (!picked?.[0]) throw new UserCancelled();
  return picked[0];
}

export async function createDashboardCommand(
  services: Services,
  dashboards: RecentEntities,
  tablesStore: RecentEntities,
  inv: CommandInvocation<CreateDashboardOptions>,
): Promise<CreationResult> {
  const client = await services.connection.client();
  let name: string;
  let tables: string[];
  let layoutUri: vscode.Uri | undefined;
  if (inv.options) {
    ({ name, tables } = checkOptions(inv.options));
    layoutUri = uriOption(inv.options.layout, 'layout');
  } else {
    tables = await askTables(tablesStore, client.baseUrl);
    const typed = await vscode.window.showInputBox({
      title: 'Create Dashboard (2/3): name',
      prompt: 'The dashboard name (an existing dashboard of that name is updated)',
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' ? 'Enter a name.' : v.includes('/') ? 'A dashboard name cannot contain "/".' : undefined),
    });
    if (typed === undefined) throw new UserCancelled();
    name = typed.trim();
    layoutUri = await askLayout();
  }
  const layout = layoutUri ? await readLayout(layoutUri) : undefined;
  const result = await inv.withProgress(`Creating dashboard ${name}`, (_progress, signal) => client.createDashboard(name, tables, layout, { signal }));
  services.log.info(`Created dashboard ${result.name} (${result.ID}) from ${tables.join(', ')}${layoutUri ? ` with layout ${layoutUri.toString(true)}` : ''}`);
  await dashboards.remember(client.baseUrl, result);
  announceCreated(`Created dashboard ${result.name} with ${tables.length} table${tables.length === 1 ? '' : 's'}.`, result, {
    'Share…': () => vscode.commands.executeCommand('datagrok.dashboards.share', new DashboardTarget(result.ID)),
  });
  return result;
}

// datagrok.dashboards.create: a dashboard from tables (picked from the server's, pushed here, or typed
// IDs/names), a name and an optional layout JSON file; remembered for sharing.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CreationResult } from '../api/types';
import type { DatagrokApi } from '../api/datagrokApi';
import type { CommandInvocation } from '../core/commands';
import { badInput, DatagrokError } from '../api/errors';
import { readUserText } from '../core/documents';
import type { Services } from '../services';
import { announceCreated } from '../ui/entityPick';
import { uriOption } from '../core/options';
import type { RecentEntities } from '../platform/recent';
import { parseJsonObject } from '../core/jsonc';
import { DashboardTarget } from './shareCommand';
import { TablesForDashboard } from '../ui/entityNodes';
import { askCreateDashboard, type CreateAnswers } from './createSteps';

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

export async function createDashboardCommand(
  services: Services,
  dashboards: RecentEntities,
  tablesStore: RecentEntities,
  inv: CommandInvocation<CreateDashboardOptions>,
): Promise<CreationResult | undefined> {
  const client = await services.connection.client();
  if (!inv.options) return createInteractively(services, dashboards, tablesStore, inv, client);
  const { name, tables } = checkOptions(inv.options);
  const layoutUri = uriOption(inv.options.layout, 'layout');
  return create(services, dashboards, inv, client, { name, tables, layoutUri });
}

async function create(
  services: Services,
  dashboards: RecentEntities,
  inv: CommandInvocation<CreateDashboardOptions>,
  client: DatagrokApi,
  { name, tables, layoutUri }: { name: string; tables: string[]; layoutUri: vscode.Uri | undefined },
): Promise<CreationResult> {
  const layout = layoutUri ? await readLayout(layoutUri) : undefined;
  const result = await inv.withProgress(`Creating dashboard ${name}`, (_progress, signal) => client.createDashboard(name, tables, layout, { signal }));
  services.log.info(`Created dashboard ${result.name} (${result.ID}) from ${tables.join(', ')}${layoutUri ? ` with layout ${layoutUri.toString(true)}` : ''}`);
  await dashboards.remember(client.baseUrl, result);
  // The Dashboards view lists it.
  services.platform.catalog.reload();
  announceCreated(`Created dashboard ${result.name} with ${tables.length} table${tables.length === 1 ? '' : 's'}.`, result, {
    'Share…': () => vscode.commands.executeCommand('datagrok.dashboards.share', new DashboardTarget(result.ID)),
  });
  return result;
}

/**
 * From the palette or the Tables view: asks the steps, then creates; when the server refuses the tables
 * or the name, says so with "Edit tables…" / "Edit name…", which go back to that step with everything kept.
 */
async function createInteractively(
  services: Services,
  dashboards: RecentEntities,
  tablesStore: RecentEntities,
  inv: CommandInvocation<CreateDashboardOptions>,
  client: DatagrokApi,
): Promise<CreationResult | undefined> {
  const preset = inv.arg instanceof TablesForDashboard ? inv.arg.tables : undefined;
  const ctx = { catalog: services.platform.catalog, tablesStore, server: client.baseUrl, preset };
  let answers: CreateAnswers | undefined;
  let startAt = 0;
  for (;;) {
    answers = await askCreateDashboard(ctx, answers, startAt);
    try {
      return await create(services, dashboards, inv, client, { name: answers.name, tables: answers.tables, layoutUri: answers.layout });
    } catch (error) {
      const kind = error instanceof DatagrokError ? error.kind : undefined;
      if (kind !== 'notFound' && kind !== 'badInput') throw error;
      const message = error instanceof Error ? error.message : String(error);
      services.log.error(`datagrok.dashboards.create failed: ${message}`);
      const editTables = preset ? [] : ['Edit tables…'];
      const choice = await vscode.window.showErrorMessage(message, ...editTables, 'Edit name…', 'Edit layout…');
      if (choice === undefined) return undefined;
      const steps = preset ? ['Edit name…', 'Edit layout…'] : ['Edit tables…', 'Edit name…', 'Edit layout…'];
      startAt = steps.indexOf(choice);
    }
  }
}

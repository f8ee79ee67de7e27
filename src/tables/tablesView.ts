// The Tables view and its actions: Open Table (the data view, or a CSV editor), New Dashboard from the selected tables, Open in Browser.
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import type { CreationResult, TableInfo } from '../api/types';
import type { CommandInvocation } from '../core/commands';
import { entityViewDeps, type Services } from '../services';
import { tableRow, TablesForDashboard } from '../ui/entityNodes';
import { createEntityView, type EntityView, selectedEntities } from '../ui/entityView';

export function createTablesView(services: Services): EntityView {
  const { catalog, tables } = services.platform;
  return createEntityView<TableInfo>(entityViewDeps(services), {
    view: 'datagrok.tables',
    kind: 'table',
    noun: 'tables',
    madeHere: 'pushed',
    load: () => catalog.listTables(),
    remembered: (server) => tables.list(server),
    row: (t, remembered) => tableRow(t, remembered.get(t.id)),
  });
}

export interface NewDashboardOptions {
  /** Table IDs or names. */
  tables: string[];
  name: string;
  /** A JSON file holding the layout object. */
  layout?: vscode.Uri | string;
}

/**
 * datagrok.tables.newDashboard: from the view, the selected tables go to Create Dashboard, which asks the
 * name and layout; with options, the same as `datagrok.dashboards.create` with them (returns its result).
 */
export async function newDashboardCommand(v: EntityView, inv: CommandInvocation<NewDashboardOptions>): Promise<CreationResult | undefined> {
  if (inv.options) {
    const { tables, name, layout } = inv.options;
    if (!Array.isArray(tables) || tables.length === 0) throw badInput('The option "tables" must list at least one table ID or name.');
    return vscode.commands.executeCommand<CreationResult>('datagrok.dashboards.create', { name, tables, ...(layout !== undefined ? { layout } : {}) });
  }
  const ids = selectedEntities(v, inv.arg, 'table').map((n) => n.entityId);
  return vscode.commands.executeCommand<CreationResult | undefined>('datagrok.dashboards.create', ids.length > 0 ? new TablesForDashboard(ids) : undefined);
}

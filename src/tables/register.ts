import type { Services } from '../services';
import { openEntityInBrowser, refreshEntityView, showMoreEntities } from '../ui/entityView';
import type { ExplorerTree } from '../ui/explorerTree';
import { openTableCommand } from './openCommand';
import { pushTableCommand } from './pushCommand';
import { createTablesView, newDashboardCommand } from './tablesView';

/** Registers the tables feature: the Tables view, push a CSV as a table, open a table (the data view, or a CSV editor). Returns the view's tree. */
export function registerTables(services: Services): ExplorerTree {
  const recent = services.platform.tables;
  const v = createTablesView(services);
  services.context.subscriptions.push(
    services.commands.register('datagrok.tables.push', (inv) => pushTableCommand(services, recent, inv)),
    services.commands.register('datagrok.tables.open', (inv) => openTableCommand(services, recent, inv)),
    services.commands.register('datagrok.tables.refresh', (inv) => refreshEntityView(services.platform.catalog, v, inv)),
    services.commands.register('datagrok.tables.showMore', (inv) => showMoreEntities(v, inv)),
    services.commands.register('datagrok.tables.newDashboard', (inv) => newDashboardCommand(v, inv)),
    services.commands.register('datagrok.tables.openInBrowser', (inv) => openEntityInBrowser(inv)),
  );
  return v.tree;
}

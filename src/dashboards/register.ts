import type { Services } from '../services';
import { openEntityInBrowser, refreshEntityView, showMoreEntities } from '../ui/entityView';
import type { ExplorerTree } from '../ui/explorerTree';
import { createDashboardCommand } from './createCommand';
import { createDashboardsView } from './dashboardsView';
import { shareDashboardCommand } from './shareCommand';

/** Registers the dashboards feature: the Dashboards view, create a dashboard from tables, share it with groups. Returns the view's tree. */
export function registerDashboards(services: Services): ExplorerTree {
  const { dashboards, tables } = services.platform;
  const v = createDashboardsView(services);
  services.context.subscriptions.push(
    services.commands.register('datagrok.dashboards.create', (inv) => createDashboardCommand(services, dashboards, tables, inv)),
    services.commands.register('datagrok.dashboards.share', (inv) => shareDashboardCommand(services, dashboards, inv)),
    services.commands.register('datagrok.dashboards.refresh', (inv) => refreshEntityView(services.platform.catalog, v, inv)),
    services.commands.register('datagrok.dashboards.showMore', (inv) => showMoreEntities(v, inv)),
    services.commands.register('datagrok.dashboards.openInBrowser', (inv) => openEntityInBrowser(inv)),
  );
  return v.tree;
}

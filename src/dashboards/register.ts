import type { Services } from '../core/services';
import { RecentEntities } from '../tables/recent';
import { createDashboardCommand } from './createCommand';
import { shareDashboardCommand } from './shareCommand';

/** Registers the dashboards feature: create a dashboard from tables, share it with groups. */
export function registerDashboards(services: Services): void {
  const dashboards = new RecentEntities(services.context.workspaceState, 'dashboards');
  const tables = new RecentEntities(services.context.workspaceState, 'tables');
  services.context.subscriptions.push(
    services.commands.register('datagrok.dashboards.create', (inv) => createDashboardCommand(services, dashboards, tables, inv)),
    services.commands.register('datagrok.dashboards.share', (inv) => shareDashboardCommand(services, dashboards, inv)),
  );
}

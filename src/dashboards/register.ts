import type { Services } from '../services';
import { createDashboardCommand } from './createCommand';
import { shareDashboardCommand } from './shareCommand';

/** Registers the dashboards feature: create a dashboard from tables, share it with groups. */
export function registerDashboards(services: Services): void {
  const { dashboards, tables } = services.platform;
  services.context.subscriptions.push(
    services.commands.register('datagrok.dashboards.create', (inv) => createDashboardCommand(services, dashboards, tables, inv)),
    services.commands.register('datagrok.dashboards.share', (inv) => shareDashboardCommand(services, dashboards, inv)),
  );
}

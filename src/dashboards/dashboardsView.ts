// The Dashboards view: the server's dashboards (each lists its tables), else the ones created here.
import type { ProjectInfo } from '../api/types';
import { entityViewDeps, type Services } from '../services';
import { dashboardRow } from '../ui/entityNodes';
import { createEntityView, type EntityView } from '../ui/entityView';

export function createDashboardsView(services: Services): EntityView {
  const { catalog, dashboards } = services.platform;
  return createEntityView<ProjectInfo>(entityViewDeps(services), {
    view: 'datagrok.dashboards',
    kind: 'dashboard',
    noun: 'dashboards',
    madeHere: 'created',
    load: () => catalog.listDashboards(),
    remembered: (server) => dashboards.list(server),
    row: (d, remembered) => dashboardRow(d, remembered.get(d.id)),
  });
}

// The platform layer: what the extension knows about the active server, built once on the connection
// and shared by every feature (views, commands, language features). Models own their data and fire
// change events; nothing here imports vscode or shows anything (a check in `npm run lint` holds that).
import { Catalog } from './catalog';
import { GroupsModel } from './groups';
import { KnownFiles } from './knownFiles';
import { RecentEntities } from './recent';
import type { KeyValueStore, ServerSession } from './session';

export class Platform {
  /** Groups, memberships and membership requests of the active server. */
  readonly groups: GroupsModel;
  /** Tables pushed from this workspace, per server. */
  readonly tables: RecentEntities;
  /** Dashboards made from this workspace, per server. */
  readonly dashboards: RecentEntities;
  /** Connector files seen from this workspace, per server and connector. */
  readonly knownFiles: KnownFiles;
  /** The server's functions (with signatures), file shares, tables and dashboards. */
  readonly catalog: Catalog;

  constructor(session: ServerSession, workspaceState: KeyValueStore) {
    this.groups = new GroupsModel(session);
    this.tables = new RecentEntities(workspaceState, 'tables');
    this.dashboards = new RecentEntities(workspaceState, 'dashboards');
    this.knownFiles = new KnownFiles(workspaceState);
    this.catalog = new Catalog(session);
  }

  dispose(): void {
    this.groups.dispose();
    this.catalog.dispose();
  }
}

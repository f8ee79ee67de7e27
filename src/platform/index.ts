// The platform layer: what the extension knows about the active server, built once on the connection
// and shared by every feature (views, commands, language features). Models own their data and fire
// change events; nothing here imports vscode or shows anything (a check in `npm run lint` holds that).
import { Catalog } from './functions/catalog';
import { GroupsModel } from './groups/model';
import { KnownFiles } from './files/known';
import { OpenedTables } from './tables/opened';
import { ServerPackages } from './packages/serverPackages';
import { RecentEntities } from './recent';
import { ScriptRunSources } from './scripts/runs';
import type { KeyValueStore, ServerSession } from './session';
import { TableColumns } from './tables/columns';

export class Platform {
  /** Groups, memberships and membership requests of the active server. */
  readonly groups: GroupsModel;
  /** Tables pushed from this machine, per server (global state). */
  readonly tables: RecentEntities;
  /** Dashboards made from this machine, per server (global state). */
  readonly dashboards: RecentEntities;
  /** Connector files seen from this workspace, per server and connector. */
  readonly knownFiles: KnownFiles;
  /** The server's functions (with signatures), file shares, tables and dashboards. */
  readonly catalog: Catalog;
  /** The columns of the server's tables (read once from each table's header), for parameter files. */
  readonly tableColumns: TableColumns;
  /** Tables of the server opened here, by their local file (in memory). */
  readonly openedTables = new OpenedTables();
  /** The server's packages and their published versions (the Packages view). */
  readonly packages: ServerPackages;
  /** The scripts' texts run now as temporary copies (▶ Run on Datagrok, Run Again), by call name. */
  readonly scriptRuns = new ScriptRunSources();

  /** `globalState` keeps what must survive a reload or another workspace; without one, the workspace state. */
  constructor(session: ServerSession, workspaceState: KeyValueStore, globalState?: KeyValueStore) {
    this.groups = new GroupsModel(session);
    // Earlier versions kept these in the workspace state: its entries move to the global state once.
    const legacy = globalState ? workspaceState : undefined;
    this.tables = new RecentEntities(globalState ?? workspaceState, 'tables', legacy);
    this.dashboards = new RecentEntities(globalState ?? workspaceState, 'dashboards', legacy);
    void this.tables.migrate();
    void this.dashboards.migrate();
    this.knownFiles = new KnownFiles(workspaceState);
    this.catalog = new Catalog(session);
    this.tableColumns = new TableColumns(session);
    this.packages = new ServerPackages(session);
    // A reload (a push, another server, Refresh) may change what tables exist and their columns.
    this.catalog.onDidChange(() => this.tableColumns.forget());
  }

  dispose(): void {
    this.groups.dispose();
    this.catalog.dispose();
  }
}

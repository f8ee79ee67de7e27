// Everything the emulator knows: config, fault queue, request log and the platform's data.
import { readFile } from 'node:fs/promises';
import { type EmulatorConfig, type Fault, defaultConfig } from './config';
import { tableInfoJson, type UserRecord } from './entities';
import { connectionEntity, type Json, layoutOf, projectEntities, queryJson, scriptJson, seededDbEntities } from './entity-json';
import { type EntityType, EntityStore } from './entity-store';
import { ConnectorFiles, type FileState } from './files';
import type { RunContext } from './func-catalog';
import { FunctionRegistry } from './functions';
import { BOTH, GroupStore } from './groups';
import { requestJson } from './memberships';
import { PackageStore } from './package-store';
import { seedFiles, seedGroups, seedTables, seedUsers } from './seed';
import { fullNameOf, TableStore } from './tables';

export interface LogEntry {
  method: string;
  /** The path as sent (percent-encoded), without the query string. */
  path: string;
  /** The query string without `?` ('' when none). */
  query: string;
  /** 0 when the connection was dropped before any status was sent. */
  status: number;
  /** Whether the request carried the right `Authorization: Bearer <key>` (or a session token from the dev-key login). */
  authorized: boolean;
}

/** The JSON of GET /__emulator/state. */
export interface StateSnapshot {
  config: EmulatorConfig;
  groups: unknown[];
  requests: unknown[];
  tables: Array<{ ID: string; name: string; fullName: string; project: string; owner: string; bytes: number; sha256: string; shares: unknown[] }>;
  projects: Array<{ ID: string; name: string; tableIds: string[] }>;
  dashboards: Array<{ ID: string; name: string; tableIds: string[]; layout: unknown; shares: unknown[] }>;
  files: FileState[];
}

export class EmulatorState {
  config: EmulatorConfig = defaultConfig();
  faults: Fault[] = [];
  log: LogEntry[] = [];
  /** Responses held open by a `stallAfterBytes` fault: ended by reset() and by the emulator's close(). */
  readonly stalled = new Set<{ destroy(): void }>();
  readonly groups = new GroupStore();
  readonly files: ConnectorFiles;
  readonly tables: TableStore;
  readonly functions: FunctionRegistry;
  /** Connections, projects, queries, scripts, tables, views and layouts behind the internal routes. */
  readonly entities: EntityStore;
  /** Packages published here (`grok publish`), with their versions and functions. */
  readonly packages = new PackageStore();
  users: UserRecord[] = [];
  /** The current user (the owner of the API key). */
  currentUser = '';
  /** The API key (set by startEmulator); the dev-key login trades it for a token. */
  key = 'demo-key';
  /** Session tokens handed out by the dev-key login (`POST /api/users/login/dev`). */
  readonly tokens = new Set<string>();

  constructor(
    readonly dataDir: string,
    readonly extraGroups = 0,
    /** Config applied on start and on every reset (the CLI's --generation). */
    readonly baseConfig: Partial<EmulatorConfig> = {},
    /** `--functions N`: this many generated functions on top of the demo ones. */
    readonly extraFunctions = 0,
  ) {
    this.files = new ConnectorFiles(dataDir, () => this.config.caseInsensitivePaths);
    this.tables = new TableStore(dataDir, this.files.tmpDir, () => this.users.find((u) => u.id === this.currentUser)?.login ?? '');
    this.functions = new FunctionRegistry(extraFunctions);
    this.entities = new EntityStore(
      (type) => this.derivedEntities(type),
      () => ({ id: this.currentUser, login: this.users.find((u) => u.id === this.currentUser)?.login ?? '' }),
    );
    this.functions.packageFuncs = () => this.packages.functionsFor(this.currentUser);
    // Saved scripts and queries (and the seeded ones the library does not compute) are functions too.
    this.functions.entityFuncs = () => {
      const computed = new Set(this.functions.defs.map((d) => d.nqName.toLowerCase()));
      return [...this.entities.all('Script'), ...this.entities.all('DataQuery')].filter(
        (e) => this.entities.isSaved(String(e.id)) || !computed.has(String(e.nqName).toLowerCase()),
      );
    };
  }

  /** The seeded rows of an entity type, derived from the file shares, tables, dashboards and the function library. */
  private derivedEntities(type: EntityType): Json[] {
    const defs = this.functions.defs.map((d, i) => ({ d, i })).filter(({ d }) => !d.nqName.startsWith('Bench:'));
    const db = seededDbEntities();
    const connections = () => [...this.files.connectors.map(connectionEntity), ...db.filter((e) => e['#type'] === 'DataConnection')];
    const table = (id: string) => {
      const t = this.tables.tables.get(id);
      return t ? { '#type': 'TableInfo', ...tableInfoJson(t, this.tables.projects) } : undefined;
    };
    switch (type) {
      case 'DataConnection':
        return connections();
      case 'Script':
        return defs.filter(({ d }) => d.source === 'script').map(({ d, i }) => scriptJson(d, i));
      case 'DataQuery': {
        const conns = connections();
        const library = defs
          .filter(({ d }) => d.source === 'data-query')
          .map(({ d, i }) =>
            queryJson(
              d,
              i,
              conns.find((c) => c.nqName === d.connection),
            ),
          );
        return [...library, ...db.filter((e) => e['#type'] === 'DataQuery')];
      }
      case 'TableInfo':
        return [...this.tables.tables.keys()].flatMap((id) => table(id) ?? []);
      case 'Project':
        return projectEntities(this.tables, table);
      case 'ViewLayout':
        return [...this.tables.dashboards.values()].map(layoutOf);
      default:
        return [];
    }
  }

  /** Reseeds demo data; config back to defaults; faults and request log cleared. */
  async reset(): Promise<void> {
    this.config = { ...defaultConfig(), ...this.baseConfig };
    this.faults = [];
    this.log = [];
    this.endStalled();
    this.tokens.clear();
    this.entities.reset();
    this.packages.reset();
    seedGroups(this.groups, this.extraGroups);
    [this.users, this.currentUser] = seedUsers();
    const demog = await seedFiles(this.files);
    await seedTables(this.tables, demog);
  }

  /** What functions compute on: the stored tables and connector files. */
  runContext(): RunContext {
    return {
      rows: (table) => this.tables.rows(table),
      tableNames: () => [...this.tables.tables.values()].map((t) => t.name),
      readText: async (connector, relPath) => (await readFile(this.files.resolve(this.files.connector(connector), relPath.split('/')))).toString('utf8'),
    };
  }

  /** Drops every connection a `stallAfterBytes` fault is holding open. */
  endStalled(): void {
    for (const socket of this.stalled) socket.destroy();
    this.stalled.clear();
  }

  async snapshot(): Promise<StateSnapshot> {
    const g = this.groups;
    return {
      config: this.config,
      groups: [...g.groups.values()].map((x) => g.toJson(x, BOTH)),
      requests: g.requests.map((r) => requestJson(g, r)),
      tables: [...this.tables.tables.values()].map((t) => ({
        ID: t.id,
        name: t.name,
        fullName: fullNameOf(t),
        project: t.project,
        owner: t.owner,
        bytes: t.bytes,
        sha256: t.sha256,
        shares: t.shares,
      })),
      projects: [...this.tables.projects.values()].map((p) => ({ ID: p.id, name: p.name, tableIds: p.tableIds })),
      dashboards: [...this.tables.dashboards.values()].map((d) => ({ ID: d.id, name: d.name, tableIds: d.tableIds, layout: d.layout, shares: d.shares })),
      files: await this.files.snapshot(),
    };
  }
}

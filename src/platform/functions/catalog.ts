// The functions, connections, tables and dashboards of the active server, for the explorer views and
// pickers. Answers are kept briefly per server and search text (a view's refresh asks again); failures
// are not kept, so Retry asks again. For the language features (completion, hover, diagnostics, the
// lens), `lastKnown` lookups answer offline (the server unreachable, timing out or unavailable) with the
// last answer for that server and name, however old; the views show the failure. No vscode here.
import { isDatagrokError } from '../../api/errors';
import type { ConnectionInfo, FuncInfo, ProjectInfo, TableInfo } from '../../api/types';
import type { DatagrokApi } from '../../api/datagrokApi';
import { markLoaded } from '../answerAge';
import { Emitter } from '../events';
import { RecentResults } from '../recentResults';
import { PerSession, scopeOf, type ServerSession } from '../session';

/** How long a list is reused before it is asked again (a view refresh always asks again). */
const LIST_TTL_MS = 60_000;
/** At most this many last answers are kept for offline use. */
const LAST_KNOWN = 500;

function offline(e: unknown): boolean {
  return isDatagrokError(e, 'network') || isDatagrokError(e, 'timeout') || isDatagrokError(e, 'unavailable');
}

/** The recent answers of one list. */
function recent<T>(ttl = LIST_TTL_MS) {
  return new RecentResults<T>(ttl);
}

/** What the catalog knows of one session. */
function sessionState() {
  return {
    lists: lists(),
    /** The last answer per list and key, for when the server cannot be reached (kept across reloads, not across sessions). */
    lastKnown: new Map<string, unknown>(),
  };
}

function lists() {
  return {
    functions: recent<FuncInfo[]>(),
    signatures: recent<FuncInfo>(5 * LIST_TTL_MS),
    connections: recent<ConnectionInfo[]>(),
    tables: recent<TableInfo[]>(),
    projects: recent<ProjectInfo[]>(),
  };
}

type Lists = ReturnType<typeof lists>;

export class Catalog {
  private readonly state: PerSession<ReturnType<typeof sessionState>>;
  private readonly changed = new Emitter<void>();
  /** Fires after reload(): views ask again. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly session: ServerSession) {
    this.state = new PerSession(session, sessionState);
  }

  private async keyed<T>(list: keyof Lists, key: string, load: (api: DatagrokApi) => Promise<T>, lastKnown = false): Promise<T> {
    const state = this.state.get();
    const cache = state.lists[list] as unknown as RecentResults<T>;
    const scope = scopeOf(this.session);
    const api = await this.session.client();
    const full = `${api.baseUrl}|${key}`;
    const known = `${list}|${full}`;
    try {
      const value = await scope.guard(cache.get(full, async () => markLoaded(await load(api))));
      state.lastKnown.delete(known);
      state.lastKnown.set(known, value);
      if (state.lastKnown.size > LAST_KNOWN) state.lastKnown.delete(state.lastKnown.keys().next().value as string);
      return value;
    } catch (e) {
      if (lastKnown && offline(e) && state.lastKnown.has(known)) return state.lastKnown.get(known) as T;
      throw e;
    }
  }

  /** Functions matching a smart-search text (all without one), sorted by package then name. */
  searchFunctions(text = ''): Promise<FuncInfo[]> {
    return this.keyed('functions', text.trim(), async (api) => sortFunctions(await api.listFunctions(text.trim() || undefined)));
  }

  /** One function with its signature (inputs and outputs). */
  func(idOrName: string): Promise<FuncInfo> {
    return this.keyed('signatures', idOrName, (api) => api.getFunction(idOrName));
  }

  /** As `func`, but offline the last signature known for it (however old), for the language features. */
  funcOrLastKnown(idOrName: string): Promise<FuncInfo> {
    return this.keyed('signatures', idOrName, (api) => api.getFunction(idOrName), true);
  }

  /** As `searchFunctions('')`, but offline the last list known (however old), for the language features. */
  allFunctionsOrLastKnown(): Promise<FuncInfo[]> {
    return this.keyed('functions', '', async (api) => sortFunctions(await api.listFunctions(undefined)), true);
  }

  /** Every function as last listed in this session (however old), for a pick to show at once while it is listed again; undefined before the first list. */
  async lastListedFunctions(): Promise<FuncInfo[] | undefined> {
    const api = await this.session.client();
    return this.state.get().lastKnown.get(`functions|${api.baseUrl}|`) as FuncInfo[] | undefined;
  }

  /** The file-share connections: the roots of connector files. */
  fileShares(): Promise<ConnectionInfo[]> {
    return this.keyed('connections', 'files', async (api) =>
      (await api.listConnections()).filter((c) => (c.dataSource ?? 'Files').toLowerCase() === 'files').sort((a, b) => a.nqName.localeCompare(b.nqName)),
    );
  }

  /** Every connection (file shares and databases), for query headers; offline the last list known. */
  allConnections(): Promise<ConnectionInfo[]> {
    return this.keyed('connections', 'all', (api) => api.listDataConnections(), true);
  }

  /** The server's tables (everything, or those matching `text`). */
  listTables(text = ''): Promise<TableInfo[]> {
    return this.keyed('tables', text, (api) => api.listTables({ text: text || undefined }));
  }

  /** The server's dashboards (projects with isDashboard). */
  listDashboards(text = ''): Promise<ProjectInfo[]> {
    return this.keyed('projects', text, async (api) => (await api.listProjects({ text: text || undefined })).filter((p) => p.isDashboard));
  }

  /** Forgets every answer and tells listeners to ask again. */
  reload(): void {
    this.state.get().lists = lists();
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

export function sortFunctions(funcs: readonly FuncInfo[]): FuncInfo[] {
  return [...funcs].sort((a, b) => collator.compare(a.package, b.package) || collator.compare(a.name, b.name));
}

/** Functions grouped by package, packages in order. */
export function byPackage(funcs: readonly FuncInfo[]): Map<string, FuncInfo[]> {
  const groups = new Map<string, FuncInfo[]>();
  for (const f of sortFunctions(funcs)) {
    const list = groups.get(f.package);
    if (list) list.push(f);
    else groups.set(f.package, [f]);
  }
  return groups;
}

// Tables and dashboards pushed or created from this machine, remembered per server (in VS Code's global
// state, so a reload or another workspace does not forget them) so that the views of a server without
// list routes, and later picks (open a table, build a dashboard, share it), can offer them. A Model: it
// owns the data and never calls window.*.
import type { CreationResult } from '../api/types';
import type { KeyValueStore } from './session';

export interface RememberedEntity {
  ID: string;
  name: string;
  URL: string;
  /** The server's base URL: entities of one server are never offered for another. */
  server: string;
  /** ISO date-time of the last push or creation. */
  at: string;
}

const LIMIT = 50;

/** One list (tables or dashboards), newest first, one entry per server and ID. */
export class RecentEntities {
  private migration: Promise<void> | undefined;

  constructor(
    /** Where the list lives: the global state (per machine, across workspaces). */
    private readonly state: KeyValueStore,
    private readonly kind: 'tables' | 'dashboards',
    /** Where earlier versions kept it (the workspace state): its entries move over once. */
    private readonly legacy?: KeyValueStore,
  ) {}

  private get key(): string {
    return `datagrok.recent.${this.kind}`;
  }

  private legacyEntries(): RememberedEntity[] {
    return this.legacy?.get<RememberedEntity[] | undefined>(this.key, undefined) ?? [];
  }

  /** The stored entries, with any not yet migrated from the workspace state (newest first). */
  private all(): RememberedEntity[] {
    return merge(this.state.get<RememberedEntity[]>(this.key, []), this.legacyEntries());
  }

  /** Moves the workspace state's entries into the global state, once (later calls wait for the first). */
  migrate(): Promise<void> {
    this.migration ??= (async () => {
      const old = this.legacyEntries();
      if (old.length === 0 || !this.legacy) return;
      await this.state.update(this.key, this.all().slice(0, LIMIT));
      await this.legacy.update(this.key, undefined);
    })().catch(() => {
      // Tried again next time; until then the workspace entries are still read (nothing is lost).
      this.migration = undefined;
    });
    return this.migration;
  }

  /** Newest first, for the given server only. */
  list(server: string): RememberedEntity[] {
    return this.all().filter((e) => e.server === server);
  }

  /** The remembered entry of that ID on that server, if any (for its web address). */
  find(server: string, id: string): RememberedEntity | undefined {
    return this.list(server).find((e) => e.ID === id);
  }

  async remember(server: string, result: CreationResult): Promise<void> {
    await this.migrate();
    const entry: RememberedEntity = { ID: result.ID, name: result.name, URL: result.URL, server, at: new Date().toISOString() };
    const rest = this.all().filter((e) => !(e.server === server && e.ID === result.ID));
    await this.state.update(this.key, [entry, ...rest].slice(0, LIMIT));
  }
}

/** One entry per server and ID (the newer wins), newest first. */
function merge(a: readonly RememberedEntity[], b: readonly RememberedEntity[]): RememberedEntity[] {
  if (b.length === 0) return [...a];
  const byKey = new Map<string, RememberedEntity>();
  for (const e of [...a, ...b]) {
    const key = `${e.server}\n${e.ID}`;
    const known = byKey.get(key);
    if (!known || known.at < e.at) byKey.set(key, e);
  }
  return [...byKey.values()].sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : 0));
}

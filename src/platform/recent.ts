// Tables and dashboards made from this workspace, remembered per server so that later picks (open a
// table, build a dashboard, share it) can offer them. A Model: it owns the data and never calls window.*.
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

/** One list (tables or dashboards) in the workspace state, newest first, one entry per ID. */
export class RecentEntities {
  constructor(
    private readonly state: KeyValueStore,
    private readonly kind: 'tables' | 'dashboards',
  ) {}

  private get key(): string {
    return `datagrok.recent.${this.kind}`;
  }

  private all(): RememberedEntity[] {
    return this.state.get<RememberedEntity[]>(this.key, []);
  }

  /** Newest first, for the given server only. */
  list(server: string): RememberedEntity[] {
    return this.all().filter((e) => e.server === server);
  }

  async remember(server: string, result: CreationResult): Promise<void> {
    const entry: RememberedEntity = { ID: result.ID, name: result.name, URL: result.URL, server, at: new Date().toISOString() };
    const rest = this.all().filter((e) => !(e.server === server && e.ID === result.ID));
    await this.state.update(this.key, [entry, ...rest].slice(0, LIMIT));
  }
}

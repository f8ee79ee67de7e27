// The platform's entities behind the internal routes grok uses (README "Entities for grok s"): connections,
// projects, queries, scripts, tables, views and layouts. The seeded ones are derived from the other stores
// (file shares, tables, dashboards, the function library); a save is kept here, by id, over them, and a delete
// hides a derived one. Tags (`POST /entities/tag`) and shares are kept per entity id.
import { ApiError, isUuid } from './http';
import type { Share } from './tables';
import { type Json, uuidFrom } from './entity-json';

export const ENTITY_TYPES = ['DataConnection', 'Project', 'DataQuery', 'Script', 'TableInfo', 'ViewInfo', 'ViewLayout'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** Keys the server owns: kept from the stored row on a save, never taken from the body. */
const SERVER_KEYS = ['createdOn', 'updatedOn', 'author', 'entityTags'];

/**
 * Types whose rows carry a server-computed `nqName` (namespace + name). Views and layouts carry none: a real
 * server answers a layout with the keys it was saved with (Datagrok's public repository, a layout as the
 * platform serialises it: `#type, id, name, friendlyName, viewStateMap, columns, author, createdOn`), so a
 * save adds none to them either — `grok s diff` hashes every key it does not drop, `nqName` included.
 */
const NQ_NAMED: ReadonlySet<EntityType> = new Set(['DataConnection', 'Project', 'DataQuery', 'Script', 'TableInfo']);

export class EntityStore {
  /** Saved rows (the body as sent, plus `#type`, namespace, nqName where the type has one, dates), over the derived ones. */
  readonly saved = new Map<string, Json>();
  readonly deleted = new Set<string>();
  readonly tags = new Map<string, Set<string>>();
  readonly shares = new Map<string, { shares: Share[] }>();
  /** Bytes sent by `POST /tables/data?id=` before the TableInfo is saved. */
  readonly pendingTableData = new Map<string, Buffer>();

  constructor(
    /** The seeded rows of a type, derived from the other stores. */
    private readonly derived: (type: EntityType) => Json[],
    /** The author stamped on a save. */
    private readonly author: () => Json,
  ) {}

  reset(): void {
    this.saved.clear();
    this.deleted.clear();
    this.tags.clear();
    this.shares.clear();
    this.pendingTableData.clear();
  }

  /** Every visible row of a type, with its tags as `entityTags` (as real servers send them). */
  all(type: EntityType): Json[] {
    const own = [...this.saved.values()].filter((j) => j['#type'] === type);
    const base = this.derived(type).filter((j) => !this.deleted.has(String(j.id)) && !this.saved.has(String(j.id)));
    return [...base, ...own].map((j) => this.decorate(j));
  }

  get(type: EntityType, id: string): Json | undefined {
    const lower = id.toLowerCase();
    return this.all(type).find((j) => j.id === lower);
  }

  /** By id or (for the routes that take names, e.g. `/projects/{name}`) by name or nqName. */
  require(type: EntityType, idOrName: string): Json {
    const lower = idOrName.toLowerCase();
    const found =
      this.get(type, idOrName) ??
      (isUuid(idOrName) ? undefined : this.all(type).find((j) => String(j.name).toLowerCase() === lower || String(j.nqName ?? '').toLowerCase() === lower));
    if (!found) throw new ApiError(404, `${type} ${idOrName} not found`);
    return found;
  }

  /** Any entity by id, whatever its type. */
  find(id: string): Json | undefined {
    for (const type of ENTITY_TYPES) {
      const found = this.get(type, id);
      if (found) return found;
    }
    return undefined;
  }

  /** True when the row was saved through the routes (not only seeded). */
  isSaved(id: string): boolean {
    return this.saved.has(id.toLowerCase());
  }

  /**
   * Save-or-update by `id` (a new id is kept, as grok relies on); a name another row of the type holds in the
   * same namespace is refused, as real servers refuse it. Answers the stored row.
   */
  save(type: EntityType, body: unknown, newId: () => string): Json {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(400, `The body must be a ${type} JSON object`);
    const json = { ...(body as Json) };
    const name = typeof json.name === 'string' ? json.name.trim() : '';
    if (!name) throw new ApiError(400, `A ${type} needs a name`);
    const id = typeof json.id === 'string' && isUuid(json.id) ? json.id.toLowerCase() : newId();
    const existing = this.get(type, id);
    const namespace = typeof json.namespace === 'string' ? json.namespace : typeof existing?.namespace === 'string' ? existing.namespace : '';
    const clash = this.all(type).find((j) => j.id !== id && String(j.name).toLowerCase() === name.toLowerCase() && (j.namespace ?? '') === namespace);
    if (clash) throw new ApiError(400, `A ${type} named ${namespace}${name} already exists (${clash.id})`);
    const now = new Date().toISOString();
    for (const k of SERVER_KEYS) delete json[k];
    const row: Json = {
      ...json,
      '#type': type,
      id,
      name,
      namespace,
      ...(NQ_NAMED.has(type) ? { nqName: `${namespace}${name}` } : {}),
      createdOn: existing?.createdOn ?? now,
      updatedOn: now,
      author: existing?.author ?? this.author(),
    };
    this.saved.set(id, row);
    this.deleted.delete(id);
    return this.decorate(row);
  }

  delete(type: EntityType, id: string): void {
    const found = this.require(type, id);
    this.saved.delete(String(found.id));
    this.deleted.add(String(found.id));
  }

  tag(tag: string, ids: string[]): void {
    for (const id of ids) {
      const set = this.tags.get(id.toLowerCase()) ?? new Set<string>();
      set.add(tag);
      this.tags.set(id.toLowerCase(), set);
    }
  }

  /** The share list of an entity of this store (for `POST /public/v1/entities/{id}/shares`). */
  shareTarget(id: string): { shares: Share[] } | undefined {
    if (!this.find(id)) return undefined;
    const key = id.toLowerCase();
    const target = this.shares.get(key) ?? { shares: [] };
    this.shares.set(key, target);
    return target;
  }

  private decorate(j: Json): Json {
    const tags = [...(this.tags.get(String(j.id)) ?? [])].sort();
    return { ...j, entityTags: tags.map((tag) => ({ id: uuidFrom(`tag:${j.id}:${tag}`), tag })) };
  }
}

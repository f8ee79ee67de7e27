// The internal entity routes (base /api) that Datagrok's web client and the grok CLI's `s pull | diff | push`
// use: per entity type list / get / save / delete, and the lookups around them (entity by id, by namespace and
// name, permissions, tags, project relations, server info). Real servers answer a missing or refused entity
// with HTTP 200 and an ApiError body: the transport turns that into a DatagrokError, `get` reads a missing one
// as null.
import { DatagrokError, isDatagrokError } from './errors';
import type { Transport } from './http';
import { expectList, expectObject } from './shapes';
import { collect, TransferCounter } from './transfer';
import type { CallOptions } from './types';

/** An entity's JSON exactly as the server sends it (keys are read one by one, without a schema). */
export type EntityJson = Record<string, unknown>;

export interface ServerInfo {
  version: string;
  commit?: string;
}

/** The entity routes of one server, over the client's transport (and key). */
export class EntityRoutes {
  constructor(private readonly http: Transport) {}

  /** `GET route?…` one page; `page` counts from 1 as the server's paging does. */
  async list(route: string, query: Record<string, string | undefined> = {}, options: CallOptions = {}): Promise<EntityJson[]> {
    const what = `Listing ${route}`;
    return expectList<EntityJson>(await this.http.json<unknown>({ method: 'GET', path: route, query, what, signal: options.signal }), what);
  }

  /** Every page of a list. */
  async listAll(route: string, query: Record<string, string | undefined> = {}, options: CallOptions = {}, pageSize = 500): Promise<EntityJson[]> {
    const all: EntityJson[] = [];
    for (let page = 1; ; page++) {
      const batch = await this.list(route, { ...query, limit: String(pageSize), page: String(page) }, options);
      all.push(...batch);
      if (batch.length < pageSize) return all;
    }
  }

  /** `GET route/{id}`; null when the server has no such entity. */
  async get(route: string, id: string, options: CallOptions = {}): Promise<EntityJson | null> {
    const what = `Reading ${route}/${id}`;
    try {
      return expectObject<EntityJson>(await this.http.json<unknown>({ method: 'GET', path: `${route}/${encodeURIComponent(id)}`, what, signal: options.signal }), what);
    } catch (e) {
      if (isDatagrokError(e, 'notFound')) return null;
      throw e;
    }
  }

  /** `POST route` with the entity (its `id` set): save or update; answers the saved entity. */
  async save(route: string, json: EntityJson, options: CallOptions & { query?: Record<string, string> } = {}): Promise<EntityJson> {
    const what = `Saving ${String(json.name ?? json.id ?? 'an entity')} to ${route}`;
    const answer = await this.http.json<unknown>({
      method: 'POST',
      path: route,
      query: options.query,
      what,
      body: JSON.stringify(json),
      contentType: 'application/json',
      signal: options.signal,
    });
    return answer && typeof answer === 'object' && !Array.isArray(answer) ? (answer as EntityJson) : json;
  }

  async remove(route: string, id: string, options: CallOptions = {}): Promise<void> {
    await this.http.empty({ method: 'DELETE', path: `${route}/${encodeURIComponent(id)}`, what: `Deleting ${route}/${id}`, signal: options.signal });
  }

  /** `GET /entities/{id}` (an array of one typed entity); null when nothing on the server has that id. */
  async entity(id: string, options: CallOptions = {}): Promise<EntityJson | null> {
    const what = `Looking up entity ${id}`;
    try {
      const answer = await this.http.json<unknown>({ method: 'GET', path: `/entities/${encodeURIComponent(id)}`, what, signal: options.signal });
      const first = Array.isArray(answer) ? answer[0] : answer;
      return first && typeof first === 'object' ? (first as EntityJson) : null;
    } catch (e) {
      if (isDatagrokError(e, 'notFound')) return null;
      throw e;
    }
  }

  /** `GET /entities?namespace=&name=`: the namespace is sent even when empty (the root namespace). */
  async byName(namespace: string, name: string, options: CallOptions = {}): Promise<EntityJson[]> {
    return this.list('/entities', { namespace, name }, options);
  }

  async serverInfo(options: CallOptions = {}): Promise<ServerInfo> {
    const raw = await this.http.json<unknown>({ method: 'GET', path: '/info/server', what: 'Reading the server version', signal: options.signal });
    const info = (typeof raw === 'string' ? JSON.parse(raw) : raw) as EntityJson;
    return { version: String(info?.Version ?? ''), commit: typeof info?.Commit === 'string' ? info.Commit : undefined };
  }

  /** The signed-in user (internal route): `project.name` is the user's own namespace. */
  async currentUser(options: CallOptions = {}): Promise<EntityJson> {
    const what = 'Reading the current user';
    return expectObject<EntityJson>(await this.http.json<unknown>({ method: 'GET', path: '/users/current', what, signal: options.signal }), what);
  }

  /** Grants on an entity (`all=true` is the listing that carries the permission's name). */
  permissions(entityId: string, options: CallOptions = {}): Promise<EntityJson[]> {
    return this.list('/privileges/permissions', { entityId, all: 'true' }, options);
  }

  async tag(tag: string, ids: string[], options: CallOptions = {}): Promise<void> {
    await this.http.json<unknown>(
      {
        method: 'POST',
        path: '/entities/tag',
        query: { tag },
        what: `Tagging ${ids.length} entities with ${tag}`,
        body: JSON.stringify(ids),
        contentType: 'application/json',
        signal: options.signal,
      },
      true,
    );
  }

  /** Groups whose name or friendly name contains `query` (the public lookup grok resolves members with). */
  lookupGroups(query: string, options: CallOptions = {}): Promise<EntityJson[]> {
    return this.list('/public/v1/groups/lookup', { query }, options);
  }

  /** A group with its relations (`children`, `parents`) from the public route; null when there is none. */
  group(id: string, options: CallOptions = {}): Promise<EntityJson | null> {
    return this.get('/public/v1/groups', id, options);
  }

  /** Saves a group with its relations (`saveRelations=true`: its `children` are what it keeps). */
  saveGroupRelations(json: EntityJson, options: CallOptions = {}): Promise<EntityJson> {
    return this.save('/public/v1/groups', json, { ...options, query: { saveRelations: 'true' } });
  }

  /** A file's or table's bytes (`/tables/{id}/data`). */
  bytes(path: string, options: CallOptions = {}): Promise<Uint8Array> {
    return this.http.stream(
      { method: 'GET', path, what: `Reading ${path}`, signal: options.signal },
      (body) => collect(body, undefined, new TransferCounter(undefined, undefined), () => new DatagrokError('tooLarge', `Reading ${path} failed: too large.`)),
      { value: false },
    );
  }

  async putBytes(path: string, query: Record<string, string>, bytes: Uint8Array, options: CallOptions = {}): Promise<void> {
    await this.http.json<unknown>(
      { method: 'POST', path, query, what: `Writing ${path}`, body: bytes, contentType: 'application/octet-stream', contentLength: bytes.byteLength, signal: options.signal },
      true,
    );
  }
}

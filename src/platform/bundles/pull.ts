// What a pull brings (GROK_S.md "Migrating entities between instances"): the selection (ids, qualified names,
// or a smart-search text over some types), each entity read whole from its route, then its dependencies — a
// query's connection, a project's tables, views and layouts, the groups that hold grants (with their members
// by login) — and what it points at but leaves on the server (externals, found again by name on a push).
// Nothing is written here: the caller lists the result first.
import type { EntityJson, EntityRoutes } from '../../api/entities';
import type { BundleEntity, Manifest } from './bundleFolder';
import { normalize } from './normalize';
import { type Json, nqNameOf, resolveType, TYPES, untransferable } from './registry';
import { pool, UUID_RE, uuidsIn } from './uuids';

export type Selection = string[] | { text?: string; types?: string[] };

export interface Note {
  name: string;
  entityType: string;
  action: 'warn' | 'info';
  reason: string;
  detail?: string;
}

export interface PullResult {
  /** In pull order: the selection first, then what it depends on. */
  entities: Map<string, BundleEntity>;
  /** Why something selected or depended on stays behind. */
  notes: Note[];
  externals: NonNullable<Manifest['externals']>;
  bytes: Map<string, Uint8Array>;
  source: Manifest['source'];
  args: string[];
}

export type Progress = (message: string) => void;

const CONCURRENCY = 12;
const ALL_USERS = 'a4b45840-9a50-11e6-9cc9-8546b8bf62e6';
const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Json) : undefined);

/** A selection checked before anything is asked of the server: empty or "everything" is refused. */
export function checkSelection(selection: unknown): Selection {
  if (Array.isArray(selection)) {
    const items = selection.map((s) => (typeof s === 'string' ? s.trim() : '')).filter(Boolean);
    if (items.length === 0 || items.length !== selection.length) throw new Error('selection must name at least one entity: ids or qualified names such as "Samples:TopCustomers".');
    return items;
  }
  const s = obj(selection);
  if (!s) throw new Error('selection must be a list of entity ids or names, or { text?, types? }.');
  const types = s.types === undefined ? undefined : Array.isArray(s.types) ? s.types.map(String) : undefined;
  if (s.types !== undefined && !types)
    throw new Error('selection.types must be a list of entity types (query, script, connection, project, dashboard, table, layout, view, group).');
  for (const t of types ?? []) resolveType(t);
  const text = typeof s.text === 'string' ? s.text.trim() : undefined;
  if (!text && !types?.length) throw new Error('Refusing to pull the whole server: give selection.text or selection.types (or a list of entities).');
  return { text, types };
}

export async function collectPull(api: EntityRoutes, baseUrl: string, selection: Selection, progress: Progress = () => undefined, signal?: AbortSignal): Promise<PullResult> {
  const opts = { signal };
  const notes: Note[] = [];
  const externals: PullResult['externals'] = [];
  const picked = new Map<string, BundleEntity>();

  /** Reads the entity whole; what never travels is noted (and, when depended on, kept as an external). */
  const take = async (type: string, id: string, known: EntityJson | undefined, dependency: boolean) => {
    if (!TYPES[type]) {
      notes.push({ name: String(known?.name ?? id), entityType: type || '?', action: 'warn', reason: 'type_unsupported' });
      return undefined;
    }
    // Ids become URLs and file names: a server's id that is not a UUID (`../../x`) is refused, never followed.
    if (!UUID_RE.test(id)) {
      notes.push({
        name: String(known?.name ?? id),
        entityType: type,
        action: 'warn',
        reason: 'bad_id',
        detail: `the server gave it the id ${JSON.stringify(id.slice(0, 80))}, which is not a UUID; it was not pulled`,
      });
      return undefined;
    }
    const json = await api.get(TYPES[type].route, id, opts);
    if (json && String(json.id).toLowerCase() !== id.toLowerCase()) {
      notes.push({
        name: String(json.name ?? known?.name ?? id),
        entityType: type,
        action: 'warn',
        reason: 'bad_id',
        detail: `asked for ${id}, the server answered with the id ${JSON.stringify(String(json.id).slice(0, 80))}; it was not pulled`,
      });
      return undefined;
    }
    if (!json) {
      notes.push({ name: String(known?.name ?? id), entityType: type, action: 'warn', reason: 'fetch_failed', detail: 'the server did not answer for it' });
      return undefined;
    }
    const refused = untransferable(type, json);
    if (refused) {
      notes.push({ name: nqNameOf(json), entityType: type, ...refused });
      if (dependency) externals.push({ id, type, nqName: nqNameOf(json) });
      return undefined;
    }
    return json;
  };

  // 1. The selection
  progress('Reading the selection');
  if (Array.isArray(selection)) {
    for (const token of selection) {
      const lite = await resolveEntity(api, token, opts);
      const json = await take(String(lite['#type']), String(lite.id), lite, false);
      if (json) picked.set(String(json.id), { type: String(lite['#type']), json });
    }
  } else {
    const types = selection.types?.length ? [...new Set(selection.types.map(resolveType))] : Object.keys(TYPES);
    for (const type of types) {
      const listed = await api.listAll(TYPES[type].route, { text: selection.text || undefined }, opts);
      const wanted = listed.filter((lite) => !(selection.types ?? []).some((t) => t.toLowerCase() === 'dashboard') || type !== 'Project' || lite.isDashboard === true);
      await pool(wanted, CONCURRENCY, async (lite) => {
        if (picked.has(String(lite.id))) return;
        const json = await take(type, String(lite.id), lite, false);
        if (json) picked.set(String(json.id), { type, json });
      });
    }
  }

  // 2. Dependencies, a generation at a time
  const out = new Map<string, BundleEntity>();
  const seen = new Set<string>(picked.keys());
  let queue: Array<{ type: string; id: string; json?: Json }> = [...picked].map(([id, e]) => ({ type: e.type, id, json: e.json }));
  while (queue.length) {
    const next: typeof queue = [];
    const enqueue = (type: string, id: string) => {
      if (!id || seen.has(id) || !TYPES[type]) return;
      seen.add(id);
      next.push({ type, id });
    };
    await pool(queue, CONCURRENCY, async ({ type, id, json: known }) => {
      const json = known ?? (await take(type, id, undefined, true));
      if (!json) return;
      out.set(id, { type, json });
      progress(`Walking dependencies: ${out.size}`);
      if (type === 'Project') {
        const relations = await api.listAll('/projects/relations', { projectId: id, include: 'entity' }, opts).catch(() => (json.relations as Json[] | undefined) ?? []);
        for (const r of relations) enqueue(String(obj(r.entity)?.['#type'] ?? ''), String(obj(r.entity)?.id ?? ''));
        for (const route of ['/views', '/layouts']) for (const v of await api.listAll(route, { projectId: id }, opts)) enqueue(String(v['#type']), String(v.id));
      }
      for (const dep of TYPES[type].deps?.(json) ?? []) enqueue(dep.type, dep.id);
    });
    queue = next;
  }

  // 3. Grants: the groups that hold them travel too, with their members by login
  await expandGrants(api, out, notes, opts, progress);

  // 4. What the bundle points at but leaves behind
  const mine = new Set(out.keys());
  const referenced = new Set<string>();
  for (const [, { type, json }] of out) for (const id of uuidsIn(normalize(type, json))) referenced.add(id);
  for (const e of externals) mine.add(e.id);
  await pool(
    [...referenced].filter((id) => !mine.has(id)),
    CONCURRENCY,
    async (id) => {
      const found = await api.entity(id, opts).catch(() => null);
      if (found && TYPES[String(found['#type'])]) externals.push({ id, type: String(found['#type']), nqName: nqNameOf(found) });
    },
  );
  externals.sort((a, b) => a.id.localeCompare(b.id));

  // 5. Table data
  const bytes = new Map<string, Uint8Array>();
  for (const [id, { type, json }] of out) {
    const spec = TYPES[type].bytes;
    if (!spec) continue;
    progress(`Reading the data of ${nqNameOf(json)}`);
    try {
      bytes.set(id, await api.bytes(spec.get(id), opts));
    } catch (e) {
      notes.push({ name: nqNameOf(json), entityType: type, action: 'warn', reason: 'no_data', detail: (e as Error).message });
    }
  }

  const info = await api.serverInfo(opts);
  const user = await api.currentUser(opts);
  const project = obj(user.project);
  const args = Array.isArray(selection)
    ? ['pull', ...selection]
    : ['pull', ...(selection.types?.length ? ['--type', selection.types.join(',')] : []), ...(selection.text ? ['--filter', selection.text] : [])];
  return {
    entities: out,
    notes,
    externals,
    bytes,
    source: { url: baseUrl, version: info.version, commit: info.commit, userNamespace: project?.name ? `${project.name}:` : '' },
    args,
  };
}

/** A UUID, or `Namespace:Name` (a bare name: the root namespace); one match or a clear refusal. */
export async function resolveEntity(api: EntityRoutes, token: string, opts: { signal?: AbortSignal }): Promise<EntityJson> {
  if (UUID_RE.test(token)) {
    const one = await api.entity(token, opts);
    if (!one) throw new Error(`Nothing on the server has the id ${token}.`);
    return one;
  }
  const cut = token.lastIndexOf(':');
  const namespace = cut === -1 ? '' : token.slice(0, cut + 1);
  const name = token.slice(cut + 1);
  const matches = (await api.byName(namespace, name, opts)).filter((m) => m.namespace === undefined || m.namespace === null || m.namespace === namespace);
  if (!matches.length) throw new Error(`Nothing on the server is named "${token}"${cut === -1 ? ' in the root namespace: qualify it, e.g. Samples:TopCustomers' : ''}.`);
  if (matches.length > 1) throw new Error(`"${token}" names ${matches.length} entities (${matches.map((m) => `${m['#type']} ${m.id}`).join(', ')}): select one by id.`);
  return matches[0];
}

const visible = (g: Json | null | undefined): g is Json => !!g?.id && g.personal !== true && g.hidden !== true;

async function expandGrants(api: EntityRoutes, out: Map<string, BundleEntity>, notes: Note[], opts: { signal?: AbortSignal }, progress: Progress): Promise<void> {
  const cache = new Map<string, Promise<EntityJson | null>>();
  const group = (id: string) => {
    if (!cache.has(id)) cache.set(id, api.get('/groups', id, opts));
    return cache.get(id) as Promise<EntityJson | null>;
  };
  const queue: Json[] = [...out.values()].filter((e) => e.type === 'UserGroup').map((e) => e.json);
  progress('Reading grants');
  await pool(
    [...out].filter(([, e]) => e.type !== 'UserGroup'),
    CONCURRENCY,
    async ([id, e]) => {
      const grants: Array<{ group: string; permission: string }> = [];
      for (const perm of await api.permissions(id, opts)) {
        const gid = String(obj(perm.userGroup)?.id ?? '');
        const name = obj(perm.permission)?.name;
        if (perm.entityId !== id || !gid || typeof name !== 'string') continue;
        const g = await group(gid);
        if (!visible(g)) continue;
        grants.push({ group: String(g.friendlyName ?? g.name), permission: name });
        queue.push(g);
      }
      if (grants.length) e.json._grants = grants;
    },
  );
  const done = new Set<string>();
  while (queue.length) {
    const g = queue.shift() as Json;
    const gid = String(g.id);
    if (done.has(gid)) continue;
    if (!UUID_RE.test(gid)) {
      done.add(gid);
      notes.push({
        name: String(g.friendlyName ?? g.name ?? gid),
        entityType: 'UserGroup',
        action: 'warn',
        reason: 'bad_id',
        detail: `the server gave it the id ${JSON.stringify(gid.slice(0, 80))}, which is not a UUID; it was not pulled`,
      });
      continue;
    }
    done.add(gid);
    if (untransferable('UserGroup', g)) {
      notes.push({ name: String(g.friendlyName ?? g.name), entityType: 'UserGroup', action: 'info', reason: 'platform_group' });
      continue;
    }
    if (!out.has(gid)) out.set(gid, { type: 'UserGroup', json: g });
    const json = (out.get(gid) as BundleEntity).json;
    const members: Json[] = [];
    for (const rel of (json.children as Json[] | undefined) ?? []) {
      const child = obj(rel.child)?.id ? await group(String(obj(rel.child)?.id)) : null;
      if (!child) continue;
      const isAdmin = rel.isAdmin === true;
      if (child.personal !== true) {
        if (!visible(child)) continue;
        members.push({ kind: 'group', name: child.friendlyName ?? child.name, isAdmin });
        queue.push(child);
        continue;
      }
      const user = await api.get(`/groups/${encodeURIComponent(String(child.id))}`, 'user', opts).catch(() => null);
      if (user?.login) members.push({ kind: 'user', login: user.login, email: user.email, isAdmin });
      else
        notes.push({
          name: String(json.friendlyName ?? json.name),
          entityType: 'UserGroup',
          action: 'warn',
          reason: 'member_unresolved',
          detail: String(child.friendlyName ?? child.id),
        });
    }
    if (members.length) json._members = members;
    for (const rel of (json.parents as Json[] | undefined) ?? []) {
      const parent = obj(rel.parent)?.id ? await group(String(obj(rel.parent)?.id)) : null;
      if (visible(parent) && parent.id !== ALL_USERS) queue.push(parent);
    }
  }
}

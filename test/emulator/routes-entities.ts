// The internal entity routes Datagrok's own clients use (the grok CLI's `grok s pull | diff | push`, the
// explorer's lists): per type list `GET route?text=&limit=&page=` (page from 1), get `GET route/{id}`, save
// `POST route` with the id set, delete `DELETE route/{id}`; lookups `/entities/{id}`,
// `/entities?namespace=&name=`, `/privileges/permissions`, `POST /entities/tag`; users, packages.
import { randomUUID } from 'node:crypto';
import { userJson } from './entities';
import { type Json, uuidFrom } from './entity-json';
import type { EntityType } from './entity-store';
import { deleteGroup, saveGroup } from './group-save';
import { parseInclude } from './groups';
import { ApiError, type Ctx, pageOf, type Route, readJson, readSmallBody, sendEmpty, sendJson } from './http';
import { search } from './search';
import type { EmulatorState } from './state';

const ROUTES: Array<[EntityType, string]> = [
  ['DataConnection', 'connectors/connections'],
  ['Project', 'projects'],
  ['DataQuery', 'connectors/queries'],
  ['Script', 'scripts'],
  ['TableInfo', 'tables'],
  ['ViewInfo', 'views'],
  ['ViewLayout', 'layouts'],
];

/** Real servers never send a password back: a set one reads as the placeholder. */
const MASKED = '_____________';
function masked(json: Json): Json {
  if (json['#type'] !== 'DataConnection' || typeof json.parameters !== 'object' || json.parameters === null) return json;
  const parameters = { ...(json.parameters as Json) };
  for (const k of Object.keys(parameters)) if (/password|secret/i.test(k) && parameters[k] !== null && parameters[k] !== '') parameters[k] = MASKED;
  return { ...json, parameters };
}

export function entityRoutes(state: EmulatorState): Route[] {
  const { entities, groups, tables } = state;

  const personalProject = (login: string) => ({ id: uuidFrom(`personal-project:${login}`), name: login });
  const userWithProject = (u: (typeof state.users)[number]) => ({ ...userJson(u, groups), project: personalProject(u.login) });

  const list = (type: EntityType, ctx: Ctx): Json[] => {
    let all = entities.all(type);
    const projectId = ctx.query.get('projectId');
    if (projectId) {
      const p = entities.get('Project', projectId);
      const ids = new Set(((p?.relations ?? []) as Json[]).map((r) => String((r.entity as Json)?.id)));
      all = all.filter((j) => ids.has(String(j.id)));
    }
    const tag = ctx.query.get('tags');
    if (tag) all = all.filter((j) => ((j.entityTags ?? []) as Json[]).some((t) => t.tag === tag) || ((j.tags ?? []) as unknown[]).includes(tag));
    const found = search(all as Array<Json & { name: string }>, ctx.query.get('text'));
    return pageOf(found, ctx.query).map(masked);
  };

  const typed: Route[] = ROUTES.flatMap(([type, route]) => {
    const flag = type === 'DataConnection' ? { flag: 'listing' as const } : {};
    return [
      { method: 'GET', path: route, ...flag, handler: (ctx: Ctx) => sendJson(ctx.res, list(type, ctx)) },
      { method: 'GET', path: `${route}/:id`, handler: (ctx: Ctx) => sendJson(ctx.res, masked(entities.require(type, ctx.params.id))) },
      {
        method: 'POST',
        path: route,
        handler: async (ctx: Ctx) => {
          const saved = entities.save(type, await readJson(ctx.req), randomUUID);
          if (type === 'TableInfo') await storeTableData(saved);
          sendJson(ctx.res, masked(saved));
        },
      },
      {
        method: 'DELETE',
        path: `${route}/:id`,
        handler: (ctx: Ctx) => {
          entities.delete(type, ctx.params.id);
          sendEmpty(ctx.res);
        },
      },
    ];
  });

  /** A TableInfo saved after its bytes came (`POST /tables/data?id=`) becomes a table with that data. */
  const storeTableData = async (t: Json) => {
    const id = String(t.id);
    const data = entities.pendingTableData.get(id);
    if (!data) return;
    entities.pendingTableData.delete(id);
    // The namespace is `<owner>:<project>:` (or `<project>:` for a table with no owner).
    const namespace = String(t.namespace ?? '')
      .split(':')
      .filter(Boolean);
    const project = typeof t.projectName === 'string' && t.projectName ? t.projectName : namespace.at(-1) || String(t.name);
    await tables.put(project, String(t.name), data.toString('utf8'), id, namespace.length > 1 ? namespace[0] : '');
  };

  const anyEntity = (id: string): Json | undefined => {
    const e = entities.find(id);
    if (e) return e;
    const g = groups.groups.get(id.toLowerCase());
    return g ? { '#type': 'UserGroup', ...groups.toJson(g, parseInclude(null)) } : undefined;
  };

  const permissions = (entityId: string): Json[] => {
    const shares = tables.findDashboard(entityId)?.shares ?? tables.find(entityId)?.shares ?? entities.shares.get(entityId.toLowerCase())?.shares ?? [];
    return shares.map((s) => ({
      id: uuidFrom(`permission:${entityId}:${s.group}:${s.access}`),
      entityId: entityId.toLowerCase(),
      permission: { name: s.access },
      userGroup: { id: s.group, name: s.groupName },
    }));
  };

  return [
    // Project relations first: `projects/relations` is not a project id
    {
      method: 'GET',
      path: 'projects/relations',
      handler: (ctx) => {
        const p = entities.require('Project', ctx.query.get('projectId') ?? '');
        const include = (ctx.query.get('include') ?? '').includes('entity');
        const rows = ((p.relations ?? []) as Json[]).map((r) => (include ? { ...r, entity: anyEntity(String((r.entity as Json)?.id)) ?? r.entity } : r));
        sendJson(ctx.res, pageOf(rows, ctx.query));
      },
    },
    { method: 'GET', path: 'tables/:id/data', handler: (ctx) => tables.download(ctx.res, entities.require('TableInfo', ctx.params.id).id as string) },
    {
      method: 'POST',
      path: 'tables/data',
      handler: async (ctx) => {
        const id = (ctx.query.get('id') ?? '').toLowerCase();
        if (!id) throw new ApiError(400, 'The id parameter is required');
        const body = Buffer.from(await readSmallBody(ctx.req, 512 * 1024 * 1024));
        if (tables.tables.has(id)) {
          const t = tables.tables.get(id);
          if (t) await tables.put(t.project, t.name, body.toString('utf8'), id, t.owner);
        } else entities.pendingTableData.set(id, body);
        sendEmpty(ctx.res);
      },
    },
    ...typed,

    // Lookups
    {
      method: 'GET',
      path: 'entities/:id',
      handler: (ctx) => {
        const e = anyEntity(ctx.params.id);
        if (!e) throw new ApiError(404, `Entity ${ctx.params.id} not found`);
        sendJson(ctx.res, [masked(e)]);
      },
    },
    {
      method: 'GET',
      path: 'entities',
      handler: (ctx) => {
        const namespace = ctx.query.get('namespace');
        const name = (ctx.query.get('name') ?? '').toLowerCase();
        const all: Json[] = [
          ...(['DataConnection', 'Project', 'DataQuery', 'Script', 'TableInfo', 'ViewInfo', 'ViewLayout'] as const).flatMap((t) => entities.all(t)),
          ...[...groups.groups.values()].map((g) => ({ '#type': 'UserGroup', ...groups.toJson(g, parseInclude(null)) }) as Json),
        ];
        const hits = all.filter(
          (e) => (!name || String(e.name).toLowerCase() === name) && (namespace === null || e.namespace === undefined || e.namespace === null || e.namespace === namespace),
        );
        sendJson(ctx.res, pageOf(hits.map(masked), ctx.query));
      },
    },
    {
      method: 'POST',
      path: 'entities/tag',
      handler: async (ctx) => {
        const tag = ctx.query.get('tag') ?? '';
        const ids = await readJson(ctx.req);
        if (!tag || !Array.isArray(ids)) throw new ApiError(400, 'POST /entities/tag?tag=<tag> takes a JSON array of entity ids');
        entities.tag(tag, ids.map(String));
        sendEmpty(ctx.res);
      },
    },
    { method: 'GET', path: 'privileges/permissions', handler: (ctx) => sendJson(ctx.res, permissions(ctx.query.get('entityId') ?? '')) },

    // Groups, internal: one group with its relations, the user of a personal group, save (`/groups/`), delete
    { method: 'GET', path: 'groups/:id', handler: (ctx) => sendJson(ctx.res, groups.toJson(groups.get(ctx.params.id), parseInclude(null))) },
    {
      method: 'GET',
      path: 'groups/:id/user',
      handler: (ctx) => {
        const g = groups.get(ctx.params.id);
        const u = state.users.find((x) => x.groupId === g.id);
        if (!u) throw new ApiError(404, `Group ${g.name} is not a user's personal group`);
        sendJson(ctx.res, userWithProject(u));
      },
    },
    { method: 'POST', path: 'groups/', handler: async (ctx) => sendJson(ctx.res, saveGroup(groups, await readJson(ctx.req), false)) },
    {
      method: 'DELETE',
      path: 'groups/:id',
      handler: (ctx) => {
        deleteGroup(groups, ctx.params.id);
        sendEmpty(ctx.res);
      },
    },

    // Users (internal, with their personal project, which gives grok the user's namespace); packages: routes-packages.ts
    { method: 'GET', path: 'users/current', handler: (ctx) => sendJson(ctx.res, userWithProject(state.users.find((u) => u.id === state.currentUser) ?? state.users[0])) },
    { method: 'GET', path: 'users', handler: (ctx) => sendJson(ctx.res, pageOf(state.users.map(userWithProject), ctx.query)) },
  ];
}

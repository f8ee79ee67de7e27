// The API routes under /api, as in the reference plus what current servers add (README "Routes").
import type { CreationResult } from '../../src/api/types';
import { connectionJson } from './entities';
import { saveGroup } from './group-save';
import { parseInclude } from './groups';
import { ApiError, type Ctx, optionalFlag, queryFlag, type Route, readJson, sendEmpty, sendJson } from './http';
import { requestMembership, requestsOf, resolveRequest } from './memberships';
import { entityRoutes } from './routes-entities';
import { databaseConnection, functionSaveRoutes } from './routes-functions-save';
import { packageRoutes } from './routes-packages';
import { packageReadRoutes } from './routes-package-reads';
import { platformRoutes } from './routes-platform';
import type { EmulatorState } from './state';

export function apiRoutes(state: EmulatorState): Route[] {
  const { groups, files, tables } = state;
  const V1 = 'public/v1';

  /** A creation result spelt as configured (real servers have been seen with both spellings). */
  const creation = (r: CreationResult): Record<string, string> =>
    state.config.creationResultKeys === 'variant' ? { id: r.ID, 'Grok name': r.name, url: r.URL, markup: r.Markup } : { ...r };
  const call = async (ctx: Ctx) => sendJson(ctx.res, await state.functions.call(ctx.params.name, await readJson(ctx.req), state.runContext()));
  const currentGroup = (ctx: Ctx) => sendJson(ctx.res, groups.toJson(groups.get(groups.currentUserId), parseInclude(ctx.query.get('include'))));

  /** Listing (trailing `/`) or download of a connection's file via the internal connectors route. */
  const connectorFiles = async (ctx: Ctx) => {
    const c = files.connector(ctx.params.id);
    const rest = ctx.rest;
    if (rest.length === 0 || rest[rest.length - 1] === '') {
      sendJson(ctx.res, await files.list(c, rest.slice(0, -1), queryFlag(ctx.query, 'recursive')));
    } else await files.download(ctx.res, c, rest, state.config.chunkedDownloads);
  };

  return [
    { method: 'GET', path: 'info/server', open: true, handler: (ctx) => sendJson(ctx.res, { Version: '1.26.0-emulator', Commit: 'emulator' }) },

    // Packages: grok publish's upload and timestamps, the package lists and published files (what grok test's Node pass reads)
    ...packageRoutes(state),
    ...packageReadRoutes(state),

    // The internal entity routes (grok s pull / diff / push, the explorer's lists)
    ...entityRoutes(state),

    // Beyond the reference, as real servers (dev-key login, users, functions and connections lists, the non-public lists, …)
    ...platformRoutes(state),
    ...functionSaveRoutes(state),

    // Files
    {
      method: 'GET',
      path: `${V1}/files/:connector/*`,
      handler: (ctx) => files.download(ctx.res, files.connector(ctx.params.connector), ctx.rest, state.config.chunkedDownloads),
    },
    {
      method: 'POST',
      path: `${V1}/files/:connector/*`,
      handler: async (ctx) => {
        await files.upload(ctx.req, files.connector(ctx.params.connector), ctx.rest);
        sendEmpty(ctx.res);
      },
    },
    {
      method: 'DELETE',
      path: `${V1}/files/:connector/*`,
      flag: 'deleteFiles',
      handler: async (ctx) => {
        await files.remove(files.connector(ctx.params.connector), ctx.rest);
        sendEmpty(ctx.res);
      },
    },
    {
      method: 'GET',
      path: `${V1}/connections/:name`,
      flag: 'listing',
      handler: (ctx) => {
        try {
          sendJson(ctx.res, connectionJson(files.connector(ctx.params.name)));
        } catch (error) {
          // Not a files connector: a database connection (an exported notebook's queries name one), else the 404.
          const database = databaseConnection(state, ctx.params.name);
          if (!database) throw error;
          sendJson(ctx.res, database);
        }
      },
    },
    { method: 'GET', path: 'connectors/connections/:id/files', flag: 'listing', handler: connectorFiles },
    { method: 'GET', path: 'connectors/connections/:id/files/*', flag: 'listing', handler: connectorFiles },

    // Tables and dashboards
    { method: 'GET', path: `${V1}/tables/:name`, handler: (ctx) => tables.download(ctx.res, ctx.params.name, state.config.chunkedDownloads) },
    { method: 'POST', path: `${V1}/tables/:name`, handler: async (ctx) => sendJson(ctx.res, creation(await tables.upload(ctx.req, ctx.params.name, ctx.origin))) },
    {
      method: 'POST',
      path: `${V1}/dashboards/:name/:tableIds`,
      handler: async (ctx) => {
        const layout = await readJson(ctx.req);
        if (layout !== undefined && (typeof layout !== 'object' || layout === null || Array.isArray(layout))) {
          throw new ApiError(400, 'The layout must be a JSON object');
        }
        sendJson(ctx.res, creation(tables.createDashboard(ctx.params.name, ctx.params.tableIds, layout, ctx.origin)));
      },
    },
    {
      method: 'GET',
      path: `${V1}/dashboards/:id/shares`,
      generation: 'old',
      handler: (ctx) => {
        const d = tables.findDashboard(ctx.params.id);
        if (!d) throw new ApiError(404, `Dashboard ${ctx.params.id} not found`);
        tables.share(d, ctx.query.get('groups'), ctx.query.get('access'), groups, true);
        sendEmpty(ctx.res);
      },
    },
    {
      method: 'POST',
      path: `${V1}/entities/:id/shares`,
      generation: 'new',
      handler: (ctx) => {
        const id = ctx.params.id;
        const target = tables.findDashboard(id) ?? tables.find(id) ?? state.entities.shareTarget(id);
        if (!target) throw new ApiError(404, `Entity ${id} not found`);
        const outcome = tables.share(target, ctx.query.get('groups'), ctx.query.get('access'), groups, false);
        // As real servers: `failed` when nothing could be shared, `partial_success` when some could.
        const nothing = outcome.shared.length + outcome.alreadyShared.length === 0;
        const status = outcome.failed.length === 0 ? 'success' : nothing ? 'failed' : 'partial_success';
        sendJson(ctx.res, { status, ...outcome });
      },
    },

    // Functions
    { method: 'POST', path: `${V1}/functions/:name/call`, generation: 'new', handler: call },

    // Groups (specific paths before `groups/:id`)
    { method: 'GET', path: `${V1}/groups`, handler: (ctx) => sendJson(ctx.res, groups.list(ctx.query.get('text'), parseInclude(ctx.query.get('include')))) },
    { method: 'POST', path: `${V1}/groups`, handler: async (ctx) => sendJson(ctx.res, saveGroup(groups, await readJson(ctx.req), queryFlag(ctx.query, 'saveRelations'))) },
    { method: 'GET', path: `${V1}/groups/lookup`, handler: (ctx) => sendJson(ctx.res, groups.lookup(ctx.query.get('query'))) },
    { method: 'GET', path: `${V1}/groups/current`, generation: 'new', handler: currentGroup },
    {
      method: 'POST',
      path: `${V1}/groups/requests/:id/approve`,
      handler: (ctx) => {
        resolveRequest(groups, ctx.params.id, true);
        sendEmpty(ctx.res);
      },
    },
    {
      method: 'POST',
      path: `${V1}/groups/requests/:id/deny`,
      handler: (ctx) => {
        resolveRequest(groups, ctx.params.id, false);
        sendEmpty(ctx.res);
      },
    },
    { method: 'GET', path: `${V1}/groups/:id`, handler: (ctx) => sendJson(ctx.res, groups.toJson(groups.get(ctx.params.id), parseInclude(ctx.query.get('include')))) },
    { method: 'GET', path: `${V1}/groups/:id/members`, handler: (ctx) => sendJson(ctx.res, groups.members(ctx.params.id, optionalFlag(ctx.query, 'admin'))) },
    { method: 'GET', path: `${V1}/groups/:id/memberships`, handler: (ctx) => sendJson(ctx.res, groups.memberships(ctx.params.id, optionalFlag(ctx.query, 'admin'))) },
    { method: 'POST', path: `${V1}/groups/:id/request`, handler: (ctx) => sendJson(ctx.res, requestMembership(groups, ctx.params.id)) },
    { method: 'GET', path: `${V1}/groups/:id/requests`, handler: (ctx) => sendJson(ctx.res, requestsOf(groups, ctx.params.id)) },
    { method: 'GET', path: `${V1}/user/group`, generation: 'old', handler: currentGroup },

    // The reference function call: `{name}` is a single segment, so it cannot shadow the routes above.
    { method: 'POST', path: `${V1}/:name/call`, generation: 'old', handler: call },
  ];
}

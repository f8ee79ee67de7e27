// Routes beyond the reference that real servers answer and Datagrok's own clients use (README "Beyond the
// reference"). (explorer) marks the ones the explorer views read.
import { randomUUID } from 'node:crypto';
import { connectionJson, findUser, userJson } from './entities';
import { deleteGroup } from './group-save';
import { parseInclude } from './groups';
import { ApiError, type Ctx, pageOf, queryFlag, type Route, readJson, sendEmpty, sendJson } from './http';
import { search } from './search';
import type { EmulatorState } from './state';
import { syncFolder } from './sync';

export function platformRoutes(state: EmulatorState): Route[] {
  const { groups, files } = state;
  const V1 = 'public/v1';

  /** The dev-key login of the grok CLI: the API key for a session token. */
  const login = (ctx: Ctx, given: string | undefined) => {
    if (given !== state.key) throw new ApiError(401, 'Login failed: invalid developer key');
    const token = `emulator-session-${randomUUID()}`;
    state.tokens.add(token);
    sendJson(ctx.res, { isSuccess: true, token });
  };
  const devHeader = (ctx: Ctx) => /^Dev\s+(.+)$/i.exec(ctx.req.headers.authorization ?? '')?.[1]?.trim();
  const connections = (ctx: Ctx) => search(files.connectors.map(connectionJson) as Array<ReturnType<typeof connectionJson> & { name: string }>, ctx.query.get('text'));
  const users = (ctx: Ctx) =>
    search(
      state.users.map((u) => userJson(u, groups)),
      ctx.query.get('text'),
    );

  return [
    // Login and liveness
    { method: 'POST', path: 'users/login/dev', open: true, handler: (ctx) => login(ctx, devHeader(ctx)) },
    { method: 'POST', path: 'users/login/dev/:key', open: true, handler: (ctx) => login(ctx, ctx.params.key) },
    { method: 'GET', path: `${V1}/healthcheck`, handler: (ctx) => sendJson(ctx.res, { status: 'ok', version: '1.26.0-emulator' }) },

    // Users
    { method: 'GET', path: `${V1}/users`, handler: (ctx) => sendJson(ctx.res, users(ctx)) },
    { method: 'GET', path: `${V1}/users/current`, handler: (ctx) => sendJson(ctx.res, userJson(findUser(state.users, state.currentUser), groups)) },
    { method: 'GET', path: `${V1}/users/:idOrLogin`, handler: (ctx) => sendJson(ctx.res, userJson(findUser(state.users, ctx.params.idOrLogin), groups)) },

    // Functions (explorer): the list with a smart-search filter, one function with its signature
    { method: 'GET', path: `${V1}/functions`, handler: (ctx) => sendJson(ctx.res, state.functions.list(ctx.query.get('text'))) },
    { method: 'GET', path: `${V1}/functions/:idOrName`, handler: (ctx) => sendJson(ctx.res, state.functions.get(ctx.params.idOrName)) },

    // Connections (explorer)
    { method: 'GET', path: `${V1}/connections`, flag: 'listing', handler: (ctx) => sendJson(ctx.res, connections(ctx)) },

    // Files: sync a folder
    {
      method: 'POST',
      path: `${V1}/files/sync/:connector/*`,
      handler: async (ctx) => {
        const body = await readJson(ctx.req);
        const recursive = ctx.query.get('recursive') === null ? true : queryFlag(ctx.query, 'recursive');
        await syncFolder(ctx.res, files, files.connector(ctx.params.connector), ctx.rest, { recursive, ext: ctx.query.get('ext') }, body);
      },
    },

    // Tables, projects, dashboards and the connections list the grok CLI pages through: routes-entities.ts

    // Groups: the non-public paged list, and delete
    {
      method: 'GET',
      path: 'groups',
      handler: (ctx) => sendJson(ctx.res, pageOf(groups.list(ctx.query.get('text'), parseInclude(ctx.query.get('include'))), ctx.query)),
    },
    {
      method: 'DELETE',
      path: `${V1}/groups/:id`,
      handler: (ctx) => {
        deleteGroup(groups, ctx.params.id);
        sendEmpty(ctx.res);
      },
    },
  ];
}

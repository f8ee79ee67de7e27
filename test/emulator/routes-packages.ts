// Package publishing as the grok CLI (datagrok-tools 6.7.5 publish.js, utils/dev-key.js) calls it, and the
// package lists (README "Packages"):
// - `GET packages/dev/<name>/timestamps` and `POST packages/dev/<name>?debug=&rebuild=&dropDb=` with
//   `Authorization: Dev <key>` (or a session token); a scoped npm name is two segments (`@scope/name`);
// - the legacy form with the key in the path, `packages/dev/<key>/<name>[/timestamps]`, no header (servers
//   from 1.28 refuse it: absent with `generation: "new"`; the header form is absent with `"old"`, so the CLI
//   falls back as it does on an old server);
// - `GET packages?text=` (with `publishedVersions`), `packages/published/current`, `packages/published/{id}`,
//   and the published files at `packages/published/files/<name>/<version>/<buildHash>/<buildNumber>/<path>`.
import { uuidFrom } from './entity-json';
import { ApiError, type Ctx, queryFlag, type Route, sendBody, sendJson } from './http';
import { readBody, unzip } from './package-zip';
import { search } from './search';
import type { EmulatorState } from './state';

/** `[name]` or `[@scope, name]` as the whole rest of a path, else undefined. */
function npmName(segs: string[]): string | undefined {
  if (segs.length === 1 && segs[0] !== '' && !segs[0].startsWith('@')) return segs[0];
  if (segs.length === 2 && segs[0].startsWith('@') && segs[1] !== '') return `${segs[0]}/${segs[1]}`;
  return undefined;
}

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  map: 'application/json; charset=utf-8',
  json: 'application/json; charset=utf-8',
  css: 'text/css; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  png: 'image/png',
};

export function packageRoutes(state: EmulatorState): Route[] {
  const store = state.packages;
  const unauthorized = () => new ApiError(401, 'Unauthorized: invalid developer key');
  const publisher = () => ({ id: state.currentUser, login: state.users.find((u) => u.id === state.currentUser)?.login ?? '' });

  /** The header form: `Dev <key>`, a session token, or `Bearer <key>`. */
  const headerAuthorized = (ctx: Ctx) => {
    const h = (ctx.req.headers.authorization ?? '').trim();
    const dev = /^Dev\s+(.+)$/i.exec(h)?.[1]?.trim();
    if (dev !== undefined) return dev === state.key;
    return h === `Bearer ${state.key}` || state.tokens.has(h.replace(/^Bearer\s+/i, ''));
  };

  /** Which form a `packages/dev/...` path is, who may call it, and the package's npm name. */
  const devTarget = (ctx: Ctx, timestamps: boolean): string => {
    const segs = timestamps ? ctx.rest.slice(0, -1) : ctx.rest;
    if (timestamps && ctx.rest[ctx.rest.length - 1] !== 'timestamps') throw new ApiError(404, 'Not Found');
    const headerName = npmName(segs);
    const legacyName = segs.length >= 2 ? npmName(segs.slice(1)) : undefined;
    const generation = state.config.generation;
    if (headerName !== undefined && generation !== 'old') {
      if (!headerAuthorized(ctx)) throw unauthorized();
      return headerName;
    }
    if (legacyName !== undefined && generation !== 'new') {
      if (segs[0] !== state.key) throw unauthorized();
      return legacyName;
    }
    throw new ApiError(404, `No route for ${ctx.req.url?.split('?')[0]}`);
  };

  const listFor = (text: string | null) => {
    const user = state.currentUser;
    const published = [...store.packages.values()].flatMap((p) => store.json(p, user) ?? []) as Array<Record<string, unknown> & { name: string }>;
    const names = new Set(published.map((p) => p.name.toLowerCase()));
    // The library's packages (every namespace of its functions) are listed too, as installed packages at 1.0.0.
    const library = [...new Set(state.functions.defs.map((d) => d.nqName.split(':')[0]))]
      .filter((n) => !names.has(n.toLowerCase()))
      .map((name) => ({
        id: uuidFrom(`package:${name}`),
        name,
        friendlyName: name,
        publishedVersions: [{ id: uuidFrom(`published-package:${name}:1.0.0`), version: '1.0.0', isCurrent: true, isLatest: true, debug: false }],
      }));
    return search(
      [...library, ...published].sort((a, b) => a.name.localeCompare(b.name)),
      text,
    );
  };

  return [
    {
      method: 'GET',
      path: 'packages/dev/*',
      open: true,
      handler: (ctx) => sendJson(ctx.res, store.timestamps(devTarget(ctx, true), state.currentUser)),
    },
    {
      method: 'POST',
      path: 'packages/dev/*',
      open: true,
      handler: async (ctx) => {
        const name = devTarget(ctx, false);
        if (queryFlag(ctx.query, 'rebuild')) {
          throw new ApiError(501, 'Building a package on the server (rebuild=true) is not available on the emulator: build it locally and publish dist/');
        }
        const bytes = await readBody(ctx.req);
        if (bytes.length === 0) throw new ApiError(400, 'The request has no package archive');
        const { pkg, version } = store.publish({ npmName: name, files: await unzip(bytes), debug: queryFlag(ctx.query, 'debug'), publisher: publisher() });
        sendJson(ctx.res, store.json(pkg, state.currentUser) ?? { name: pkg.name, version: version.version });
      },
    },
    { method: 'GET', path: 'packages', handler: (ctx) => sendJson(ctx.res, listFor(ctx.query.get('text'))) },
    {
      method: 'GET',
      path: 'packages/published/current',
      handler: (ctx) =>
        sendJson(
          ctx.res,
          listFor(null).filter((p) => 'publishedVersions' in p),
        ),
    },
    {
      method: 'GET',
      path: 'packages/published/files/:name/:version/:hash/:build/*',
      handler: (ctx) => {
        const p = store.find(ctx.params.name);
        const v = p?.versions.find(
          (x) =>
            x.version === ctx.params.version && x.buildHash === ctx.params.hash && String(x.buildNumber) === ctx.params.build && (!x.debug || x.publisher === state.currentUser),
        );
        const file = ctx.rest.join('/');
        const bytes = v?.files.get(file);
        if (!bytes) throw new ApiError(404, `File ${file} of package ${ctx.params.name} ${ctx.params.version} not found`);
        sendBody(ctx.res, 200, bytes, CONTENT_TYPES[file.split('.').pop() ?? ''] ?? 'application/octet-stream');
      },
    },
    {
      method: 'GET',
      path: 'packages/published/:id',
      handler: (ctx) => {
        const p = listFor(null).find((x) => x.id === ctx.params.id.toLowerCase() || x.name.toLowerCase() === ctx.params.id.toLowerCase());
        if (!p) throw new ApiError(404, `Package ${ctx.params.id} not found`);
        sendJson(ctx.res, p);
      },
    },
  ];
}

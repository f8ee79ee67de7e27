// Published packages, as far as `grok publish` puts one on a server and `grok test`'s Node pass reads it
// back (datagrok-tools 6.7.5 bin/commands/publish.js, bin/utils/node-test-worker.js): the upload of the
// package's zip (`POST /packages/dev/<name>`, a debug version named after the publisher's login unless
// `debug=false`), the package list with its published versions (`GET /packages?text=`), one package
// (`GET /packages/<id>`) and its files at the web root the platform serves them from
// (`/packages/published/files/<name>/<version>/<hash>/<build>/…`). Registered first in routes.ts: the
// package list falls back to the packages of the demo functions (routes-entities.ts) for any other name.
import { createHash } from 'node:crypto';
import JSZip from 'jszip';
import { uuidFrom } from './entity-json';
import type { IncomingMessage } from 'node:http';
import { ApiError, type Ctx, queryFlag, type Route, sendBody, sendJson } from './http';
import { search } from './search';
import type { EmulatorState } from './state';

interface PublishedVersion {
  id: string;
  version: string;
  debug: boolean;
  buildHash: string;
  buildNumber: number;
  files: Map<string, Buffer>;
}

const published = new WeakMap<EmulatorState, Map<string, PublishedVersion[]>>();

function store(state: EmulatorState): Map<string, PublishedVersion[]> {
  const s = published.get(state) ?? new Map<string, PublishedVersion[]>();
  published.set(state, s);
  return s;
}

function currentLogin(state: EmulatorState): string {
  return state.users.find((u) => u.id === state.currentUser)?.login ?? 'admin';
}

/** The package entity as the server lists it: its published versions, the current one last published. */
function packageJson(name: string, versions: PublishedVersion[]): Record<string, unknown> {
  const newest = versions[versions.length - 1];
  return {
    '#type': 'Package',
    id: uuidFrom(`package:${name}`),
    name,
    shortName: name,
    friendlyName: name,
    version: newest.version,
    publishedVersions: versions.map((v) => ({
      id: v.id,
      version: v.version,
      debug: v.debug,
      buildHash: v.buildHash,
      buildNumber: v.buildNumber,
      isCurrent: v === newest,
      isLatest: v === newest,
    })),
  };
}

async function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new ApiError(413, `Request body larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const CONTENT_TYPES: Record<string, string> = { js: 'application/javascript', map: 'application/json', json: 'application/json', css: 'text/css' };

export function packageRoutes(state: EmulatorState): Route[] {
  // The demo functions' packages, as routes-entities.ts lists them, and the published ones.
  const demoPackages = () =>
    [...new Set(state.functions.defs.map((d) => d.nqName.split(':')[0]))]
      .filter((name) => !byName(name))
      .map((name) => ({ id: uuidFrom(`package:${name}`), name, friendlyName: name }));
  const byName = (name: string) => [...store(state)].find(([n]) => n.toLowerCase() === name.toLowerCase());

  // grok publish signs in with `Authorization: Dev <key>` (servers before 1.28: the key in the path).
  const developer = (ctx: Ctx) => {
    const given = /^Dev\s+(.+)$/i.exec(ctx.req.headers.authorization ?? '')?.[1]?.trim();
    if (given !== state.key) throw new ApiError(401, 'Unauthorized: invalid developer key');
  };

  const upload = async (ctx: Ctx) => {
    developer(ctx);
    const name = ctx.params.name;
    const body = await readBytes(ctx.req, 64 * 1024 * 1024);
    let zip: JSZip;
    try {
      zip = await JSZip.loadAsync(body);
    } catch {
      throw new ApiError(400, `The package upload is not a zip archive (${body.length} bytes)`);
    }
    const files = new Map<string, Buffer>();
    for (const entry of Object.values(zip.files)) if (!entry.dir) files.set(entry.name, await entry.async('nodebuffer'));
    const manifest = files.get('package.json');
    const version = queryFlag(ctx.query, 'debug') ? currentLogin(state) : String(JSON.parse(manifest?.toString('utf8') ?? '{}').version ?? '0.0.0');
    const versions = store(state).get(name) ?? [];
    const buildHash = createHash('sha256').update(body).digest('hex').slice(0, 16);
    const kept = versions.filter((v) => v.version !== version);
    kept.push({ id: uuidFrom(`package:${name}:${version}:${buildHash}`), version, debug: queryFlag(ctx.query, 'debug'), buildHash, buildNumber: versions.length + 1, files });
    store(state).set(name, kept);
    sendJson(ctx.res, { name, version, files: files.size });
  };

  return [
    { method: 'POST', path: 'packages/dev/:name', open: true, handler: upload },
    {
      method: 'GET',
      path: 'packages/dev/:name/timestamps',
      open: true,
      handler: (ctx) => {
        developer(ctx);
        sendJson(ctx.res, {});
      },
    },
    {
      method: 'GET',
      path: 'packages',
      handler: (ctx) => {
        const mine = [...store(state)].map(([name, versions]) => packageJson(name, versions) as { name: string });
        const all = [...mine, ...demoPackages()].sort((a, b) => a.name.localeCompare(b.name));
        sendJson(ctx.res, search(all, ctx.query.get('text')));
      },
    },
    {
      method: 'GET',
      path: 'packages/published/files/:name/:version/:hash/:build/*',
      handler: (ctx) => {
        const version = byName(ctx.params.name)?.[1].find((v) => v.version === ctx.params.version && v.buildHash === ctx.params.hash);
        const file = version?.files.get(ctx.rest.join('/'));
        if (!file) throw new ApiError(404, `File ${ctx.rest.join('/')} of package ${ctx.params.name} ${ctx.params.version} not found`);
        sendBody(ctx.res, 200, file, CONTENT_TYPES[ctx.rest[ctx.rest.length - 1].split('.').pop() ?? ''] ?? 'application/octet-stream');
      },
    },
    // The dapi's function list as the test runner filters it (`package.id = "<id>"`, initAutoTests): a
    // published package's own functions are not read from its bundle here, so it has none (no auto tests).
    {
      method: 'GET',
      path: 'functions',
      handler: (ctx) => {
        const text = ctx.query.get('text') ?? '';
        sendJson(ctx.res, /^package\.id\s*=/.test(text) ? [] : state.functions.list(text));
      },
    },
    {
      method: 'GET',
      path: 'packages/:id',
      handler: (ctx) => {
        const id = ctx.params.id.toLowerCase();
        for (const [name, versions] of store(state)) {
          const v = versions.find((x) => x.id === id);
          if (v || uuidFrom(`package:${name}`) === id) return sendJson(ctx.res, { ...packageJson(name, versions), ...(v ? { id: v.id, version: v.version } : {}) });
        }
        throw new ApiError(404, `Package ${ctx.params.id} not found`);
      },
    },
  ];
}

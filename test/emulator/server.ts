// The emulator's HTTP server: auth, injected faults, routing, the request log and the control routes.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, STATUS_CODES, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultConfig, type EmulatorConfig, type Fault, type Generation, mergeConfig, parseFault, takeFault } from './config';
import { ApiError, type Ctx, drain, type Route, readJson, sendApiError, sendApiErrorAs200, sendBody, sendEmpty, sendJson, sendRouteMissing } from './http';
import { cutAfter, nginxPage, stallAfter } from './fault-responses';
import { storeAsSent } from './hostile';
import { cookieSession, serveDebugPage } from './debugPages';
import { servePage } from './pages';
import { apiRoutes } from './routes';
import { EmulatorState, type LogEntry } from './state';

export { EmulatorState } from './state';

export interface EmulatorOptions {
  /** 0 or absent: a free port. */
  port?: number;
  /** Default `demo-key`. */
  key?: string;
  /** Where files and tables live; absent: a fresh temp folder removed by close(). */
  dataDir?: string;
  /** Seeds this many extra groups named `Team 0001`, ... */
  extraGroups?: number;
  /** Adds this many generated functions (`Bench:Func0001`, ...) to the demo ones, for benchmarks. */
  extraFunctions?: number;
  /** Shorthand for config.generation. */
  generation?: Generation;
  /** Config applied on start and kept across reset(). */
  config?: Partial<EmulatorConfig>;
  /** Serve HTTPS with this certificate and key (PEM text); baseUrl then starts with https://. */
  tls?: { cert: string | Buffer; key: string | Buffer };
}

export interface Emulator {
  /** http://127.0.0.1:P/api */
  baseUrl: string;
  /** http://127.0.0.1:P */
  origin: string;
  key: string;
  port: number;
  close(): Promise<void>;
  reset(): Promise<void>;
  state: EmulatorState;
}

interface CompiledRoute extends Route {
  segments: string[];
}

function match(route: CompiledRoute, segs: string[]): { params: Record<string, string>; rest: string[] } | undefined {
  const params: Record<string, string> = {};
  const wildcard = route.segments[route.segments.length - 1] === '*';
  const fixed = wildcard ? route.segments.length - 1 : route.segments.length;
  if (wildcard ? segs.length < fixed : segs.length !== fixed) return undefined;
  for (let i = 0; i < fixed; i++) {
    const pattern = route.segments[i];
    if (pattern.startsWith(':')) {
      if (segs[i] === '') return undefined;
      params[pattern.slice(1)] = segs[i];
    } else if (pattern !== segs[i]) return undefined;
  }
  return { params, rest: wildcard ? segs.slice(fixed) : [] };
}

function exists(route: Route, config: EmulatorConfig): boolean {
  if (route.flag && !config[route.flag]) return false;
  if (route.generation === 'old' && config.generation === 'new') return false;
  if (route.generation === 'new' && config.generation === 'old') return false;
  return true;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const key = options.key ?? 'demo-key';
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'datagrok-emulator-')));
  const baseConfig = { ...options.config, ...(options.generation ? { generation: options.generation } : {}) };
  const state = new EmulatorState(path.resolve(dataDir), options.extraGroups ?? 0, mergeConfig(defaultConfig(), baseConfig), options.extraFunctions ?? 0);
  state.key = key;
  await state.reset();
  const routes: CompiledRoute[] = apiRoutes(state).map((r) => ({ ...r, segments: r.path.split('/') }));
  let origin = '';

  /** The API key as `Bearer <key>`, or a session token of the dev-key login, bare (as the grok CLI sends it) or after `Bearer `. */
  function isAuthorized(header: string | undefined): boolean {
    if (header === undefined) return false;
    if (header === `Bearer ${key}`) return true;
    return state.tokens.has(header.startsWith('Bearer ') ? header.slice('Bearer '.length) : header);
  }

  async function control(req: IncomingMessage, res: ServerResponse, route: string): Promise<void> {
    const method = req.method ?? 'GET';
    if (route === 'reset' && method === 'POST') {
      await state.reset();
      sendJson(res, { ok: true });
    } else if (route === 'config' && method === 'GET') sendJson(res, state.config);
    else if (route === 'config' && method === 'POST') {
      state.config = mergeConfig(state.config, (await readJson(req)) ?? {});
      sendJson(res, state.config);
    } else if (route === 'faults' && method === 'POST') {
      const body = await readJson(req);
      const faults: Fault[] = (Array.isArray(body) ? body : [body]).map(parseFault);
      state.faults.push(...faults);
      sendJson(res, state.faults);
    } else if (route === 'faults' && method === 'GET') sendJson(res, state.faults);
    else if (route === 'faults' && method === 'DELETE') {
      state.faults = [];
      sendJson(res, state.faults);
    } else if (route === 'entities' && method === 'POST') sendJson(res, storeAsSent(state, await readJson(req)));
    else if (route === 'state' && method === 'GET') sendJson(res, await state.snapshot());
    else if (route === 'requests' && method === 'GET') sendJson(res, state.log);
    else if (route === 'requests' && method === 'DELETE') {
      state.log = [];
      sendEmpty(res);
    } else sendRouteMissing(res);
  }

  async function api(req: IncomingMessage, res: ServerResponse, rawPath: string, query: string, authorized: boolean): Promise<void> {
    if (!rawPath.startsWith('/api/')) return sendRouteMissing(res);
    const sub = rawPath.slice('/api/'.length);
    const unauthorized = () => sendJson(res, { '#type': 'ApiError', message: 'Unauthorized: invalid API key', errorCode: 401 }, 401);
    if ((sub.startsWith('public/') || sub.startsWith('connectors/')) && !authorized) return unauthorized();
    let segs: string[];
    try {
      segs = sub.split('/').map(decodeURIComponent);
    } catch {
      throw new ApiError(400, `Malformed percent-encoding in ${rawPath}`);
    }
    const method = req.method ?? 'GET';
    for (const route of routes) {
      if (route.method !== method) continue;
      const m = match(route, segs);
      if (!m) continue;
      // A switched-off route is missing, not shadowed by a later pattern (groups/current vs groups/:id).
      if (!exists(route, state.config)) break;
      if (!route.open && !authorized) return unauthorized();
      const ctx: Ctx = { req, res, params: m.params, rest: m.rest, query: new URLSearchParams(query), origin };
      return route.handler(ctx);
    }
    sendRouteMissing(res);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const rawPath = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? '' : url.slice(q + 1);
    if (rawPath.startsWith('/__emulator/')) {
      try {
        await control(req, res, rawPath.slice('/__emulator/'.length).replace(/\/$/, ''));
      } catch (e) {
        await drain(req);
        const status = e instanceof ApiError ? e.status : 500;
        if (!res.headersSent) sendJson(res, { '#type': 'ApiError', message: String((e as Error).message), errorCode: status }, status);
      }
      return;
    }
    const method = req.method ?? 'GET';
    // A browser signed in by the session's `auth` cookie reads (pages, a package's published files).
    const authorized = isAuthorized(req.headers.authorization) || (method === 'GET' && cookieSession(state, req.headers.cookie));
    const entry: LogEntry = { method, path: rawPath, query, status: 0, authorized };
    state.log.push(entry);
    res.on('close', () => {
      entry.status = res.headersSent ? res.statusCode : 0;
    });

    const fault = takeFault(state.faults, method, url);
    const delay = state.config.latencyMs + (fault?.delayMs ?? 0);
    if (delay > 0) await sleep(delay);
    if (fault?.resetBeforeResponse) {
      req.socket.destroy();
      return;
    }
    if (fault?.dropAfterBytes !== undefined) cutAfter(res, fault.dropAfterBytes);
    else if (fault?.stallAfterBytes !== undefined) stallAfter(res, fault.stallAfterBytes, state.stalled);
    if (fault?.apiError !== undefined) {
      await drain(req);
      return sendApiErrorAs200(res, { ...state.config, errorsAsHttp200: true }, fault.apiError, fault.status ?? 500);
    }
    if (fault?.text !== undefined) {
      await drain(req);
      return sendBody(res, fault.status ?? 200, fault.text, fault.contentType ?? 'text/plain; charset=utf-8');
    }
    if (fault && (fault.status !== undefined || fault.html || fault.retryAfter !== undefined)) {
      await drain(req);
      const status = fault.status ?? (fault.html ? 502 : 503);
      const headers: Record<string, string> = fault.retryAfter !== undefined ? { 'Retry-After': String(fault.retryAfter) } : {};
      if (fault.html) return sendBody(res, status, nginxPage(status), 'text/html', headers);
      const message = `${STATUS_CODES[status] ?? 'Error'} (injected fault)`;
      return sendBody(res, status, JSON.stringify({ '#type': 'ApiError', message, errorCode: status }), 'application/json; charset=utf-8', headers);
    }

    try {
      // The read-only web pages at the entity URLs it hands out (pages.ts), then the API.
      if (serveDebugPage(state, req, res, rawPath) || (await servePage(state, req, res, rawPath))) return;
      await api(req, res, rawPath, query, authorized);
    } catch (e) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (req.destroyed && !req.complete) return; // an aborted upload: no one to answer
      await drain(req);
      if (e instanceof ApiError) sendApiError(res, state.config, e.status, e.message);
      else sendApiError(res, state.config, 500, `Internal error: ${(e as Error)?.message ?? e}`);
    }
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    handle(req, res).catch(() => res.destroy());
  };
  const server = options.tls ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, listener) : createServer(listener);
  server.listen(options.port ?? 0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  origin = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;

  return {
    baseUrl: `${origin}/api`,
    origin,
    key,
    port,
    state,
    reset: () => state.reset(),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        state.endStalled();
        server.closeAllConnections();
      });
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

// The emulator's HTTP server: auth, injected faults, routing, the request log and the control routes.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, STATUS_CODES, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultConfig, type EmulatorConfig, type Fault, type Generation, mergeConfig, parseFault, takeFault } from './config';
import {
  ApiError,
  type Ctx,
  drain,
  type Route,
  readJson,
  sendApiError,
  sendApiErrorAs200,
  sendBody,
  sendEmpty,
  sendJson,
  sendRouteMissing,
} from './http';
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

const nginxPage = (status: number) => {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
};

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

/** Lets the headers and `limit` body bytes out, then drops the connection. */
function cutAfter(res: ServerResponse, limit: number): void {
  let sent = 0;
  let cut = false;
  const write = res.write.bind(res) as (chunk: Buffer, cb?: () => void) => boolean;
  const drop = () => res.socket?.destroy();
  const push = (chunk: unknown, encoding?: unknown): boolean => {
    if (cut) return false;
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    if (sent + buf.length < limit) {
      sent += buf.length;
      return write(buf);
    }
    cut = true;
    const part = buf.subarray(0, limit - sent);
    sent = limit;
    if (part.length > 0) write(part, drop);
    else {
      res.flushHeaders();
      res.socket?.end();
      setTimeout(drop, 50).unref();
    }
    return false;
  };
  const end = res.end.bind(res) as (cb?: () => void) => void;
  res.write = ((chunk: unknown, encoding?: unknown) => push(chunk, encoding)) as typeof res.write;
  res.end = ((chunk?: unknown, encoding?: unknown) => {
    if (chunk !== undefined && typeof chunk !== 'function') push(chunk, encoding);
    if (!cut && sent === limit) push(Buffer.alloc(0));
    if (!cut) {
      // The whole body was shorter than the limit: it goes out complete, then the connection drops.
      cut = true;
      end(drop);
    }
    return res;
  }) as typeof res.end;
}

/**
 * Lets the headers and `limit` body bytes out, then sends nothing more and never ends the response: the
 * connection stays open until the client gives up, or reset()/close() destroys it. Writes after the
 * limit are swallowed and report backpressure that never drains, so a streaming handler just waits.
 */
function stallAfter(res: ServerResponse, limit: number, stalled: Set<{ destroy(): void }>): void {
  let sent = 0;
  let holding = false;
  const socket = res.socket;
  if (socket) {
    stalled.add(socket);
    socket.once('close', () => stalled.delete(socket));
  }
  const write = res.write.bind(res) as (chunk: Buffer) => boolean;
  const hold = () => {
    if (holding) return;
    holding = true;
    res.flushHeaders();
  };
  const push = (chunk: unknown, encoding?: unknown): boolean => {
    if (holding) return false;
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    const part = buf.subarray(0, limit - sent);
    sent += part.length;
    if (part.length > 0) write(part);
    if (sent >= limit) {
      hold();
      return false;
    }
    return true;
  };
  res.write = ((chunk: unknown, encoding?: unknown) => push(chunk, encoding)) as typeof res.write;
  res.end = ((chunk?: unknown, encoding?: unknown) => {
    if (chunk !== undefined && typeof chunk !== 'function') push(chunk, encoding);
    hold(); // a body shorter than the limit goes out whole, but the response is never ended either
    return res;
  }) as typeof res.end;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const key = options.key ?? 'demo-key';
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'datagrok-emulator-')));
  const baseConfig = { ...options.config, ...(options.generation ? { generation: options.generation } : {}) };
  const state = new EmulatorState(path.resolve(dataDir), options.extraGroups ?? 0, mergeConfig(defaultConfig(), baseConfig));
  await state.reset();
  const routes: CompiledRoute[] = apiRoutes(state).map((r) => ({ ...r, segments: r.path.split('/') }));
  let origin = '';

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
    } else if (route === 'state' && method === 'GET') sendJson(res, await state.snapshot());
    else if (route === 'requests' && method === 'GET') sendJson(res, state.log);
    else if (route === 'requests' && method === 'DELETE') {
      state.log = [];
      sendEmpty(res);
    } else sendRouteMissing(res);
  }

  async function api(req: IncomingMessage, res: ServerResponse, rawPath: string, query: string, authorized: boolean): Promise<void> {
    if (!rawPath.startsWith('/api/')) return sendRouteMissing(res);
    const sub = rawPath.slice('/api/'.length);
    if ((sub.startsWith('public/') || sub.startsWith('connectors/')) && !authorized) {
      return sendJson(res, { '#type': 'ApiError', message: 'Unauthorized: invalid API key', errorCode: 401 }, 401);
    }
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
    const authorized = req.headers.authorization === `Bearer ${key}`;
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
    if (fault && (fault.status !== undefined || fault.html || fault.retryAfter !== undefined)) {
      await drain(req);
      const status = fault.status ?? (fault.html ? 502 : 503);
      const headers: Record<string, string> = fault.retryAfter !== undefined ? { 'Retry-After': String(fault.retryAfter) } : {};
      if (fault.html) return sendBody(res, status, nginxPage(status), 'text/html', headers);
      const message = `${STATUS_CODES[status] ?? 'Error'} (injected fault)`;
      return sendBody(res, status, JSON.stringify({ '#type': 'ApiError', message, errorCode: status }), 'application/json; charset=utf-8', headers);
    }

    try {
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


// HTTP plumbing shared by every route: the ApiError shape, JSON replies, small request bodies.
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorConfig } from './config';

/** Thrown by handlers; the server turns it into a Datagrok ApiError response. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  /** Named path parameters, percent-decoded. */
  params: Record<string, string>;
  /** Remaining decoded segments for routes ending in a wildcard. */
  rest: string[];
  query: URLSearchParams;
  /** http://127.0.0.1:P */
  origin: string;
}

export type Handler = (ctx: Ctx) => Promise<void> | void;

export interface Route {
  method: string;
  /** Segments after /api: literals, `:param`, or a final `*` for the rest. */
  path: string;
  handler: Handler;
  /** `old`: reference-only route (absent with generation "new"); `new`: current-servers-only route. */
  generation?: 'old' | 'new';
  /** Exists only while this config flag is true. */
  flag?: 'listing' | 'deleteFiles';
  /** Answers without authentication (server info, the dev-key login). */
  open?: boolean;
}

/** A Datagrok name as sent in a REST path: every `.` stands for `:`. */
export function platformName(restName: string): string {
  return restName.replaceAll('.', ':');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(s: string): boolean {
  return UUID.test(s);
}

/** Waits until the request body was fully read (or the request died) so a reply is not cut short. */
export async function drain(req: IncomingMessage): Promise<void> {
  if (req.readableEnded || req.destroyed) return;
  req.resume();
  await Promise.race([once(req, 'end'), once(req, 'close')]).catch(() => undefined);
}

export function sendBody(res: ServerResponse, status: number, body: string | Buffer, contentType: string, headers: Record<string, string> = {}): void {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': String(buf.length), ...headers });
  res.end(buf);
}

export function sendJson(res: ServerResponse, value: unknown, status = 200): void {
  sendBody(res, status, JSON.stringify(value), 'application/json; charset=utf-8');
}

/** 200 with no body at all (approve, deny, share, file upload, delete). */
export function sendEmpty(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Length': '0' });
  res.end();
}

export function apiErrorBody(message: string, errorCode: number): Record<string, unknown> {
  return {
    '#type': 'ApiError',
    message,
    errorCode,
    stackTrace: `ApiError: ${message}\n    at DatagrokEmulator (emulator)`,
  };
}

/** An ApiError with its real status, or as a 200 the way many real servers answer, or another error shape (per config). */
export function sendApiError(res: ServerResponse, config: EmulatorConfig, status: number, message: string): void {
  // Other error shapes always carry the real status (errorsAsHttp200 only applies to ApiErrors).
  if (config.errorShape === 'error') {
    sendJson(res, { error: message }, status);
    return;
  }
  if (config.errorShape === 'text') {
    sendBody(res, status, message, 'text/plain; charset=utf-8');
    return;
  }
  if (!config.errorsAsHttp200) {
    sendJson(res, apiErrorBody(message, status), status);
    return;
  }
  sendApiErrorAs200(res, config, message, status);
}

export function sendApiErrorAs200(res: ServerResponse, config: EmulatorConfig, message: string, errorCode: number): void {
  const headers: Record<string, string> = config.apiErrorHeader ? { 'api-error': 'true' } : {};
  // The "string" form is the same JSON text sent as text/plain, encoded once (as the grok CLI's tests feed it).
  const json = JSON.stringify(apiErrorBody(message, errorCode));
  sendBody(res, 200, json, config.errorBodyAsJsonString ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8', headers);
}

/** What a real server answers for a path it has no route for. */
export function sendRouteMissing(res: ServerResponse): void {
  sendBody(res, 404, 'Not Found', 'text/plain; charset=utf-8');
}

/** Reads a small request body (JSON parameters, layouts). Large bodies are refused, not buffered. */
export async function readSmallBody(req: IncomingMessage, limit = 16 * 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new ApiError(413, `Request body larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON body; an empty body is `undefined`. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = await readSmallBody(req);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'Request body is not valid JSON');
  }
}

/** A boolean query flag, read case-insensitively (Python writes `True` / `False`); absent → false, bare `?flag` → true. */
export function queryFlag(query: URLSearchParams, name: string): boolean {
  if (query.get(name) === '') return true;
  return optionalFlag(query, name) ?? false;
}

/** A boolean query flag that may be absent: `true`/`True`/`1` → true, `false`/`False`/`0` → false, absent or empty → undefined. */
export function optionalFlag(query: URLSearchParams, name: string): boolean | undefined {
  const v = query.get(name)?.trim().toLowerCase();
  if (v === undefined || v === '') return undefined;
  if (v === 'false' || v === '0' || v === 'no') return false;
  return true;
}

/**
 * One page of a non-public list (`/api/tables`, `/api/groups`, …): `page` counts from 1 as the grok CLI
 * sends it (`page=1` is the first page); no `limit` → everything.
 */
export function pageOf<T>(items: T[], query: URLSearchParams): T[] {
  const limit = Number(query.get('limit') ?? '');
  if (!query.get('limit') || !Number.isInteger(limit) || limit <= 0) return items;
  const page = Math.max(1, Math.trunc(Number(query.get('page') ?? '1')) || 1);
  return items.slice((page - 1) * limit, page * limit);
}

// Classifying what went wrong into one DatagrokError a UI can act on. Pure: no I/O here.
import { apiErrorHead } from './apiErrorHead';
import { DatagrokError } from './errors';
import { networkSetupFailure, redirectFailure } from './networkFailures';
import type { ErrorKind } from './types';

/** What a (small) error body told us. */
export interface ErrorBody {
  /** The body is an ApiError object (`#type: ApiError`), possibly JSON-encoded as a string. */
  apiError: boolean;
  message?: string;
  errorCode?: number;
  /** An HTML page (reverse-proxy error page): never shown to the user. */
  html: boolean;
  /** A JSON object that is not an ApiError (e.g. `{"error": "…"}`). */
  jsonObject?: boolean;
}

/** Where a failure happened, for the message. */
export interface FailureContext {
  /** What the caller was doing, e.g. "Listing groups". */
  what: string;
  method: string;
  /** Path relative to the base URL. */
  path: string;
  /** Base URL does not end in /api: a plain 404 hints at it. */
  hintMissingApi: boolean;
  /** The server's origin (scheme, host, port): a redirect's address is read against it, advice names it. */
  origin: string;
  /** Removes the API key from any text that came from outside. */
  redact: (text: string) => string;
  /** host:port of the proxy when requests go through one. */
  proxyHost?: string;
}

const MAX_SERVER_MESSAGE = 500;

/** The ApiError inside a parsed JSON value (an object, or a string holding one), if any. */
export function apiErrorOf(value: unknown): { message?: string; errorCode?: number } | undefined {
  let v = value;
  if (typeof v === 'string') {
    const t = v.trim();
    if (!t.startsWith('{')) return undefined;
    try {
      v = JSON.parse(t);
    } catch {
      return undefined;
    }
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  if (o['#type'] !== 'ApiError') return undefined;
  return { message: textField(o, 'message') ?? textField(o, 'error'), errorCode: codeField(o) };
}

function textField(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

function codeField(o: Record<string, unknown>): number | undefined {
  const v = o['errorCode'] ?? o['statusCode'] ?? o['status'];
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 100 && n <= 599 ? n : undefined;
}

/** Reads an error body: ApiError JSON, other JSON with message/error, plain text, or HTML. */
export function parseErrorBody(text: string, contentType: string | undefined): ErrorBody {
  const t = text.trim();
  const ct = (contentType ?? '').toLowerCase();
  if (ct.includes('html') || /^<(!doctype|html|head|body|\?xml)/i.test(t) || (t.startsWith('<') && t.endsWith('>'))) {
    return { apiError: false, html: true };
  }
  if (t.startsWith('{') || t.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(t);
      const api = apiErrorOf(parsed);
      if (api) return { apiError: true, html: false, ...api };
      const obj = typeof parsed === 'string' ? safeJson(parsed) : parsed;
      if (obj && typeof obj === 'object' && !Array.isArray(obj)) {
        const o = obj as Record<string, unknown>;
        return { apiError: false, html: false, jsonObject: true, message: textField(o, 'message') ?? textField(o, 'error'), errorCode: codeField(o) };
      }
      if (typeof parsed === 'string' && parsed.trim() !== '') return { apiError: false, html: false, message: parsed };
    } catch {
      // Not JSON: an ApiError cut short (its first kilobytes) is read as far as it came; else plain text.
      const api = apiErrorOf(apiErrorHead(t));
      if (api) return { apiError: true, html: false, ...api };
    }
  }
  if (t !== '' && t.length <= MAX_SERVER_MESSAGE && !t.includes('\0')) return { apiError: false, html: false, message: t };
  return { apiError: false, html: false };
}

/** JSON.parse that answers undefined for text that is not JSON. */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function kindForStatus(status: number): ErrorKind {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'notFound';
  if (status === 429 || status === 502 || status === 503 || status === 504) return 'unavailable';
  return 'server';
}

function cleanServerMessage(message: string | undefined, redact: (t: string) => string): string | undefined {
  if (message === undefined) return undefined;
  let m = redact(message).replace(/\s+/g, ' ').trim();
  if (m === '') return undefined;
  if (m.length > MAX_SERVER_MESSAGE) m = `${m.slice(0, MAX_SERVER_MESSAGE)}…`;
  return m;
}

/** A failure the server reported: a non-2xx status, an `api-error` header or an ApiError body on 2xx. */
export function serverFailure(ctx: FailureContext, httpStatus: number, body: ErrorBody): DatagrokError {
  // An ApiError carries the real status in errorCode (real servers answer 200 with it).
  if (httpStatus >= 300 && httpStatus < 400 && !body.apiError) {
    // Redirects are never followed (the key must not travel to another address); see redirectFailure.
    return redirectFailure(ctx, httpStatus);
  }
  const status = body.apiError && body.errorCode !== undefined ? body.errorCode : httpStatus >= 400 ? httpStatus : (body.errorCode ?? 500);
  const serverMessage = body.html ? undefined : cleanServerMessage(body.message, ctx.redact);
  const said = serverMessage ? `: ${serverMessage}` : '';
  const routeMissing = status === 404 && !body.apiError && !namesWhatIsMissing(body);
  let kind = kindForStatus(status);
  if (body.html && status >= 500) kind = 'unavailable';
  let reason: string;
  let advice: string;
  switch (kind) {
    case 'unauthorized':
      reason = `the API key was rejected (${status})${said}`;
      advice = 'Sign in again with a valid key.';
      break;
    case 'forbidden':
      reason = `permission denied (${status})${said}`;
      advice = 'Ask the owner or an administrator for access.';
      break;
    case 'notFound':
      if (routeMissing && ctx.hintMissingApi) {
        reason = `the server has no such address (${status})${said}`;
        advice = 'Is the URL missing /api? The server URL should look like https://public.datagrok.ai/api.';
      } else {
        reason = `not found (${status})${said}`;
        advice = 'Check the name or ID.';
      }
      break;
    case 'unavailable':
      if (status === 429) {
        reason = `the server is busy (${status} Too Many Requests)${said}`;
        advice = 'Wait a moment and try again.';
      } else {
        reason = `server unavailable (${status})${said}`;
        advice = 'The server or its proxy is down or restarting; try again in a minute.';
      }
      break;
    default:
      if (status >= 400 && status < 500) {
        reason = `the server rejected the request (${status})${said}`;
        advice = 'Check the names and parameters.';
      } else {
        reason = `the server reported an error (${status})${said}`;
        advice = 'Try again; if it persists, ask the server administrator.';
      }
  }
  const error = new DatagrokError(kind, `${ctx.what} failed: ${reason}. ${advice}`, {
    status,
    serverMessage,
    method: ctx.method,
    path: ctx.path,
  });
  if (routeMissing) markRouteMissing(error);
  return error;
}

/**
 * A 404 whose JSON error object says more than the generic "Not Found" (`{"error": "File x not found"}`)
 * is about a missing entity, not a missing route. Plain text stays ambiguous (a server's or a proxy's
 * own "no such route" text looks the same), so it still counts as a missing route.
 */
function namesWhatIsMissing(body: ErrorBody): boolean {
  if (!body.jsonObject || body.message === undefined) return false;
  return !/^\s*(404\s*)?(not\s*found|page not found|no route|route not found)\.?\s*$/i.test(body.message);
}

const routeMissingErrors = new WeakSet<DatagrokError>();

function markRouteMissing(e: DatagrokError): void {
  routeMissingErrors.add(e);
}

/** A plain 404 (not an ApiError about a missing entity): the server lacks the route. */
export function isRouteMissing(e: unknown): boolean {
  return e instanceof DatagrokError && routeMissingErrors.has(e);
}

/** Re-labels a route-missing failure, e.g. as 'unsupported' for optional routes. */
export function withKind(e: DatagrokError, kind: ErrorKind, message: string): DatagrokError {
  return new DatagrokError(kind, message, { ...e.details, cause: e });
}

const DROPPED = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);
const TIMEOUTS = new Set(['CONNECT_TIMEOUT', 'HEADERS_TIMEOUT', 'BODY_TIMEOUT', 'ETIMEDOUT']);
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EADDRNOTAVAIL']);

function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export interface TransportFailure {
  error: DatagrokError;
  /** The connection dropped: safe to retry an idempotent request that delivered nothing yet. */
  dropped: boolean;
}

/** A transport-level failure (no usable response): network, timeout, cancellation. */
export function transportFailure(err: unknown, ctx: FailureContext & { cancelled: boolean; timeoutMs: number; connectMs: number; host: string }): TransportFailure {
  const details = { method: ctx.method, path: ctx.path, cause: err };
  if (err instanceof DatagrokError) return { error: err, dropped: false };
  if (ctx.cancelled) {
    return { error: new DatagrokError('cancelled', `${ctx.what} was cancelled.`, details), dropped: false };
  }
  const setup = networkSetupFailure(err, ctx);
  if (setup) return { error: setup, dropped: false };
  const code = errorCode(err) ?? '';
  if (TIMEOUTS.has(code)) {
    const ms = code === 'CONNECT_TIMEOUT' ? ctx.connectMs : ctx.timeoutMs;
    const seconds = ms < 1000 ? `${ms / 1000}` : `${Math.round(ms / 1000)}`;
    const why =
      code === 'CONNECT_TIMEOUT'
        ? `could not connect to ${ctx.host} within ${seconds} s`
        : code === 'BODY_TIMEOUT'
          ? `the server stopped sending data for ${seconds} s`
          : `the server did not answer within ${seconds} s`;
    return {
      error: new DatagrokError('timeout', `${ctx.what} failed: ${why}. Try again later, or increase the timeout.`, details),
      dropped: false,
    };
  }
  if (UNREACHABLE.has(code)) {
    return {
      error: new DatagrokError('network', `${ctx.what} failed: could not connect to ${ctx.host} (${code}). Check the server URL and your network connection.`, details),
      dropped: false,
    };
  }
  if (code === 'CLIENT_CLOSED') {
    return {
      error: new DatagrokError('network', `${ctx.what} failed: the connection to ${ctx.host} was closed (signed out, or the network settings changed). Try again.`, details),
      dropped: false,
    };
  }
  if (code === 'REQ_CONTENT_LENGTH_MISMATCH') {
    return {
      error: new DatagrokError('badInput', `${ctx.what} failed: the data to upload did not have the declared size.`, details),
      dropped: false,
    };
  }
  const dropped = DROPPED.has(code) || code === '';
  const what = code ? ` (${code})` : '';
  return {
    error: new DatagrokError('network', `${ctx.what} failed: the connection to ${ctx.host} was interrupted${what}. Check your network connection and try again.`, details),
    dropped,
  };
}

/** A small JSON/text body of a 2xx answer that is an ApiError (some servers send errors as 200), or undefined. */
export function smallBodyFailure(ctx: FailureContext, status: number, text: string): DatagrokError | undefined {
  const api = apiErrorOf(safeJson(text));
  return api ? serverFailure(ctx, status, { apiError: true, html: false, ...api }) : undefined;
}

/** A missing optional route (a plain 404, 405, 501) as kind 'unsupported', with `message` and what to do. */
export function unsupportedIfMissing(err: unknown, message: string): unknown {
  if (err instanceof DatagrokError && (isRouteMissing(err) || err.status === 405 || err.status === 501)) {
    return withKind(err, 'unsupported', `${message} Update the server or use the platform's web UI.`);
  }
  return err;
}

// What a request is, as the API modules describe it to the transport, and what Node's HTTP client and
// the request log are given for it.
import type { Readable } from 'node:stream';
import type { ErrorKind, RequestLogEntry } from './types';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';
export interface RequestSpec {
  method: HttpMethod;
  /** Encoded path relative to the base URL, starting with '/'. */
  path: string;
  query?: Record<string, string | boolean | undefined>;
  /** For messages: what the caller was doing, e.g. "Listing groups". */
  what: string;
  signal?: AbortSignal;
  /** File/table transfer: transfer timeouts instead of JSON-call timeouts. */
  transfer?: boolean;
  /** A function call's answer streamed (transfer): no overall deadline, but the JSON call's idle timeout (the server computes before it answers). */
  callAnswer?: boolean;
  body?: string | Uint8Array | Readable | AsyncIterable<Uint8Array>;
  contentType?: string;
  contentLength?: number;
  /** Called with the server's Date header (ms) on a 2xx answer. */
  onServerTime?: (ms: number) => void;
  /** A download of a web page (.html, .htm): a text/html answer is the file, not a gateway's page. */
  acceptsHtml?: boolean;
  /** Force the "is the URL missing /api?" hint on a plain 404. */
  hintMissingApi?: boolean;
  /** `Dev`: the key as grok's developer-key routes take it (`Authorization: Dev <key>`, package publishing). */
  authScheme?: 'Dev';
}

/** The path with its query string, relative to the base URL. */
export function relativePath(spec: RequestSpec): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) params.append(k, String(v));
  const q = params.toString();
  return q ? `${spec.path}?${q}` : spec.path;
}

export function positive(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** What is sent: the key, our user agent, the body with its type and size. */
export function requestParts(spec: RequestSpec, key: string, origin: URL, path: string) {
  const headers: Record<string, string> = { authorization: `${spec.authScheme ?? 'Bearer'} ${key}`, 'user-agent': 'datagrok-vscode' };
  if (spec.contentType) headers['content-type'] = spec.contentType;
  if (spec.contentLength !== undefined) headers['content-length'] = String(spec.contentLength);
  const body = spec.body ?? null;
  return { origin, path, method: spec.method, headers, body, contentLength: spec.contentLength };
}

/** One line of the request log: never the key, never a body. */
export function logEntry(method: HttpMethod, path: string, attempt: number, started: number, status?: number, error?: ErrorKind): RequestLogEntry {
  const entry: RequestLogEntry = { method, path, durationMs: Math.round(performance.now() - started), attempt };
  if (status !== undefined) entry.status = status;
  if (error) entry.error = error;
  return entry;
}

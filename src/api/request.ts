// What a request is, as the API modules describe it to the transport.
import type { Readable } from 'node:stream';

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
  body?: string | Uint8Array | Readable | AsyncIterable<Uint8Array>;
  contentType?: string;
  contentLength?: number;
  /** Called with the server's Date header (ms) on a 2xx answer. */
  onServerTime?: (ms: number) => void;
  /** A download of a web page (.html, .htm): a text/html answer is the file, not a gateway's page. */
  acceptsHtml?: boolean;
  /** Force the "is the URL missing /api?" hint on a plain 404. */
  hintMissingApi?: boolean;
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

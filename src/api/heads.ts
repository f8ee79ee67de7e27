// What the head of an answer says: its headers read as text and numbers, what they tell about the body,
// and whether a body may be an ApiError worth reading whole.
import type { IncomingHttpHeaders } from 'node:http';

/** Error bodies and bodies peeked for an ApiError are read up to this size: what a message needs. */
export const SMALL_BODY = 64 * 1024;

export type Headers = IncomingHttpHeaders | Record<string, string | string[] | undefined>;

export interface BodyInfo {
  contentType?: string;
  contentLength?: number;
  contentEncoding?: string;
}

/** How a response ended that was not streamed to the caller: its status, headers and (small) body text. */
export interface ErrorResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** Only a small JSON/text body that starts like JSON might be an ApiError; file content never is scanned. */
export function mayBeApiError(info: BodyInfo, first: Uint8Array): boolean {
  if (info.contentLength !== undefined && info.contentLength > SMALL_BODY) return false;
  const ct = (info.contentType ?? '').toLowerCase();
  if (!ct.includes('json') && !ct.startsWith('text/')) return false;
  for (const byte of first) {
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
    return byte === 0x7b /* { */ || byte === 0x22 /* " */;
  }
  return false;
}

export function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v.join(', ') : String(v);
}

export function numberHeader(headers: Headers, name: string): number | undefined {
  const v = header(headers, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** What the headers of an answer say about its body. */
export function bodyInfo(headers: Headers): BodyInfo {
  return {
    contentType: header(headers, 'content-type'),
    contentLength: numberHeader(headers, 'content-length'),
    contentEncoding: header(headers, 'content-encoding'),
  };
}

// Reading response bodies: JSON answers (ApiError-checked), bounded reads of error bodies, and the
// first data of a streamed body.
import { Readable } from 'node:stream';
import { DatagrokError } from './errors';
import { apiErrorOf, type FailureContext, parseErrorBody, serverFailure } from './failures';
import { webPageFailure } from './networkFailures';
import { type BodyInfo, mayBeApiError, SMALL_BODY } from './receiver';

export function parseJsonBody(text: string, contentType: string | undefined, ctx: FailureContext, lenient: boolean): unknown {
  const trimmed = text.trim();
  let value: unknown;
  try {
    value = trimmed === '' ? null : JSON.parse(trimmed);
  } catch {
    const body = parseErrorBody(trimmed, contentType);
    if (lenient && !body.html) return text;
    if (body.html) throw webPageFailure(ctx, trimmed, 'unexpectedAnswer');
    const hint = ctx.hintMissingApi ? ' Is the URL missing /api?' : ' Check the server URL.';
    throw new DatagrokError('server', `${ctx.what} failed: the server answered with something that is not JSON.${hint}`, { method: ctx.method, path: ctx.path });
  }
  const api = apiErrorOf(value);
  if (api) throw serverFailure(ctx, 200, { apiError: true, html: false, ...api });
  return value;
}

export async function readLimited(body: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    chunks.push(buf);
    size += buf.length;
    if (size >= limit) break;
  }
  discard(body);
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

/**
 * Awaits the first data of a body, so a connection dropped before any data can still be retried. A
 * small JSON/text body starting with '{' or '"' is read whole and handed to `check` (which throws on an
 * ApiError); file content is never scanned. Returns a stream of the whole body, the peeked data first.
 */
export async function peekBody(body: Readable, info: BodyInfo, check: (text: string) => void): Promise<Readable> {
  const prefix: Buffer[] = [];
  let size = 0;
  let ended = false;
  const first = await readSome(body);
  if (first === null) ended = true;
  else {
    prefix.push(first);
    size = first.length;
    if (mayBeApiError(info, first)) {
      while (size <= SMALL_BODY) {
        const next = await readSome(body);
        if (next === null) {
          ended = true;
          break;
        }
        prefix.push(next);
        size += next.length;
      }
      if (ended) check(Buffer.concat(prefix).toString('utf8'));
    }
  }
  if (ended) return Readable.from(prefix.length > 0 ? [Buffer.concat(prefix)] : [], { objectMode: false });
  body.unshift(prefix.length === 1 ? prefix[0] : Buffer.concat(prefix));
  return body;
}

/** The next data of a paused stream, or null at its end (rejects on a stream error). */
function readSome(body: Readable): Promise<Buffer | null> {
  const chunk = body.read() as Buffer | null;
  if (chunk !== null) return Promise.resolve(chunk);
  if (body.readableEnded) return Promise.resolve(null);
  if (body.destroyed) return Promise.reject(body.errored ?? Object.assign(new Error('The response was closed early'), { code: 'UND_ERR_SOCKET' }));
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      body.off('readable', onReadable);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
    };
    const onReadable = () => {
      const next = body.read() as Buffer | null;
      if (next === null) return; // wait for more, or for 'end'
      cleanup();
      resolve(next);
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onClose = () => {
      cleanup();
      if (body.readableEnded) resolve(null);
      else reject(body.errored ?? Object.assign(new Error('The response was closed early'), { code: 'UND_ERR_SOCKET' }));
    };
    body.on('readable', onReadable);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  });
}

/** Stops reading a body that is not wanted; the abort it reports is expected, not an error to throw. */
export function discard(body: Readable): void {
  if (body.destroyed) return;
  body.on('error', () => undefined);
  body.destroy();
}

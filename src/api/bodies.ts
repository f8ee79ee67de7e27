// Reading response bodies: JSON answers (ApiError-checked), bounded reads of error bodies, and the
// first data of a streamed body.
import { finished, Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { API_ERROR_OPENING, opensApiError } from './apiErrorHead';
import { DatagrokError } from './errors';
import { apiErrorOf, type FailureContext, parseErrorBody, serverFailure } from './failures';
import { webPageFailure } from './networkFailures';
import { type BodyInfo, mayBeApiError, SMALL_BODY } from './heads';
import { release } from './release';

export function parseJsonBody(text: string, contentType: string | undefined, ctx: FailureContext, lenient: boolean): unknown {
  const trimmed = text.trim();
  let value: unknown;
  try {
    value = trimmed === '' ? null : JSON.parse(trimmed);
  } catch {
    const body = parseErrorBody(trimmed, contentType);
    // An ApiError read only as far as its first kilobytes (readText): the server's error, with its message.
    if (body.apiError) throw serverFailure(ctx, 200, body);
    if (lenient && !body.html) return text;
    if (body.html) throw webPageFailure(ctx, trimmed, 'unexpectedAnswer');
    const hint = ctx.hintMissingApi ? ' Is the URL missing /api?' : ' Check the server URL.';
    throw new DatagrokError('server', `${ctx.what} failed: the server answered with something that is not JSON.${hint}`, { method: ctx.method, path: ctx.path });
  }
  const api = apiErrorOf(value);
  if (api) throw serverFailure(ctx, 200, { apiError: true, html: false, ...api });
  return value;
}

/**
 * A whole body as text, failing with `tooLarge()` as soon as more than `limit` bytes arrived. The size is
 * counted before anything is decoded: the bytes are kept as they came (the chunks Node's parser made; no
 * copy) and a body past the limit is refused having held only them. Decoded once at the end, chunk by
 * chunk, each released as it is decoded (release.ts; a refused body's at once). Strings made while
 * reading would be copied by the garbage collector and leave every chunk behind as garbage: a 65 MiB
 * answer refused that way peaked at 118 MiB above the baseline, this way at 61-63 (test/bench/answers.ts).
 *
 * With `errorLimit`, a body whose first bytes open an ApiError (apiErrorHead.ts) is read up to that many
 * bytes and no further (the connection is closed): its text is then the error's first kilobytes, which
 * parseErrorBody reads. A 200 ApiError with a 50 MB message otherwise cost 420-500 MiB above the baseline.
 */
export function readText(body: Readable, limit: number, tooLarge: () => Error, errorLimit?: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: (Buffer | undefined)[] = [];
    let size = 0;
    let settled = false;
    // Whether the first bytes are still to be looked at; then the limit an ApiError is cut at.
    let opening = errorLimit !== undefined;
    let cutAt = Number.POSITIVE_INFINITY;
    const drop = (chunk: Buffer) => {
      settled = true;
      for (const held of chunks) if (held) release(held);
      release(chunk);
      chunks.length = 0;
      discard(body);
    };
    body.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (opening && size >= API_ERROR_OPENING) {
        opening = false;
        const first = chunks.length === 0 ? chunk : Buffer.concat([...(chunks as Buffer[]), chunk], API_ERROR_OPENING);
        if (opensApiError(first.toString('latin1', 0, API_ERROR_OPENING))) cutAt = errorLimit as number;
      }
      if (size >= cutAt) {
        const text = Buffer.concat([...(chunks as Buffer[]), chunk], cutAt).toString('utf8');
        drop(chunk);
        resolve(text);
        return;
      }
      if (size > limit) {
        drop(chunk);
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    // Settles as async iteration does: at the end, on an error, or on a close before the end.
    finished(body, (err) => {
      if (settled) return;
      if (err) return reject(err);
      if (chunks.length === 1) return resolve((chunks[0] as Buffer).toString('utf8'));
      const decoder = new StringDecoder('utf8');
      const parts: string[] = [];
      for (let i = 0; i < chunks.length; i++) {
        parts.push(decoder.write(chunks[i] as Buffer));
        release(chunks[i] as Buffer);
        chunks[i] = undefined;
      }
      parts.push(decoder.end());
      resolve(parts.join(''));
    });
  });
}

/**
 * The body as text, read up to `limit` bytes (`bytes`: how many were read), then no further: the rest
 * is never read (the connection is closed instead). With the length declared (within the limit) the
 * chunks go straight into one buffer of that size.
 */
export async function readBytesLimited(body: Readable, limit: number, declared?: number): Promise<{ text: string; bytes: number }> {
  const chunks: Buffer[] = [];
  let whole = declared !== undefined && declared > 0 && declared <= limit ? Buffer.allocUnsafe(declared) : undefined;
  let size = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    if (whole && size + buf.length <= whole.length) buf.copy(whole, size);
    else {
      // More than declared: keep what was copied as a chunk and collect the rest as they come.
      if (whole) chunks.push(whole.subarray(0, size));
      whole = undefined;
      chunks.push(buf);
    }
    size += buf.length;
    if (size >= limit) break;
  }
  discard(body);
  const all = whole ? whole.subarray(0, size) : Buffer.concat(chunks);
  const kept = all.subarray(0, limit);
  return { text: kept.toString('utf8'), bytes: kept.length };
}

export async function readLimited(body: Readable, limit: number): Promise<string> {
  return (await readBytesLimited(body, limit)).text;
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
  // A body whose last data came with its end can have emitted 'end' while the peek's promise was
  // settling (the stream ends on a tick that runs before promise callbacks): everything is in the
  // prefix then, and unshifting it back would be refused (the chunk dropped, the body read as empty).
  if (ended || body.readableEnded) return Readable.from(prefix.length > 0 ? [Buffer.concat(prefix)] : [], { objectMode: false });
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

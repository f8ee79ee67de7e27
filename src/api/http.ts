// The transport: one undici Agent per client, the auth header, timeouts, retries of idempotent GETs,
// and turning every failure (status, ApiError on 200, HTML pages, dropped sockets) into a DatagrokError.
import { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import { DatagrokError } from './errors';
import { apiErrorOf, type FailureContext, parseErrorBody, serverFailure, transportFailure } from './failures';
import { normalizeApiKey, parseHttpUrl } from './names';
import { type BodyInfo, type ErrorResponse, header, mayBeApiError, numberHeader, type ReceiveHooks, Receiver, SMALL_BODY } from './receiver';
import type { ClientOptions, RequestLogEntry } from './types';

export const DEFAULT_TIMEOUTS = { connectMs: 30_000, requestMs: 60_000, transferMs: 600_000 } as const;
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
/** Longest wait between retries, whatever Retry-After asks for. */
const MAX_RETRY_DELAY_MS = 30_000;
/**
 * Response body buffer: one socket read. Buffering more does not speed a download up, but keeps more
 * 64 KiB socket chunks alive (and promoted) when the garbage collector runs, which raises peak memory.
 */
const BODY_HIGH_WATER_MARK = 64 * 1024;

export type HttpMethod = 'GET' | 'POST' | 'DELETE';
type ResponseData = Dispatcher.ResponseData;

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
  /** Force the "is the URL missing /api?" hint on a plain 404. */
  hintMissingApi?: boolean;
}

export type { BodyInfo } from './receiver';

/** Streams a body (ApiError-checked) and what the headers said. `commit()` marks data handed on to the caller. */
export type BodyConsumer<T> = (body: Readable, info: BodyInfo, commit: () => void) => Promise<T>;

/** A failed attempt and whether another attempt may follow. */
class AttemptFailure extends Error {
  constructor(
    readonly error: DatagrokError,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(error.message);
  }
}

export class Transport {
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly host: string;
  private readonly key: string;
  private readonly agent: Agent;
  private readonly timeouts: { connectMs: number; requestMs: number; transferMs: number };
  private readonly retries: number;
  private readonly retryBaseDelayMs: number;
  private readonly onRequest?: (entry: RequestLogEntry) => void;

  constructor(options: ClientOptions) {
    const url = parseHttpUrl(String(options.baseUrl ?? '').trim());
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.baseUrl = this.origin + this.basePath;
    this.host = url.host;
    this.key = normalizeApiKey(options.apiKey);
    this.timeouts = {
      connectMs: positive(options.timeouts?.connectMs, DEFAULT_TIMEOUTS.connectMs),
      requestMs: positive(options.timeouts?.requestMs, DEFAULT_TIMEOUTS.requestMs),
      transferMs: positive(options.timeouts?.transferMs, DEFAULT_TIMEOUTS.transferMs),
    };
    this.retries = Math.max(0, Math.floor(options.retries ?? 3));
    this.retryBaseDelayMs = Math.max(0, options.retryBaseDelayMs ?? 500);
    this.onRequest = options.onRequest;
    this.agent = new Agent({
      connect: { timeout: this.timeouts.connectMs },
      headersTimeout: this.timeouts.requestMs,
      bodyTimeout: this.timeouts.requestMs,
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
    });
  }

  /** Whether the base URL ends in /api (when not, a plain 404 hints at it). */
  get baseEndsWithApi(): boolean {
    return this.basePath.endsWith('/api');
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  /** Removes the API key (and anything shaped like a bearer token) from text that came from outside. */
  readonly redact = (text: string): string => {
    let t = text;
    if (this.key.length >= 4) t = t.split(this.key).join('***');
    return t.replace(/(bearer\s+)[^\s"',;]+/gi, '$1***');
  };

  /** A JSON response, ApiError-checked; `lenient` returns non-JSON text as is (function CSV outputs). */
  json<T>(spec: RequestSpec, lenient = false): Promise<T> {
    return this.run(spec, async (res, ctx) => {
      const text = await res.body.text();
      return parseJsonBody(text, header(res.headers, 'content-type'), ctx, lenient) as T;
    });
  }

  /** A response whose body the reference describes as empty: only checked for an ApiError. */
  empty(spec: RequestSpec): Promise<void> {
    return this.run(spec, async (res, ctx) => {
      const text = await readLimited(res.body, SMALL_BODY);
      const trimmed = text.trim();
      if (trimmed.startsWith('{') || trimmed.startsWith('"')) {
        const body = parseErrorBody(trimmed, header(res.headers, 'content-type'));
        if (body.apiError) throw serverFailure(ctx, res.statusCode, body);
      }
    });
  }

  /**
   * A streamed body. The first data is awaited before the consumer starts, so a connection dropped
   * before any data can still be retried. A small JSON/text body starting with '{' or '"' is checked
   * for an ApiError; file content is never scanned. The consumer gets the body as a Readable (pipe it:
   * event-driven streaming costs far less per chunk than async iteration).
   */
  stream<T>(spec: RequestSpec, consume: BodyConsumer<T>, committed: { value: boolean }): Promise<T> {
    return this.run(
      { ...spec, transfer: true },
      async (res, ctx) => {
        const info: BodyInfo = {
          contentType: header(res.headers, 'content-type'),
          contentLength: numberHeader(res.headers, 'content-length'),
        };
        const body = res.body;
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
            if (ended) {
              const api = apiErrorOf(safeJson(Buffer.concat(prefix).toString('utf8')));
              if (api) throw serverFailure(ctx, res.statusCode, { apiError: true, html: false, ...api });
            }
          }
        }
        let stream: Readable;
        if (ended) stream = Readable.from(prefix.length > 0 ? [Buffer.concat(prefix)] : [], { objectMode: false });
        else {
          body.unshift(prefix.length === 1 ? prefix[0] : Buffer.concat(prefix));
          stream = body;
        }
        try {
          return await consume(stream, info, () => {
            committed.value = true;
          });
        } finally {
          if (!body.destroyed) body.destroy();
        }
      },
      committed,
    );
  }

  private context(spec: RequestSpec): FailureContext {
    return {
      what: spec.what,
      method: spec.method,
      path: relativePath(spec),
      hintMissingApi: spec.hintMissingApi ?? !this.baseEndsWithApi,
      redact: this.redact,
    };
  }

  /** A request whose response undici parses into a Readable body (JSON calls, small reads). */
  private run<T>(
    spec: RequestSpec,
    consume: (res: ResponseData, ctx: FailureContext) => Promise<T>,
    committed: { value: boolean } = { value: false },
  ): Promise<T> {
    return this.attempts(spec, committed, async (options, ctx, outcome) => {
      let res: ResponseData;
      try {
        res = await this.agent.request({ ...options, signal: spec.signal, highWaterMark: BODY_HIGH_WATER_MARK });
      } catch (err) {
        throw this.transportAttemptFailure(err, spec, ctx, options.bodyTimeout);
      }
      outcome.status = res.statusCode;
      if (res.statusCode < 200 || res.statusCode >= 300 || header(res.headers, 'api-error') !== undefined) {
        let text = '';
        try {
          text = await readLimited(res.body, SMALL_BODY);
        } catch {
          // the error body is a courtesy; the status says enough
        }
        throw this.responseFailure({ status: res.statusCode, headers: res.headers, text }, ctx);
      }
      try {
        return await consume(res, ctx);
      } catch (err) {
        if (!res.body.destroyed) res.body.destroy();
        throw this.transportAttemptFailure(err, spec, ctx, options.bodyTimeout);
      }
    });
  }

  /**
   * A streamed body handed chunk by chunk to a sink, straight from undici's parser (see receiver.ts).
   * Same contract as stream(): a small JSON/text body is checked for an ApiError before the sink sees it
   * (file content never is scanned), and a GET is retried only while nothing reached the sink.
   */
  receive(spec: RequestSpec, hooks: Omit<ReceiveHooks, 'checkSmallBody' | 'commit'>, committed: { value: boolean }): Promise<void> {
    const transfer = { ...spec, transfer: true };
    return this.attempts(transfer, committed, async (options, ctx, outcome) => {
      const receiver = new Receiver(
        {
          open: hooks.open,
          commit: () => {
            committed.value = true;
          },
          checkSmallBody: (text, status) => {
            const api = apiErrorOf(safeJson(text));
            return api ? serverFailure(ctx, status, { apiError: true, html: false, ...api }) : undefined;
          },
        },
        spec.signal,
      );
      try {
        this.agent.dispatch(options, receiver);
      } catch (err) {
        receiver.abandon(err as Error);
      }
      let answer: ErrorResponse | undefined;
      try {
        answer = await receiver.done;
      } catch (err) {
        throw this.transportAttemptFailure(err, transfer, ctx, options.bodyTimeout);
      } finally {
        outcome.status = receiver.status;
      }
      if (answer) throw this.responseFailure(answer, ctx);
    });
  }

  /** Runs attempts of one request: the API key, cancellation, retries of idempotent GETs, the request log. */
  private async attempts<T>(
    spec: RequestSpec,
    committed: { value: boolean },
    attempt: (options: Dispatcher.DispatchOptions & { bodyTimeout: number }, ctx: FailureContext, outcome: { status?: number }) => Promise<T>,
  ): Promise<T> {
    const ctx = this.context(spec);
    if (this.key === '') {
      throw new DatagrokError('badInput', `${spec.what} failed: no API key was given. Sign in with your API key.`, {
        method: spec.method,
        path: ctx.path,
      });
    }
    if (spec.signal?.aborted) {
      throw new DatagrokError('cancelled', `${spec.what} was cancelled.`, { method: spec.method, path: ctx.path });
    }
    // Only GETs without a body are retried; an upload or any POST is sent exactly once.
    const maxAttempts = spec.method === 'GET' && spec.body === undefined ? this.retries + 1 : 1;
    const timeoutMs = spec.transfer ? this.timeouts.transferMs : this.timeouts.requestMs;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.key}`,
      'user-agent': 'datagrok-vscode',
    };
    if (spec.contentType) headers['content-type'] = spec.contentType;
    if (spec.contentLength !== undefined) headers['content-length'] = String(spec.contentLength);
    const options = {
      origin: this.origin,
      path: this.basePath + ctx.path,
      method: spec.method,
      headers,
      // undici accepts async iterables as bodies (documented; its type declaration lags behind).
      body: (spec.body ?? (spec.method === 'POST' ? '' : null)) as Readable | string | Uint8Array | null,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    };
    for (let n = 1; ; n++) {
      const started = performance.now();
      const outcome: { status?: number } = {};
      try {
        const value = await attempt(options, ctx, outcome);
        this.log(spec, ctx, n, started, outcome.status);
        return value;
      } catch (err) {
        const failure = err instanceof AttemptFailure ? err : this.transportAttemptFailure(err, spec, ctx, timeoutMs);
        this.log(spec, ctx, n, started, outcome.status, failure.error);
        if (n < maxAttempts && failure.retryable && !committed.value && !spec.signal?.aborted) {
          await sleep(failure.retryAfterMs ?? this.backoff(n), spec.signal, ctx);
          continue;
        }
        throw failure.error;
      }
    }
  }

  private backoff(attempt: number): number {
    const base = this.retryBaseDelayMs * 2 ** (attempt - 1);
    return Math.min(MAX_RETRY_DELAY_MS, base + Math.random() * base * 0.2);
  }

  private transportAttemptFailure(err: unknown, spec: RequestSpec, ctx: FailureContext, timeoutMs: number): AttemptFailure {
    if (err instanceof AttemptFailure) return err;
    const { error, dropped } = transportFailure(err, {
      ...ctx,
      cancelled: spec.signal?.aborted === true,
      timeoutMs,
      connectMs: this.timeouts.connectMs,
      host: this.host,
    });
    return new AttemptFailure(error, dropped);
  }

  private responseFailure(res: ErrorResponse, ctx: FailureContext): AttemptFailure {
    const body = parseErrorBody(res.text, header(res.headers, 'content-type'));
    const headerValue = header(res.headers, 'api-error');
    if (headerValue !== undefined && res.status < 300) {
      body.apiError = body.apiError || body.message === undefined;
      if (body.message === undefined && !/^(true|1|yes)?$/i.test(headerValue.trim())) body.message = headerValue;
    }
    const error = serverFailure(ctx, res.status, body);
    const retryable = RETRY_STATUSES.has(res.status);
    const retryAfter = retryable ? parseRetryAfter(header(res.headers, 'retry-after')) : undefined;
    return new AttemptFailure(error, retryable, retryAfter);
  }

  private log(spec: RequestSpec, ctx: FailureContext, attempt: number, started: number, status?: number, error?: DatagrokError): void {
    if (!this.onRequest) return;
    const entry: RequestLogEntry = {
      method: spec.method,
      path: ctx.path,
      durationMs: Math.round(performance.now() - started),
      attempt,
    };
    if (status !== undefined) entry.status = status;
    if (error) entry.error = error.kind;
    try {
      this.onRequest(entry);
    } catch {
      // a logging hook must never break a request
    }
  }
}

function positive(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

function relativePath(spec: RequestSpec): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) params.append(k, String(v));
  const q = params.toString();
  return q ? `${spec.path}?${q}` : spec.path;
}

/** Retry-After as seconds or an HTTP date, in ms, capped. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const t = value.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(t)) ms = Number(t) * 1000;
  else {
    const date = Date.parse(t);
    if (Number.isNaN(date)) return undefined;
    ms = date - now;
  }
  return Math.min(MAX_RETRY_DELAY_MS, Math.max(0, ms));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseJsonBody(text: string, contentType: string | undefined, ctx: FailureContext, lenient: boolean): unknown {
  const trimmed = text.trim();
  let value: unknown;
  try {
    value = trimmed === '' ? null : JSON.parse(trimmed);
  } catch {
    const body = parseErrorBody(trimmed, contentType);
    if (lenient && !body.html) return text;
    const why = body.html
      ? 'the server answered with a web page instead of data'
      : 'the server answered with something that is not JSON';
    const hint = ctx.hintMissingApi ? ' Is the URL missing /api?' : ' Check the server URL.';
    throw new DatagrokError('server', `${ctx.what} failed: ${why}.${hint}`, { method: ctx.method, path: ctx.path });
  }
  const api = apiErrorOf(value);
  if (api) throw serverFailure(ctx, 200, { apiError: true, html: false, ...api });
  return value;
}

async function readLimited(body: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    chunks.push(buf);
    size += buf.length;
    if (size >= limit) break;
  }
  if (!body.destroyed) body.destroy();
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
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

function sleep(ms: number, signal: AbortSignal | undefined, ctx: FailureContext): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DatagrokError('cancelled', `${ctx.what} was cancelled.`, { method: ctx.method, path: ctx.path }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

// The transport: one undici Agent per client, the auth header, timeouts, retries of idempotent GETs,
// and turning every failure (status, ApiError on 200, HTML pages, dropped sockets) into a DatagrokError.
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { answerTooLarge, checkWriteAnswer, deadlinePassed, unexpectedDownload } from './answers';
import { discard, parseJsonBody, peekBody, readBytesLimited, readLimited } from './bodies';
import { createPool } from './dispatcher';
import { DatagrokError } from './errors';
import { type FailureContext, parseErrorBody, serverFailure, smallBodyFailure, transportFailure } from './failures';
import { apiKeyProblem, normalizeApiKey, parseHttpUrl } from './names';
import type { Route } from './network';
import { type BodyInfo, bodyInfo, type ErrorResponse, header, numberHeader, type ReceiveHooks, Receiver, SMALL_BODY } from './receiver';
import type { WireDispatcher } from './wire';
import { dispatchOptions, logEntry, positive, type RequestSpec, relativePath } from './request';
import { redactKey } from './redact';
import { AttemptFailure, backoff, responseFailure, sleep } from './retry';
import type { ClientOptions, RequestLogEntry } from './types';

export type { HttpMethod, RequestSpec } from './request';
export { parseRetryAfter } from './retry';

export const DEFAULT_TIMEOUTS = { connectMs: 30_000, requestMs: 60_000, transferMs: 600_000 } as const;
export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** Response body buffer: one socket read (more keeps more chunks alive when the GC runs: more memory). */
const BODY_HIGH_WATER_MARK = 64 * 1024;

type ResponseData = Dispatcher.ResponseData;

export type { BodyInfo } from './receiver';

/** Streams a body (ApiError-checked) and what the headers said. `commit()` marks data handed on to the caller. */
export type BodyConsumer<T> = (body: Readable, info: BodyInfo, commit: () => void) => Promise<T>;

export class Transport {
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly host: string;
  private readonly key: string;
  private readonly agent: Dispatcher;
  private readonly wire: WireDispatcher | undefined;
  /** Direct or through which proxy (see network.ts). */
  readonly route: Route;
  private readonly timeouts: { connectMs: number; requestMs: number; transferMs: number };
  private readonly retries: number;
  private readonly maxAnswerBytes: number;
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
    this.maxAnswerBytes = positive(options.maxAnswerBytes, DEFAULT_MAX_ANSWER_BYTES);
    this.retryBaseDelayMs = Math.max(0, options.retryBaseDelayMs ?? 500);
    this.onRequest = options.onRequest;
    const pool = createPool(url, this.timeouts, options.network);
    this.agent = pool.dispatcher;
    this.wire = pool.wire;
    this.route = pool.route;
  }

  /** Whether the base URL ends in /api (when not, a plain 404 hints at it). */
  get baseEndsWithApi(): boolean {
    return this.basePath.endsWith('/api');
  }

  close(): Promise<void> {
    return Promise.all([this.agent.close(), this.wire?.close()]).then(() => undefined);
  }

  /** Removes the API key (and anything shaped like a bearer token) from text that came from outside. */
  readonly redact = (text: string): string => redactKey(text, this.key);

  /** A JSON response, ApiError-checked; `lenient` returns non-JSON text as is (function CSV outputs). */
  json<T>(spec: RequestSpec, lenient = false): Promise<T> {
    return this.run(spec, async (res, ctx) => {
      const declared = numberHeader(res.headers, 'content-length');
      if (declared !== undefined && declared > this.maxAnswerBytes) throw answerTooLarge(ctx, this.maxAnswerBytes, res.statusCode);
      const { text, bytes } = await readBytesLimited(res.body, this.maxAnswerBytes + 1, declared);
      if (bytes > this.maxAnswerBytes) throw answerTooLarge(ctx, this.maxAnswerBytes, res.statusCode);
      return parseJsonBody(text, header(res.headers, 'content-type'), ctx, lenient) as T;
    });
  }

  /**
   * A write whose answer the reference describes as empty: an ApiError fails it, and so does anything
   * that is not empty, JSON or a "done" (a gateway's web page, an error as plain text).
   */
  empty(spec: RequestSpec): Promise<void> {
    return this.run(spec, async (res, ctx) => {
      const text = await readLimited(res.body, SMALL_BODY);
      const contentType = header(res.headers, 'content-type');
      const trimmed = text.trim();
      if (trimmed.startsWith('{') || trimmed.startsWith('"')) {
        const body = parseErrorBody(trimmed, contentType);
        if (body.apiError) throw serverFailure(ctx, res.statusCode, body);
      }
      checkWriteAnswer(ctx, res.statusCode, text, contentType);
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
        const info = bodyInfo(res.headers);
        const refused = unexpectedDownload(ctx, res.statusCode, info, spec.acceptsHtml === true);
        if (refused) throw refused;
        const body = res.body;
        const stream = await peekBody(body, info, (text) => {
          const failure = smallBodyFailure(ctx, res.statusCode, text);
          if (failure) throw failure;
        });
        try {
          return await consume(stream, info, () => {
            committed.value = true;
          });
        } finally {
          discard(body);
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
      origin: this.origin,
      redact: this.redact,
      proxyHost: this.route.kind === 'proxy' ? this.route.proxy.host : undefined,
    };
  }

  /** A request whose response undici parses into a Readable body (JSON calls, small reads). */
  private run<T>(
    spec: RequestSpec,
    consume: (res: ResponseData, ctx: FailureContext) => Promise<T>,
    committed: { value: boolean } = { value: false },
  ): Promise<T> {
    return this.attempts(spec, committed, async (options, ctx, outcome) => {
      // A JSON call also has an overall deadline: an answer that trickles in never goes idle.
      const deadline = spec.transfer ? undefined : AbortSignal.timeout(options.bodyTimeout);
      const signal = deadline && spec.signal ? AbortSignal.any([spec.signal, deadline]) : (deadline ?? spec.signal);
      // The deadline passed with no answer: a plain "did not answer"; with an answer still coming: it trickled.
      const fail = (err: unknown, answered: boolean) => {
        if (!deadline?.aborted || spec.signal?.aborted) return this.transportAttemptFailure(err, spec, ctx, options.bodyTimeout);
        if (answered) return new AttemptFailure(deadlinePassed(ctx, options.bodyTimeout), false);
        return this.transportAttemptFailure(Object.assign(new Error('no answer'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), spec, ctx, options.bodyTimeout);
      };
      let res: ResponseData;
      try {
        res = await this.agent.request({ ...options, signal, highWaterMark: BODY_HIGH_WATER_MARK });
      } catch (err) {
        throw fail(err, false);
      }
      outcome.status = res.statusCode;
      if (res.statusCode < 200 || res.statusCode >= 300 || header(res.headers, 'api-error') !== undefined) {
        let text = '';
        try {
          text = await readLimited(res.body, SMALL_BODY);
        } catch {
          // the error body is a courtesy; the status says enough
        }
        throw responseFailure({ status: res.statusCode, headers: res.headers, text }, ctx);
      }
      if (spec.onServerTime) {
        const date = Date.parse(header(res.headers, 'date') ?? '');
        if (!Number.isNaN(date)) spec.onServerTime(date);
      }
      try {
        return await consume(res, ctx);
      } catch (err) {
        discard(res.body);
        throw fail(err, true);
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
    const wire = spec.method === 'GET' && spec.body === undefined ? this.wire : undefined; // direct plain HTTP
    return this.attempts(transfer, committed, async (options, ctx, outcome) => {
      const receiver = new Receiver(
        {
          open: hooks.open,
          commit: () => {
            committed.value = true;
          },
          checkSmallBody: (text, status) => smallBodyFailure(ctx, status, text),
          checkHeaders: (info, status) => unexpectedDownload(ctx, status, info, spec.acceptsHtml === true),
        },
        spec.signal,
        wire !== undefined,
      );
      try {
        if (wire) wire.dispatch(options, receiver);
        else this.agent.dispatch(options, receiver);
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
      if (answer) throw responseFailure(answer, ctx);
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
    const keyProblem = apiKeyProblem(this.key);
    if (keyProblem) throw new DatagrokError('badInput', `${spec.what} failed: ${keyProblem}`, { method: spec.method, path: ctx.path });
    if (spec.signal?.aborted) {
      throw new DatagrokError('cancelled', `${spec.what} was cancelled.`, { method: spec.method, path: ctx.path });
    }
    // Only GETs without a body are retried; an upload or any POST is sent exactly once.
    const maxAttempts = spec.method === 'GET' && spec.body === undefined ? this.retries + 1 : 1;
    const timeoutMs = spec.transfer ? this.timeouts.transferMs : this.timeouts.requestMs;
    const options = dispatchOptions(spec, this.key, this.origin, this.basePath + ctx.path, timeoutMs);
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
          await sleep(failure.retryAfterMs ?? backoff(this.retryBaseDelayMs, n), spec.signal, ctx);
          continue;
        }
        throw failure.error;
      }
    }
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

  private log(spec: RequestSpec, ctx: FailureContext, attempt: number, started: number, status?: number, error?: DatagrokError): void {
    if (!this.onRequest) return;
    try {
      this.onRequest(logEntry(spec.method, ctx.path, attempt, started, status, error?.kind));
    } catch {
      // a logging hook must never break a request
    }
  }
}

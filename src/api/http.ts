// The transport: one client's connections (connections.ts) on Node's HTTP client, the auth header,
// timeouts, retries of idempotent GETs, and turning every failure (status, ApiError on 200, HTML pages,
// dropped sockets, a proxy's own answer) into a DatagrokError.
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { answerTooLarge, checkWriteAnswer, deadlinePassed, unexpectedDownload } from './answers';
import { discard, parseJsonBody, peekBody, readLimited, readText } from './bodies';
import { type Connections, createConnections } from './connections';
import { DatagrokError } from './errors';
import { type ExchangeRequest, exchange, TransportError } from './exchange';
import { type FailureContext, parseErrorBody, serverFailure, smallBodyFailure, transportFailure } from './failures';
import { type BodyInfo, bodyInfo, header, numberHeader, SMALL_BODY } from './heads';
import { apiKeyProblem, normalizeApiKey, parseHttpUrl } from './names';
import type { Route } from './network';
import { proxyAnswerFailure } from './networkFailures';
import { redactKey } from './redact';
import { releaseReads } from './release';
import { logEntry, positive, type RequestSpec, relativePath, requestParts } from './request';
import { AttemptFailure, backoff, responseFailure, sleep } from './retry';
import type { ClientOptions, RequestLogEntry } from './types';

export type { HttpMethod, RequestSpec } from './request';
export { parseRetryAfter } from './retry';
export type { BodyInfo } from './heads';

export const DEFAULT_TIMEOUTS = { connectMs: 30_000, requestMs: 60_000, transferMs: 600_000 } as const;
export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** Streams a body (ApiError-checked) and what the headers said. `commit()` marks data handed on to the caller. */
export type BodyConsumer<T> = (body: Readable, info: BodyInfo, commit: () => void, ctx: FailureContext) => Promise<T>;

type Attempt = Omit<ExchangeRequest, 'signal'>;

export class Transport {
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly originUrl: URL;
  private readonly basePath: string;
  private readonly host: string;
  private readonly key: string;
  private readonly connections: Connections;
  /** Direct, through which proxy, or as VS Code's extension host routes it (see network.ts). */
  readonly route: Route;
  private readonly timeouts: { connectMs: number; requestMs: number; transferMs: number };
  private readonly retries: number;
  private readonly maxAnswerBytes: number;
  private readonly retryBaseDelayMs: number;
  private readonly onRequest?: (entry: RequestLogEntry) => void;
  private closed = false;
  private running = 0;
  private idle: (() => void) | undefined;

  constructor(options: ClientOptions) {
    const url = parseHttpUrl(String(options.baseUrl ?? '').trim());
    this.origin = url.origin;
    this.originUrl = new URL(url.origin);
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
    this.connections = createConnections(url, options.network);
    this.route = this.connections.route;
  }

  /** The most bytes of an answer held in memory (datagrok.maxAnswerSizeMB). */
  get answerLimit(): number {
    return this.maxAnswerBytes;
  }

  /** Whether the base URL ends in /api (when not, a plain 404 hints at it). */
  get baseEndsWithApi(): boolean {
    return this.basePath.endsWith('/api');
  }

  /** Takes no new request; resolves once those running have ended, then closes the connections. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.running > 0) await new Promise<void>((resolve) => (this.idle = resolve));
    this.connections.close();
  }

  /** Removes the API key (and anything shaped like a bearer token) from text that came from outside. */
  readonly redact = (text: string): string => redactKey(text, this.key);

  /**
   * A JSON response, ApiError-checked; `lenient` returns non-JSON text as is (function CSV outputs). The
   * size is checked before anything is decoded (the declared length, then each chunk as it comes), and
   * the body is held once, as text.
   */
  json<T>(spec: RequestSpec, lenient = false): Promise<T> {
    return this.run(spec, async (res, ctx) => {
      const tooLarge = () => answerTooLarge(ctx, this.maxAnswerBytes, res.statusCode);
      const declared = numberHeader(res.headers, 'content-length');
      if (declared !== undefined && declared > this.maxAnswerBytes) throw tooLarge();
      // The socket's reads are released once parsed, as a download's are: only the body's bytes are held.
      const stopReleasing = releaseReads(res);
      // An ApiError (some servers answer failures with 200) is read no further than an error body is.
      const text = await readText(res, this.maxAnswerBytes, tooLarge, SMALL_BODY).finally(stopReleasing);
      return parseJsonBody(text, header(res.headers, 'content-type'), ctx, lenient) as T;
    });
  }

  /**
   * A write whose answer the reference describes as empty: an ApiError fails it, and so does anything
   * that is not empty, JSON or a "done" (a gateway's web page, an error as plain text).
   */
  empty(spec: RequestSpec): Promise<void> {
    return this.run(spec, async (res, ctx) => {
      const text = await readLimited(res, SMALL_BODY);
      const contentType = header(res.headers, 'content-type');
      const trimmed = text.trim();
      if (trimmed.startsWith('{') || trimmed.startsWith('"')) {
        const body = parseErrorBody(trimmed, contentType);
        if (body.apiError) throw serverFailure(ctx, res.statusCode ?? 0, body);
      }
      checkWriteAnswer(ctx, res.statusCode ?? 0, text, contentType);
    });
  }

  /**
   * A streamed body. The first data is awaited before the consumer starts, so a connection dropped
   * before any data can still be retried. A small JSON/text body starting with '{' or '"' is checked
   * for an ApiError; file content is never scanned. The consumer gets the body as a Readable (pipe it,
   * or take its 'data' events: event-driven streaming costs far less per chunk than async iteration).
   */
  stream<T>(spec: RequestSpec, consume: BodyConsumer<T>, committed: { value: boolean }): Promise<T> {
    return this.run(
      { ...spec, transfer: true },
      async (res, ctx) => {
        const info = bodyInfo(res.headers);
        const status = res.statusCode ?? 0;
        const refused = unexpectedDownload(ctx, status, info, spec.acceptsHtml === true);
        if (refused) throw refused;
        const stream = await peekBody(res, info, (text) => {
          const failure = smallBodyFailure(ctx, status, text);
          if (failure) throw failure;
        });
        try {
          return await consume(
            stream,
            info,
            () => {
              committed.value = true;
            },
            ctx,
          );
        } finally {
          discard(res);
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

  /** One request and its answer's head; a 2xx answer's body goes to `consume`, any other is a failure. */
  private run<T>(spec: RequestSpec, consume: (res: IncomingMessage, ctx: FailureContext) => Promise<T>, committed: { value: boolean } = { value: false }): Promise<T> {
    return this.attempts(spec, committed, async (request, ctx, outcome) => {
      // A JSON call also has an overall deadline: an answer that trickles in never goes idle.
      const deadline = spec.transfer ? undefined : AbortSignal.timeout(request.idleMs);
      const signal = deadline && spec.signal ? AbortSignal.any([spec.signal, deadline]) : (deadline ?? spec.signal);
      // The deadline passed with no answer: a plain "did not answer"; with an answer still coming: it trickled.
      const fail = (err: unknown, answered: boolean) => {
        if (!deadline?.aborted || spec.signal?.aborted) return this.transportAttemptFailure(err, spec, ctx, request.idleMs);
        if (answered) return new AttemptFailure(deadlinePassed(ctx, request.idleMs), false);
        return this.transportAttemptFailure(new TransportError('HEADERS_TIMEOUT', 'no answer'), spec, ctx, request.idleMs);
      };
      let res: IncomingMessage;
      try {
        const answer = await exchange(this.connections, { ...request, signal });
        res = answer.res;
        ctx.proxyHost = answer.proxyHost ?? ctx.proxyHost;
        if (answer.fromProxy && ctx.proxyHost) {
          discard(res);
          outcome.status = res.statusCode;
          throw new AttemptFailure(proxyAnswerFailure({ ...ctx, host: this.host, proxyHost: ctx.proxyHost }, res.statusCode ?? 0), false);
        }
      } catch (err) {
        throw fail(err, false);
      }
      const status = res.statusCode ?? 0;
      outcome.status = status;
      if (status < 200 || status >= 300 || header(res.headers, 'api-error') !== undefined) {
        let text = '';
        try {
          // At most SMALL_BODY: a 50 MB error page costs what a message needs, not 50 MB.
          text = await readLimited(res, SMALL_BODY);
        } catch {
          // the error body is a courtesy; the status says enough
        }
        throw responseFailure({ status, headers: res.headers, text }, ctx);
      }
      if (spec.onServerTime) {
        const date = Date.parse(header(res.headers, 'date') ?? '');
        if (!Number.isNaN(date)) spec.onServerTime(date);
      }
      try {
        return await consume(res, ctx);
      } catch (err) {
        discard(res);
        throw fail(err, true);
      }
    });
  }

  /** Runs attempts of one request: the API key, cancellation, retries of idempotent GETs, the request log. */
  private async attempts<T>(
    spec: RequestSpec,
    committed: { value: boolean },
    attempt: (request: Attempt, ctx: FailureContext, outcome: { status?: number }) => Promise<T>,
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
    if (this.closed) throw this.transportAttemptFailure(new TransportError('CLIENT_CLOSED', 'the client was closed'), spec, ctx, 0).error;
    // Only GETs without a body are retried; an upload or any POST is sent exactly once.
    const maxAttempts = spec.method === 'GET' && spec.body === undefined ? this.retries + 1 : 1;
    const idleMs = spec.transfer && !spec.callAnswer ? this.timeouts.transferMs : this.timeouts.requestMs;
    const request: Attempt = { ...requestParts(spec, this.key, this.originUrl, this.basePath + ctx.path), connectMs: this.timeouts.connectMs, idleMs };
    this.running++;
    try {
      for (let n = 1; ; n++) {
        const started = performance.now();
        const outcome: { status?: number } = {};
        try {
          const value = await attempt(request, ctx, outcome);
          this.log(spec, ctx, n, started, outcome.status);
          return value;
        } catch (err) {
          const failure = err instanceof AttemptFailure ? err : this.transportAttemptFailure(err, spec, ctx, idleMs);
          this.log(spec, ctx, n, started, outcome.status, failure.error);
          if (n < maxAttempts && failure.retryable && !committed.value && !spec.signal?.aborted) {
            await sleep(failure.retryAfterMs ?? backoff(this.retryBaseDelayMs, n), spec.signal, ctx);
            continue;
          }
          throw failure.error;
        }
      }
    } finally {
      if (--this.running === 0) this.idle?.();
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

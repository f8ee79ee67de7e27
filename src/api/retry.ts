// Retrying a request: which failures may be retried, how long to wait (Retry-After, backoff), and a
// wait that a cancel ends early. Only body-less GETs are ever retried (see Transport.attempts).
import { DatagrokError } from './errors';
import { type FailureContext, parseErrorBody, serverFailure } from './failures';
import { looksLikeSignInPage, proxyCredentialsFailure, redirectFailure, webPageFailure } from './networkFailures';
import { type ErrorResponse, header } from './heads';

export const RETRY_STATUSES = new Set([429, 502, 503, 504]);
/** Longest wait between retries, whatever Retry-After asks for. */
const MAX_RETRY_DELAY_MS = 30_000;

/** A failed attempt and whether another attempt may follow. */
export class AttemptFailure extends Error {
  constructor(
    readonly error: DatagrokError,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(error.message);
  }
}

/** Exponential backoff with a little jitter, capped: attempt 1 waits about `baseMs`. */
export function backoff(baseMs: number, attempt: number): number {
  const base = baseMs * 2 ** (attempt - 1);
  return Math.min(MAX_RETRY_DELAY_MS, base + Math.random() * base * 0.2);
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

export function sleep(ms: number, signal: AbortSignal | undefined, ctx: FailureContext): Promise<void> {
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

/** A non-2xx answer (or an ApiError flagged by header): the error, and whether and when to retry. */
export function responseFailure(res: ErrorResponse, ctx: FailureContext): AttemptFailure {
  const body = parseErrorBody(res.text, header(res.headers, 'content-type'));
  // Requests to an http:// server go to the proxy as plain requests: its 407 arrives as an answer (and
  // tinyproxy answers rejected credentials with an HTML 401 carrying a Basic challenge).
  if (ctx.proxyHost && (res.status === 407 || (res.status === 401 && body.html && header(res.headers, 'www-authenticate') !== undefined))) {
    return new AttemptFailure(proxyCredentialsFailure(ctx, ctx.proxyHost, res.status), false);
  }
  if (res.status >= 300 && res.status < 400 && !body.apiError) {
    return new AttemptFailure(redirectFailure(ctx, res.status, header(res.headers, 'location')), false);
  }
  // A sign-in gateway's page (some answer 401/403, some 200 with an api-error-less page).
  if (body.html && res.status < 500 && looksLikeSignInPage(res.text)) return new AttemptFailure(webPageFailure(ctx, res.text), false);
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

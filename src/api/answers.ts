// A 2xx answer that is not what the route answers: a sign-in gateway's or proxy's web page, a plain-text
// error, a compressed file nobody asked for, an answer too large to hold. Taken for success these lose
// data (a save reported done, a login page saved as the CSV); they fail here, with the kind
// 'unexpectedAnswer' (or 'tooLarge') and what to do.
import { DatagrokError } from './errors';
import type { FailureContext } from './failures';
import { looksLikeSignInPage, webPageFailure } from './networkFailures';
import { formatBytes } from './units';

/** What the headers of a streamed answer said. */
export interface AnswerInfo {
  contentType?: string;
  contentLength?: number;
  contentEncoding?: string;
}

/** Text a server may answer a write with to say it is done. */
const DONE_WORDS = /^(ok|okay|done|success|true)\.?$/i;

function details(ctx: FailureContext, status?: number) {
  return { method: ctx.method, path: ctx.path, status };
}

function isHtml(contentType: string | undefined, text: string): boolean {
  const t = text.trimStart();
  return (contentType ?? '').toLowerCase().includes('html') || /^<(!doctype|html|head|body)\b/i.test(t);
}

/**
 * A web page came back (2xx) where the server's own answer belongs: most often a sign-in gateway or a
 * proxy's page. A page that asks to sign in gets the gateway's advice (networkFailures.ts).
 */
export function gatewayPage(ctx: FailureContext, status: number, page: string): DatagrokError {
  if (looksLikeSignInPage(page)) return webPageFailure(ctx, page, 'unexpectedAnswer');
  return new DatagrokError(
    'unexpectedAnswer',
    `${ctx.what} failed: a web page came back instead of the server's answer (a sign-in gateway or proxy page?). ` +
      `Open ${ctx.origin} in the browser, sign in there, then try again.${ctx.method === 'GET' ? '' : ' Nothing is known to have been saved.'}`,
    details(ctx, status),
  );
}

/**
 * The answer to a write whose reference answer is empty (file upload, delete, approve, deny, share): empty,
 * JSON, or a word that says "done". A web page or other text (e.g. "Internal error: disk full") is a failure.
 */
export function checkWriteAnswer(ctx: FailureContext, status: number, text: string, contentType: string | undefined): void {
  const t = text.trim();
  if (t === '' || DONE_WORDS.test(t)) return;
  if (isHtml(contentType, t)) throw gatewayPage(ctx, status, t);
  try {
    JSON.parse(t);
    return;
  } catch {
    // not JSON: the server said something else than "done"
  }
  const said = ctx.redact(t.replace(/\s+/g, ' ')).slice(0, 200);
  throw new DatagrokError('unexpectedAnswer', `${ctx.what} failed: the server answered "${said}" instead of confirming. It may not have been done; check, then try again.`, {
    ...details(ctx, status),
    serverMessage: said,
  });
}

/**
 * Refuses a download that is certainly not the file: a content encoding the client never asked for
 * (saved raw, a gzip body would replace the CSV), or a web page for a file that is not one.
 */
export function unexpectedDownload(ctx: FailureContext, status: number, info: AnswerInfo, acceptsHtml: boolean): DatagrokError | undefined {
  const encoding = (info.contentEncoding ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') {
    return new DatagrokError(
      'unexpectedAnswer',
      `${ctx.what} failed: the server (or a proxy) sent the content compressed (${encoding}) although it was not asked for, so it is not the file's bytes. Nothing was saved; ask the administrator to check the proxy's compression settings.`,
      details(ctx, status),
    );
  }
  if (!acceptsHtml && (info.contentType ?? '').toLowerCase().includes('text/html')) return gatewayPage(ctx, status, '');
  return undefined;
}

/** An answer larger than the client holds in memory. */
export function answerTooLarge(ctx: FailureContext, limit: number, status?: number): DatagrokError {
  return new DatagrokError(
    'tooLarge',
    `${ctx.what} failed: the server's answer is larger than ${formatBytes(limit)}, more than is held in memory. Narrow the request (a filter, fewer rows), or raise the limit (setting datagrok.maxAnswerSizeMB).`,
    details(ctx, status),
  );
}

/** A JSON call whose answer kept coming (slowly) past the request timeout. */
export function deadlinePassed(ctx: FailureContext, ms: number): DatagrokError {
  return new DatagrokError(
    'timeout',
    `${ctx.what} failed: the answer did not complete within ${Math.round(ms / 1000)} s (it kept arriving too slowly). Try again later, or raise datagrok.requestTimeoutSeconds.`,
    details(ctx),
  );
}

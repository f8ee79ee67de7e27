// Failures of the network in between (certificates, proxies, sign-in gateways), each said with what to
// do. Pure, like failures.ts, which calls these first. Never a proxy credential nor the key in a message.
import { DatagrokError } from './errors';

/** Where a connection failure happened, for the message. */
export interface NetworkContext {
  what: string;
  method: string;
  path: string;
  /** host[:port] of the server. */
  host: string;
  /** host[:port] of the proxy when requests go through one. */
  proxyHost?: string;
}

const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);
const EXPIRED = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const WRONG_HOST = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH']);
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'EPROTO']);
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);

const setupFailures = new WeakSet<DatagrokError>();

/** A failure of the network setup (certificate, proxy, gateway): its message already says what to do. */
export function isNetworkSetupFailure(e: unknown): boolean {
  return e instanceof DatagrokError && setupFailures.has(e);
}

function setupFailure(
  ctx: { what: string; method: string; path: string },
  why: string,
  cause?: unknown,
  status?: number,
  kind: 'network' | 'unexpectedAnswer' = 'network',
): DatagrokError {
  const error = new DatagrokError(kind, `${ctx.what} failed: ${why}`, { method: ctx.method, path: ctx.path, cause, status });
  setupFailures.add(error);
  return error;
}

/** Every `code` and message along an error's cause chain. */
function chain(err: unknown): { codes: string[]; messages: string[] } {
  const codes: string[] = [];
  const messages: string[] = [];
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e && typeof e === 'object'; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string') codes.push(code);
    if (typeof message === 'string') messages.push(message);
    e = (e as { cause?: unknown }).cause;
  }
  return { codes, messages };
}

/** A certificate or proxy failure of a connection, or undefined when it is none of those. */
export function networkSetupFailure(err: unknown, ctx: NetworkContext): DatagrokError | undefined {
  const { codes, messages } = chain(err);
  const has = (set: Set<string>) => codes.some((c) => set.has(c));
  const through = ctx.proxyHost ? ` (through the proxy ${ctx.proxyHost})` : '';
  if (has(UNTRUSTED)) {
    return setupFailure(
      ctx,
      `the certificate of ${ctx.host}${through} is not signed by an authority this machine trusts (${codes.find((c) => UNTRUSTED.has(c))}). ` +
        "If your organisation runs its own certificate authority, add its certificate (a PEM file) to the setting datagrok.tls.caCertificates, or to the operating system's store (used when http.systemCertificates is on), or point NODE_EXTRA_CA_CERTS at it. Ask your administrator for that file.",
      err,
    );
  }
  if (has(EXPIRED)) {
    const code = codes.find((c) => EXPIRED.has(c));
    const when = code === 'CERT_NOT_YET_VALID' ? 'is not valid yet' : 'has expired';
    return setupFailure(
      ctx,
      `the certificate of ${ctx.host}${through} ${when} (${code}). Ask the server's administrator to renew it; also check this computer's date and time.`,
      err,
    );
  }
  if (has(WRONG_HOST)) {
    return setupFailure(
      ctx,
      `the certificate of ${ctx.host}${through} is issued for another host name (ERR_TLS_CERT_ALTNAME_INVALID). Use the server's address exactly as its certificate names it (the one you open in the browser), or ask the administrator to add ${ctx.host.replace(/:\d+$/, '')} to the certificate.`,
      err,
    );
  }
  if (ctx.proxyHost && has(UNREACHABLE) && !messages.some((m) => /tunnel/i.test(m))) {
    const code = codes.find((c) => UNREACHABLE.has(c));
    return setupFailure(
      ctx,
      `could not connect to the proxy ${ctx.proxyHost} (${code}). Check the setting http.proxy (or HTTPS_PROXY / HTTP_PROXY), or add ${ctx.host.replace(/:\d+$/, '')} to http.noProxy if the server is reachable directly.`,
      err,
    );
  }
  if (has(NOT_TLS) && messages.some((m) => /wrong version number|packet length/i.test(m))) {
    return setupFailure(
      ctx,
      `${ctx.host}${through} did not answer in HTTPS (${codes.find((c) => NOT_TLS.has(c))}). Check the server URL: it may need http:// instead of https://, or another port.`,
      err,
    );
  }
  return undefined;
}

/** The proxy answered a CONNECT itself (an https request answered without TLS): credentials, unreachable, refused. */
export function proxyAnswerFailure(ctx: NetworkContext & { proxyHost: string }, status: number, cause?: unknown): DatagrokError {
  if (status === 407 || status === 401) return proxyCredentialsFailure(ctx, ctx.proxyHost, status, cause);
  if (status >= 500) {
    return setupFailure(
      ctx,
      `the proxy ${ctx.proxyHost} could not reach ${ctx.host} (${status}). Check the server URL; if the server is inside your network, add its host to the setting http.noProxy (or NO_PROXY).`,
      cause,
      status,
    );
  }
  return setupFailure(
    ctx,
    `the proxy ${ctx.proxyHost} refused to connect to ${ctx.host} (${status} to CONNECT). Ask your network administrator to allow ${ctx.host}; if the server is reachable without the proxy, add its host to the setting http.noProxy (or NO_PROXY).`,
    cause,
    status,
  );
}

/** The proxy wants credentials, or rejected the ones given (407; tinyproxy answers a plain request 401). */
export function proxyCredentialsFailure(ctx: { what: string; method: string; path: string }, proxyHost: string, status: number, cause?: unknown): DatagrokError {
  return setupFailure(
    ctx,
    `the proxy ${proxyHost} asks for credentials (${status === 407 ? '407 Proxy Authentication Required' : status}), or rejected the ones given. Put them in the setting http.proxy (http://user:password@host:port) or http.proxyAuthorization (e.g. "Basic <base64 of user:password>"), or in HTTPS_PROXY / HTTP_PROXY.`,
    cause,
    status,
  );
}

/** Looks like a sign-in page: a password field or sign-in words. */
export function looksLikeSignInPage(html: string): boolean {
  return /<input[^>]+type=["']?password|sign[\s-]?in|log[\s-]?in|single sign-on|\bsso\b|saml|oauth|openid|authenticat/i.test(html);
}

/** The address to show of a sign-in page: origin and path, no query (it may carry tokens). */
function pageAddress(location: string, base: string): string | undefined {
  try {
    const url = new URL(location, base);
    return `${url.origin}${url.pathname}`;
  } catch {
    return undefined;
  }
}

/**
 * A redirect from the server URL. To a sign-in page (another host, or a path that reads like one):
 * a gateway wants a browser sign-in. Otherwise: the server moved (http → https, a path prefix).
 */
export function redirectFailure(ctx: { what: string; method: string; path: string; origin?: string }, status: number, location?: string): DatagrokError {
  const base = ctx.origin ?? 'http://localhost';
  const address = location ? pageAddress(location, base) : undefined;
  const target = address ? new URL(address) : undefined;
  const signInPath = target !== undefined && /log[-_]?in|sign[-_]?in|sso|saml|oauth|openid|auth|adfs|idp|\bcas\b/i.test(target.host + target.pathname);
  if (address && signInPath) {
    return setupFailure(
      ctx,
      `a sign-in gateway answered instead of the Datagrok server (${status} redirect to ${address}). Open ${address} in the browser and sign in there, then try again; if your organisation's gateway lets API keys through only on another address, ask your administrator for the API address of the server.`,
      undefined,
      status,
    );
  }
  return new DatagrokError(
    'badInput',
    `${ctx.what} failed: the server redirects to another address (${status}${address ? `: ${address}` : ''}). Use the address it redirects to as the server URL (e.g. https:// instead of http://).`,
    { status, method: ctx.method, path: ctx.path },
  );
}

/** A web page where data was expected: a sign-in gateway's page, or not a Datagrok API at all. */
export function webPageFailure(
  ctx: { what: string; method: string; path: string; origin?: string; hintMissingApi: boolean },
  html: string,
  /** 'unexpectedAnswer' for a page answered with success (2xx), where the server's own answer belongs. */
  kind: 'network' | 'unexpectedAnswer' = 'network',
): DatagrokError {
  if (looksLikeSignInPage(html)) {
    const address = ctx.origin ?? 'the server address';
    return setupFailure(
      ctx,
      `the server answered with a sign-in page instead of data: a sign-in gateway stands in front of it. Open ${address} in the browser and sign in there, then try again.`,
      undefined,
      undefined,
      kind,
    );
  }
  const hint = ctx.hintMissingApi ? ' Is the URL missing /api?' : ' Check the server URL.';
  return new DatagrokError('server', `${ctx.what} failed: the server answered with a web page instead of data.${hint}`, { method: ctx.method, path: ctx.path });
}

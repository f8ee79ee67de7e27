// One HTTP exchange on Node's client (http/https: llhttp parses, Node frames; nothing of ours): the
// request sent with its body, the answer's head awaited, and every way it can fail given a code that
// failures.ts classifies. Timeouts: connecting, the answer's head, and the body going idle.
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Connections } from './connections';

/** A transport failure with a code (Node's own errors carry theirs: ECONNRESET, HPE_*, CERT_*...). */
export class TransportError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface ExchangeRequest {
  /** The server's origin; `path` is sent as written (with its query). */
  origin: URL;
  path: string;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | AsyncIterable<Uint8Array> | null;
  /** Bytes the body must have (the content-length sent): a stream that has more or fewer fails. */
  contentLength?: number;
  signal?: AbortSignal;
  connectMs: number;
  /** Longest wait for the answer's head, and longest silence within its body. */
  idleMs: number;
}

export interface Exchange {
  res: IncomingMessage;
  /** host:port of the proxy the request went through, when known (the host names the one it chose). */
  proxyHost?: string;
  /** An https request answered over plain TCP: the proxy answered its CONNECT, not the server. */
  fromProxy: boolean;
}

/**
 * The proxy the host's resolver chose, from its 'proxy' event ("PROXY host:port", "DIRECT"...), without
 * the credentials it carries when http.proxy holds them ("PROXY user:password@host:port/") nor a path.
 */
export function proxyOf(event: unknown): string | undefined {
  const text = (event as { proxy?: unknown } | undefined)?.proxy;
  if (typeof text !== 'string') return undefined;
  const [type, target] = text.trim().split(/\s+/);
  const host = target?.slice(target.lastIndexOf('@') + 1).replace(/\/.*$/, '');
  return type && type.toUpperCase() !== 'DIRECT' && host ? host : undefined;
}

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Sends one request; resolves once the answer's head arrived (its body is the caller's to read or destroy). */
export function exchange(conn: Connections, request: ExchangeRequest): Promise<Exchange> {
  const { origin: url, signal } = request;
  return new Promise<Exchange>((resolve, reject) => {
    let proxyHost = conn.route.kind === 'proxy' ? conn.route.proxy.host : undefined;
    let proxyError: unknown;
    let settled = false;
    let res: IncomingMessage | undefined;
    let connectTimer: NodeJS.Timeout | undefined;
    const fail = (err: unknown) => {
      clearTimeout(connectTimer);
      // The host's resolver reports why a proxy failed on its 'proxy' event, and throws a summary.
      const cause = proxyError !== undefined && errorCode(err) === undefined ? proxyError : err;
      const error = cause instanceof Error ? cause : new TransportError('UNKNOWN', String(cause));
      if (!settled) {
        settled = true;
        reject(error);
      }
      res?.destroy(error);
      req.destroy(error);
    };
    const onAbort = () => fail(signal?.reason instanceof Error ? signal.reason : new TransportError('ABORT_ERR', 'cancelled'));
    const req: ClientRequest = conn.request({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port,
      path: request.path,
      method: request.method,
      headers: request.headers,
      agent: conn.agent,
      ...conn.tls,
    });
    connectTimer = setTimeout(() => fail(new TransportError('CONNECT_TIMEOUT', 'connect timed out')), request.connectMs);
    req.on('socket', (socket: Socket) => {
      const connected = () => {
        clearTimeout(connectTimer);
        // Socket inactivity: no head, then a body gone quiet (reads or writes reset it).
        req.setTimeout(request.idleMs);
      };
      if (socket.connecting) socket.once('connect', connected);
      else connected();
    });
    req.on('timeout', () => fail(new TransportError(res ? 'BODY_TIMEOUT' : 'HEADERS_TIMEOUT', res ? 'the body stalled' : 'no answer')));
    req.on('proxy', (event: { error?: unknown }) => {
      proxyHost = proxyOf(event) ?? proxyHost;
      if (event?.error !== undefined) proxyError = event.error;
    });
    req.on('error', fail);
    req.on('response', (answer: IncomingMessage) => {
      res = answer;
      const encrypted = (answer.socket as { encrypted?: boolean } | null)?.encrypted === true;
      if (!settled) {
        settled = true;
        resolve({ res: answer, proxyHost, fromProxy: url.protocol === 'https:' && !encrypted });
      }
      answer.once('close', () => signal?.removeEventListener('abort', onAbort));
    });
    if (signal) {
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      req.once('close', () => {
        if (!res) signal.removeEventListener('abort', onAbort);
      });
    }
    sendBody(req, request).catch(fail);
  });
}

/** Writes the body, waiting for 'drain' after each chunk the socket did not take at once. */
async function sendBody(req: ClientRequest, request: ExchangeRequest): Promise<void> {
  const { body, contentLength } = request;
  if (body === null) {
    req.end();
    return;
  }
  if (typeof body === 'string' || body instanceof Uint8Array) {
    req.end(body);
    return;
  }
  let sent = 0;
  for await (const chunk of body) {
    if (req.destroyed) return;
    sent += chunk.length;
    if (contentLength !== undefined && sent > contentLength) break;
    if (!req.write(chunk)) await drained(req);
  }
  if (req.destroyed) return;
  if (contentLength !== undefined && sent !== contentLength) {
    throw new TransportError('REQ_CONTENT_LENGTH_MISMATCH', `the body had ${sent > contentLength ? 'more' : 'fewer'} bytes than the ${contentLength} declared`);
  }
  req.end();
}

function drained(req: ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      req.off('drain', done);
      req.off('close', done);
      resolve();
    };
    req.on('drain', done);
    req.on('close', done);
  });
}

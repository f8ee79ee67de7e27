// The connection pool of one client: a plain undici Agent, or undici's ProxyAgent when the settings
// route the server through a proxy. Always per client, never undici's global dispatcher: the VS Code
// extension host is shared with other extensions.
import { Agent, type Dispatcher, ProxyAgent } from 'undici';
import { type NetworkOptions, type Route, resolveRoute } from './network';
import { trustedAuthorities } from './trust';
import { WireDispatcher } from './wire';

export interface PoolTimeouts {
  connectMs: number;
  requestMs: number;
}

export interface ClientPool {
  dispatcher: Dispatcher;
  route: Route;
  /** Downloads into files on a direct plain-HTTP route: a connection of their own, read by wire.ts. */
  wire?: WireDispatcher;
}

const KEEP_ALIVE = { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 } as const;
/**
 * The socket's read buffer. With undici's 64 KiB (one socket read) the socket stops reading after each
 * read until the parser took it; 1 MiB lets it read ahead and hands the parser fewer, larger chunks
 * (downloads measurably faster on a busy 2-core machine; see test/bench/transfer.ts). The write side
 * keeps undici's 64 KiB: upload chunks of at least that size then wait for 'drain', i.e. until the
 * socket took them, which is what lets readFileChunks (transfer.ts) reuse its buffers. undici passes
 * these options on to net.connect/tls.connect, after its own highWaterMark (cleared here, since it would
 * win over both); its type does not list them.
 */
const SOCKET_OPTIONS = { highWaterMark: undefined, readableHighWaterMark: 1024 * 1024, writableHighWaterMark: 64 * 1024 } as Record<never, never>;

/** The dispatcher for requests to `target` (the server's origin) under these network settings. */
export function createPool(target: URL, timeouts: PoolTimeouts, network?: NetworkOptions): ClientPool {
  const route = network ? resolveRoute(target, network) : ({ kind: 'direct', why: 'no proxy' } as const);
  const ca = network ? trustedAuthorities(network) : undefined;
  const common = { headersTimeout: timeouts.requestMs, bodyTimeout: timeouts.requestMs, ...KEEP_ALIVE };
  if (route.kind === 'direct') {
    const dispatcher = new Agent({ ...common, connect: { ...SOCKET_OPTIONS, timeout: timeouts.connectMs, ...(ca ? { ca } : {}) } });
    return { route, dispatcher, ...(target.protocol === 'http:' ? { wire: new WireDispatcher(target, timeouts.connectMs) } : {}) };
  }
  const strict = network?.proxyStrictSSL !== false;
  const tlsOptions = { timeout: timeouts.connectMs, ...(ca ? { ca } : {}), ...(strict ? {} : { rejectUnauthorized: false }) };
  const authorization = network?.proxyAuthorization?.trim();
  const proxy = new URL(route.proxy.href);
  if (authorization) {
    // http.proxyAuthorization wins over credentials in the URL (undici accepts only one of them).
    proxy.username = '';
    proxy.password = '';
  }
  const dispatcher = new ProxyAgent({
    ...common,
    uri: proxy.href,
    ...(authorization ? { token: authorization } : {}),
    // https: a CONNECT tunnel; http: requests in absolute form, as curl and VS Code send them (many
    // proxies allow CONNECT only to port 443).
    proxyTunnel: target.protocol === 'https:',
    requestTls: tlsOptions,
    proxyTls: tlsOptions,
  });
  return { route, dispatcher };
}

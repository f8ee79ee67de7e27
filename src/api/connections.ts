// How one client reaches its server, on Node's own HTTP client (http/https, llhttp): no HTTP framing of
// ours. In VS Code's extension host the http/https modules are patched to follow the editor's proxy
// resolution (http.proxy, http.noProxy, the system's proxy and PAC files, proxy sign-in) and system
// certificates: there a request carries no agent of ours, and the host decides (route kind 'host'),
// unless http.proxyAuthorization is set and the settings name a proxy (the host's agent never sends it).
// Everywhere else (a plain Node process: the MCP server, tests, benchmarks; or http.proxySupport off) the
// settings handed in are applied here: a keep-alive agent per client, or the proxy agents VS Code itself
// uses (https-proxy-agent: a CONNECT tunnel; http-proxy-agent: requests in absolute form). Never a global
// agent: the extension host is shared with other extensions.
import * as http from 'node:http';
import * as https from 'node:https';
import * as tlsModule from 'node:tls';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { type NetworkOptions, type Route, resolveRoute } from './network';
import { trustedAuthorities } from './trust';

/** Per request: the agent (none: the process's default, which the host patches) and TLS options. */
export interface Connections {
  route: Route;
  request: typeof http.request;
  agent?: http.Agent;
  /** TLS options each request carries (for the server's certificate). */
  readonly tls: { ca?: string[]; secureContext?: tlsModule.SecureContext; rejectUnauthorized?: false };
  close(): void;
}

/** Idle connections are kept 4 s (servers often close theirs after 5 s; Node's agent also honours a Keep-Alive: timeout hint). */
const KEEP_ALIVE = { keepAlive: true, scheduling: 'lifo' as const, timeout: 4_000 };

/** The connections to `target` (the server's origin) under these network settings. */
export function createConnections(target: URL, network?: NetworkOptions): Connections {
  const route = network ? resolveRoute(target, network) : ({ kind: 'direct', why: 'no proxy' } as const);
  const secure = target.protocol === 'https:';
  const request = secure ? https.request : http.request;
  if (route.kind === 'host') {
    // The host adds the system's certificates itself, unless a request names its own authorities (then
    // it adds none): so only with datagrok.tls.caCertificates set do requests carry a list, holding
    // Node's defaults and NODE_EXTRA_CA_CERTS, the system's when http.systemCertificates is on, and those.
    const own = network?.caCertificates?.some((pem) => pem.includes('-----BEGIN CERTIFICATE-----')) ? trustedAuthorities(network ?? {}) : undefined;
    if (!own) return { route, request, tls: {}, close: () => undefined };
    // The list tells the host to add none of its own; Node connects with the context when one is given
    // (a `ca` list alone is parsed into a new context on every connection, 70-140 ms of CPU each).
    const context = trustOnce(own);
    return {
      route,
      request,
      get tls() {
        return { ca: own, ...context() };
      },
      close: () => undefined,
    };
  }
  const ca = network ? trustedAuthorities(network) : undefined;
  const trust = ca ? trustOnce(ca) : () => ({});
  if (route.kind === 'direct') {
    const agent = secure ? new https.Agent(KEEP_ALIVE) : new http.Agent(KEEP_ALIVE);
    return {
      route,
      request,
      agent,
      get tls() {
        return trust();
      },
      close: () => agent.destroy(),
    };
  }
  const strict = network?.proxyStrictSSL !== false;
  const loose = strict ? {} : { rejectUnauthorized: false as const };
  // The proxy agent's own options reach the proxy; the server's trust goes with each request.
  const proxyTls = { ...(ca ? { ca } : {}), ...loose };
  const authorization = network?.proxyAuthorization?.trim();
  const proxy = new URL(route.proxy.href);
  if (authorization) {
    // http.proxyAuthorization wins over credentials in the URL.
    proxy.username = '';
    proxy.password = '';
  }
  const headers = authorization ? { headers: { 'proxy-authorization': authorization } } : {};
  // https: a CONNECT tunnel, kept alive; http: requests in absolute form, as curl and VS Code send them
  // (many proxies allow CONNECT only to port 443), a connection each: proxies such as tinyproxy close
  // theirs after each answer without saying so, and a request sent on it meanwhile would be lost.
  const agent = secure ? new HttpsProxyAgent(proxy, { ...KEEP_ALIVE, ...proxyTls, ...headers }) : new HttpProxyAgent(proxy, { ...proxyTls, ...headers });
  // Said, not guessed from the call stack: requests are made without https.request (see below).
  agent.protocol = secure ? 'https:' : 'http:';
  return {
    route,
    // Not http/https.request: in the extension host those replace any agent with the editor's
    // (http.proxySupport override), which would drop the proxy's credentials (network.ts).
    request: ((options: http.RequestOptions, callback?: (res: http.IncomingMessage) => void) => new http.ClientRequest(options, callback)) as typeof http.request,
    agent,
    get tls() {
      return { ...trust(), ...loose };
    },
    close: () => agent.destroy(),
  };
}

/**
 * The trusted authorities as one TLS context, made on the first connection and shared by all: making one
 * parses every PEM of the list (Node's ~145 roots and the user's), about 170 ms of CPU, which a `ca` list
 * on each request would cost again for every new connection. A request carrying a context also keeps
 * the list out of the agent's pool key (Node's https agent joins `ca` into it on every request).
 */
function trustOnce(ca: string[]): () => { secureContext: tlsModule.SecureContext } {
  let context: tlsModule.SecureContext | undefined;
  return () => {
    context ??= tlsModule.createSecureContext({ ca });
    return { secureContext: context };
  };
}

// How one client reaches its server, on Node's own HTTP client (http/https, llhttp): no HTTP framing of
// ours. In VS Code's extension host the http/https modules are patched to follow the editor's proxy
// resolution (http.proxy, http.noProxy, the system's proxy and PAC files, proxy sign-in) and system
// certificates: there a request carries no agent of ours, and the host decides (route kind 'host').
// Everywhere else (a plain Node process: the MCP server, tests, benchmarks; or http.proxySupport off) the
// settings handed in are applied here: a keep-alive agent per client, or the proxy agents VS Code itself
// uses (https-proxy-agent: a CONNECT tunnel; http-proxy-agent: requests in absolute form). Never a global
// agent: the extension host is shared with other extensions.
import * as http from 'node:http';
import * as https from 'node:https';
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
  tls: { ca?: string[]; rejectUnauthorized?: false };
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
    return { route, request, tls: own ? { ca: own } : {}, close: () => undefined };
  }
  const ca = network ? trustedAuthorities(network) : undefined;
  if (route.kind === 'direct') {
    const agent = secure ? new https.Agent({ ...KEEP_ALIVE, ...(ca ? { ca } : {}) }) : new http.Agent(KEEP_ALIVE);
    return { route, request, agent, tls: ca ? { ca } : {}, close: () => agent.destroy() };
  }
  const strict = network?.proxyStrictSSL !== false;
  const tls = { ...(ca ? { ca } : {}), ...(strict ? {} : { rejectUnauthorized: false as const }) };
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
  const agent: http.Agent = secure ? new HttpsProxyAgent(proxy, { ...KEEP_ALIVE, ...tls, ...headers }) : new HttpProxyAgent(proxy, { ...tls, ...headers });
  return { route, request, agent, tls, close: () => agent.destroy() };
}

// Which route a request to the server takes: direct, or through which proxy. Pure: the caller hands in
// the settings and the environment; nothing here reads them itself. The rules follow VS Code's own
// (http.proxy over HTTPS_PROXY/HTTP_PROXY, http.noProxy over NO_PROXY, loopback always direct).

/** The network settings of one client, as plain data (src/connection reads them from VS Code). */
export interface NetworkOptions {
  /** The proxy URL from the settings (`http.proxy`); empty or absent: the environment decides. */
  proxy?: string;
  /** Hosts that bypass the proxy (`http.noProxy`); when not empty it replaces NO_PROXY. */
  noProxy?: string[];
  /** `http.proxySupport: off`: always direct, whatever the settings and the environment say. */
  proxySupport?: 'off' | 'on' | 'override' | 'fallback';
  /** A Proxy-Authorization header value (`http.proxyAuthorization`); wins over credentials in the URL. */
  proxyAuthorization?: string;
  /** `http.proxyStrictSSL: false`: requests through a proxy skip certificate checks. Default true. */
  proxyStrictSSL?: boolean;
  /** Extra trusted authorities, PEM text (datagrok.tls.caCertificates, read by the caller). */
  caCertificates?: string[];
  /** Also trust the operating system's store (`http.systemCertificates`), where Node can read it. */
  systemCertificates?: boolean;
  /** The environment to read HTTPS_PROXY, HTTP_PROXY, NO_PROXY (and lowercase forms) from. */
  env?: Record<string, string | undefined>;
  /**
   * This process's http/https modules follow the editor's proxy resolution (VS Code's extension host,
   * http.proxySupport not off): requests then carry no proxy of ours, and the settings above only
   * describe the route (see connections.ts). Except with `proxyAuthorization` and a proxy named by the
   * settings: the editor's agent never sends that setting, so those requests take the proxy themselves.
   */
  resolvedByHost?: boolean;
}

/** The route to one server: direct, or through a proxy (its URL may hold credentials: never show it). */
export type Route =
  | { kind: 'direct'; why: 'no proxy' | 'proxy support off' | 'loopback' | 'no proxy list' }
  | { kind: 'proxy'; proxy: URL; from: 'settings' | 'environment' }
  /** VS Code's extension host routes each request (`expected`: what the settings alone would say). */
  | { kind: 'host'; expected: Exclude<Route, { kind: 'host' }> };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '::ffff:127.0.0.1', '[::ffff:127.0.0.1]']);

/** Whether `host` (a URL hostname) is the local machine: never proxied, as in VS Code. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host.toLowerCase());
}

/** Splits a NO_PROXY value (commas or whitespace) into entries. */
export function parseNoProxy(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/**
 * Whether a host and port match a no-proxy list: `*` matches all; `example.com` matches it and its
 * subdomains, `.example.com` only subdomains and itself; `host:port` only that port; `*.example.com`
 * like `.example.com`; IP addresses match exactly. Case and a trailing dot are ignored.
 */
export function bypassesProxy(host: string, port: number, list: readonly string[]): boolean {
  const name = normalizeHost(host);
  for (const raw of list) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    const { name: pattern, port: entryPort } = splitEntry(entry);
    if (entryPort !== undefined && entryPort !== port) continue;
    let domain = normalizeHost(pattern.startsWith('*.') ? pattern.slice(1) : pattern);
    if (domain === '') continue;
    if (domain.startsWith('.')) domain = domain.slice(1);
    if (name === domain || name.endsWith(`.${domain}`)) return true;
  }
  return false;
}

function normalizeHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

function splitEntry(entry: string): { name: string; port?: number } {
  // [v6]:port, v6 without brackets (several colons: no port), name:port
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracket) return { name: bracket[1], port: bracket[2] ? Number(bracket[2]) : undefined };
  const colons = entry.split(':').length - 1;
  if (colons === 1) {
    const [name, port] = entry.split(':');
    if (/^\d+$/.test(port)) return { name, port: Number(port) };
  }
  return { name: entry };
}

function envValue(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = env[name.toLowerCase()] ?? env[name.toUpperCase()];
  return value && value.trim() !== '' ? value.trim() : undefined;
}

/** The proxy URL as given, with `http://` added when it has no scheme; undefined when unusable. */
export function parseProxyUrl(value: string | undefined): URL | undefined {
  if (!value || value.trim() === '') return undefined;
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim()) ? value.trim() : `http://${value.trim()}`;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Which route requests to `target` take under these settings. */
export function resolveRoute(target: URL, options: NetworkOptions = {}): Route {
  if (options.proxySupport === 'off') return { kind: 'direct', why: 'proxy support off' };
  if (isLoopback(target.hostname)) return { kind: 'direct', why: 'loopback' };
  const expected = settingsRoute(target, options);
  // The extension host's agent (VS Code 1.139) never reads http.proxyAuthorization: neither a plain
  // request nor a CONNECT carries it (a CONNECT's credentials come only from the editor's own proxy
  // sign-in prompt). Through a proxy the settings name, our own agent applies it (connections.ts).
  if (expected.kind === 'proxy' && options.proxyAuthorization?.trim()) return expected;
  return options.resolvedByHost ? { kind: 'host', expected } : expected;
}

/** The route the settings and the environment give (no PAC file, no system proxy: the host sees those). */
function settingsRoute(target: URL, options: NetworkOptions): Exclude<Route, { kind: 'host' }> {
  const env = options.env ?? {};
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  const noProxy = options.noProxy?.some((e) => e.trim() !== '') ? options.noProxy : parseNoProxy(envValue(env, 'no_proxy'));
  if (bypassesProxy(target.hostname, port, noProxy)) return { kind: 'direct', why: 'no proxy list' };
  const fromSettings = parseProxyUrl(options.proxy);
  if (fromSettings) return { kind: 'proxy', proxy: fromSettings, from: 'settings' };
  const fromEnv = target.protocol === 'https:' ? (envValue(env, 'https_proxy') ?? envValue(env, 'http_proxy')) : envValue(env, 'http_proxy');
  const proxy = parseProxyUrl(fromEnv);
  return proxy ? { kind: 'proxy', proxy, from: 'environment' } : { kind: 'direct', why: 'no proxy' };
}

/** The proxy's address without credentials or path, e.g. `http://proxy.corp:3128`. */
export function proxyAddress(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

/** For the log, the status bar and messages: never credentials. */
export function describeRoute(route: Route): string {
  if (route.kind === 'host') {
    const settings = route.expected.kind === 'proxy' ? `; by the settings alone: ${describeRoute(route.expected)}` : '';
    return `as VS Code routes extension requests (http.proxy, http.noProxy, the system's proxy settings${settings})`;
  }
  if (route.kind === 'proxy') {
    const from = route.from === 'settings' ? 'http.proxy' : 'the HTTPS_PROXY/HTTP_PROXY environment';
    return `via proxy ${route.proxy.host} (from ${from})`;
  }
  switch (route.why) {
    case 'loopback':
      return 'direct (a local server is never proxied)';
    case 'no proxy list':
      return 'direct (the host is in http.noProxy / NO_PROXY)';
    case 'proxy support off':
      return 'direct (http.proxySupport is off)';
    default:
      return 'direct';
  }
}

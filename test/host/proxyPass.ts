// The launcher's --proxy pass: a real tinyproxy on a loopback port, `http.proxy` pointing at it in the
// user settings, and the server named by a host name that is not loopback (loopback is never proxied),
// so that the suite can check that every request went through the proxy (test/integration/proxy.test.ts).
// Besides: a second tinyproxy that wants Basic credentials, and the emulator over HTTPS (a private
// authority's certificate for the test host name), for http.proxyAuthorization on plain requests and
// on a CONNECT.
import { randomBytes } from 'node:crypto';
import { makeCertificates, TEST_HOST } from '../network/certs';
import { ensureTestHost } from '../network/hosts';
import { startTinyproxy } from '../network/tinyproxy';
import { startEmulator } from './emulator';
import { afterStop, onStop } from './processes';

export interface ProxyPass {
  /** User settings to add. */
  settings: Record<string, unknown>;
  /** Extension host environment to add. */
  environment: Record<string, string>;
}

/** The emulator's base URL with the test host name instead of 127.0.0.1. */
function named(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.hostname = TEST_HOST;
  return url.href.replace(/\/$/, '');
}

export async function startProxyPass(emulator: { baseUrl: string; key: string }, log: (message: string) => void): Promise<ProxyPass> {
  const undoHost = await ensureTestHost();
  afterStop(undoHost);
  const proxy = await startTinyproxy();
  onStop(() => proxy.stop());
  const auth = { user: 'proxyuser', password: `pw-${randomBytes(6).toString('hex')}` };
  const authProxy = await startTinyproxy({ auth });
  onStop(() => authProxy.stop());
  const certs = makeCertificates();
  afterStop(() => certs.remove());
  const secure = await startEmulator({ key: emulator.key, tls: certs.good });
  onStop(() => secure.stop());
  const serverUrl = named(emulator.baseUrl);
  log(`proxy ${proxy.url} (tinyproxy pid ${proxy.pid}, log ${proxy.logFile}); server as ${serverUrl}`);
  log(`proxy asking for credentials ${authProxy.url} (tinyproxy pid ${authProxy.pid}); HTTPS server as ${named(secure.baseUrl)}`);
  return {
    settings: { 'http.proxy': proxy.url, 'http.proxySupport': 'override' },
    environment: {
      DATAGROK_TEST_PROXY: proxy.url,
      DATAGROK_TEST_PROXY_LOG: proxy.logFile,
      DATAGROK_TEST_PROXY_SERVER_URL: serverUrl,
      DATAGROK_TEST_AUTH_PROXY: authProxy.url,
      DATAGROK_TEST_AUTH_PROXY_LOG: authProxy.logFile,
      DATAGROK_TEST_AUTH_PROXY_CREDENTIALS: `${auth.user}:${auth.password}`,
      DATAGROK_TEST_PROXY_HTTPS_SERVER_URL: named(secure.baseUrl),
      DATAGROK_TEST_PROXY_CA: certs.caFile,
    },
  };
}

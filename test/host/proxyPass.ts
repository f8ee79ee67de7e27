// The launcher's --proxy pass: a real tinyproxy on a loopback port, `http.proxy` pointing at it in the
// user settings, and the server named by a host name that is not loopback (loopback is never proxied),
// so that the suite can check that every request went through the proxy (test/integration/proxy.test.ts).
import { TEST_HOST } from '../network/certs';
import { ensureTestHost } from '../network/hosts';
import { startTinyproxy } from '../network/tinyproxy';
import { afterStop, onStop } from './processes';

export interface ProxyPass {
  /** User settings to add. */
  settings: Record<string, unknown>;
  /** Extension host environment to add. */
  environment: Record<string, string>;
}

export async function startProxyPass(emulatorBaseUrl: string, log: (message: string) => void): Promise<ProxyPass> {
  const undoHost = await ensureTestHost();
  afterStop(undoHost);
  const proxy = await startTinyproxy();
  onStop(() => proxy.stop());
  const url = new URL(emulatorBaseUrl);
  url.hostname = TEST_HOST;
  const serverUrl = url.href.replace(/\/$/, '');
  log(`proxy ${proxy.url} (tinyproxy pid ${proxy.pid}, log ${proxy.logFile}); server as ${serverUrl}`);
  return {
    settings: { 'http.proxy': proxy.url, 'http.proxySupport': 'override' },
    environment: { DATAGROK_TEST_PROXY: proxy.url, DATAGROK_TEST_PROXY_LOG: proxy.logFile, DATAGROK_TEST_PROXY_SERVER_URL: serverUrl },
  };
}

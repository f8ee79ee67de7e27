// Requests through a real forward proxy (Debian's tinyproxy on a loopback port): settings, the
// environment, NO_PROXY, credentials, and each proxy failure with its message.
import * as assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import { type AddressInfo, createServer } from 'node:net';
import { TEST_HOST } from '../network/certs';
import { requestPaths, SECRET, useNetworkFixture } from '../network/fixture';
import { type RunningProxy, startTinyproxy } from '../network/tinyproxy';

describe('proxies (real tinyproxy)', () => {
  const f = useNetworkFixture();
  let proxy: RunningProxy;
  let authProxy: RunningProxy;

  before(async () => {
    proxy = await startTinyproxy();
    authProxy = await startTinyproxy({ auth: { user: 'alice', password: SECRET } });
  });
  after(async () => {
    await Promise.all([proxy?.stop(), authProxy?.stop()]);
  });
  beforeEach(() => {
    proxy.clear();
    authProxy.clear();
    f.http.state.log = [];
    f.https.state.log = [];
  });

  /** Every request the emulator saw was one the proxy forwarded (http: absolute-form request lines). */
  function assertAllProxied(through: RunningProxy): void {
    const seen = requestPaths(f.http);
    assert.ok(seen.length > 0, 'the emulator saw requests');
    const forwarded = through.requests().map((line) =>
      line
        .replace(` http://${TEST_HOST}:${f.http.port}`, ' ')
        .replace(/ HTTP\/1\.1$/, '')
        .replace(/\?.*$/, '')
        .replace('  ', ' '),
    );
    assert.deepEqual(forwarded, seen, 'each request went through the proxy, none direct');
  }

  it('goes direct without a proxy: the proxy sees nothing', async () => {
    const client = f.client(f.httpUrl, { env: {} });
    assert.equal(client.route.kind, 'direct');
    assert.ok((await client.listGroups()).length > 0);
    assert.deepEqual(proxy.requests(), []);
  });

  it('goes through http.proxy: JSON calls, an upload and a download, every one through the proxy', async () => {
    const client = f.client(f.httpUrl, { proxy: proxy.url, env: {} });
    assert.equal(client.route.kind, 'proxy');
    const groups = await client.listGroups();
    assert.ok(groups.some((g) => g.name === 'Chemists'));
    const data = 'a,b\n1,2\n'.repeat(10_000);
    await client.uploadFile('System:DemoFiles', 'proxied/up.csv', { data });
    const back = await client.readFile('System:DemoFiles', 'proxied/up.csv');
    assert.equal(Buffer.from(back).toString('utf8'), data);
    assertAllProxied(proxy);
  });

  it('goes through HTTP_PROXY / http_proxy from the environment when http.proxy is empty', async () => {
    for (const env of [{ HTTP_PROXY: proxy.url }, { http_proxy: proxy.url }]) {
      proxy.clear();
      f.http.state.log = [];
      const client = f.client(f.httpUrl, { proxy: '', env });
      assert.deepEqual(client.route.kind === 'proxy' && client.route.from, 'environment');
      await client.getGroup('d0000000-0000-4000-8000-000000000001');
      assertAllProxied(proxy);
    }
  });

  it('HTTPS goes through a CONNECT tunnel (HTTPS_PROXY), the private authority trusted', async () => {
    const client = f.client(f.httpsUrl, { env: { HTTPS_PROXY: proxy.url }, caCertificates: [await readCa(f.certs.caFile)] });
    await client.listGroups();
    await client.uploadFile('System:DemoFiles', 'tunnel.txt', { data: 'through the tunnel' });
    const lines = proxy.requests();
    assert.ok(lines.length >= 1, 'the proxy opened a tunnel');
    for (const line of lines) assert.equal(line, `CONNECT ${TEST_HOST}:${f.https.port} HTTP/1.1`);
    assert.equal(f.https.state.log.length, 2);
  });

  it('NO_PROXY and http.noProxy send matching hosts direct (http.noProxy replaces NO_PROXY)', async () => {
    const cases: Array<{ noProxy?: string[]; env: Record<string, string>; direct: boolean }> = [
      { env: { HTTP_PROXY: proxy.url, NO_PROXY: '.internal' }, direct: true },
      { env: { http_proxy: proxy.url, no_proxy: `example.com, ${TEST_HOST}:${f.http.port}` }, direct: true },
      { env: { HTTP_PROXY: proxy.url, NO_PROXY: '*' }, direct: true },
      { env: { HTTP_PROXY: proxy.url, NO_PROXY: `${TEST_HOST}:1` }, direct: false },
      { noProxy: ['datagrok-test.internal'], env: { HTTP_PROXY: proxy.url }, direct: true },
      { noProxy: ['other.example'], env: { HTTP_PROXY: proxy.url, NO_PROXY: '*' }, direct: false },
    ];
    for (const c of cases) {
      proxy.clear();
      const client = f.client(f.httpUrl, { noProxy: c.noProxy, env: c.env });
      await client.listGroups();
      assert.equal(proxy.requests().length === 0, c.direct, JSON.stringify(c));
      assert.equal(client.route.kind, c.direct ? 'direct' : 'proxy', JSON.stringify(c));
    }
  });

  it('http.proxySupport off and a loopback server go direct whatever the proxy settings', async () => {
    const off = f.client(f.httpUrl, { proxy: proxy.url, proxySupport: 'off' });
    await off.listGroups();
    const local = f.client(f.http.baseUrl, { proxy: proxy.url });
    await local.listGroups();
    assert.deepEqual(proxy.requests(), []);
  });

  it('sends proxy credentials from the URL or http.proxyAuthorization', async () => {
    const inUrl = new URL(authProxy.url);
    inUrl.username = 'alice';
    inUrl.password = SECRET;
    await f.client(f.httpUrl, { proxy: inUrl.href }).listGroups();
    const token = `Basic ${Buffer.from(`alice:${SECRET}`).toString('base64')}`;
    await f.client(f.httpsUrl, { proxy: authProxy.url, proxyAuthorization: token, caCertificates: [await readCa(f.certs.caFile)] }).listGroups();
    assert.equal(authProxy.requests().length, 2);
  });

  it('in VS Code’s extension host too: http.proxyAuthorization reaches the proxy on plain requests and on the CONNECT, through our agent, not http(s).request', async () => {
    // The extension host replaces the agent of every http(s).request with its own, which never sends
    // the setting: with it, requests must not be made through those functions at all.
    const token = `Basic ${Buffer.from(`alice:${SECRET}`).toString('base64')}`;
    const ca = [await readCa(f.certs.caFile)];
    const calls: string[] = [];
    // The modules themselves (default imports), as the host patches them.
    const modules = { http: http as { request: typeof http.request }, https: https as { request: typeof https.request } };
    const originals = { http: http.request, https: https.request };
    modules.http.request = ((...args: Parameters<typeof http.request>) => {
      calls.push('http');
      return originals.http(...args);
    }) as typeof http.request;
    modules.https.request = ((...args: Parameters<typeof https.request>) => {
      calls.push('https');
      return originals.https(...args);
    }) as typeof https.request;
    try {
      const plain = f.client(f.httpUrl, { proxy: authProxy.url, proxyAuthorization: token, resolvedByHost: true, env: {} });
      assert.equal(plain.route.kind, 'proxy');
      assert.ok((await plain.listGroups()).length > 0);
      const data = 'a,b\n1,2\n'.repeat(1000);
      await plain.uploadFile('System:DemoFiles', 'proxied/auth.csv', { data });
      assert.equal(Buffer.from(await plain.readFile('System:DemoFiles', 'proxied/auth.csv')).toString('utf8'), data);
      assertAllProxied(authProxy);
      authProxy.clear();
      const tunnel = f.client(f.httpsUrl, { env: { HTTPS_PROXY: authProxy.url }, proxyAuthorization: token, caCertificates: ca, resolvedByHost: true });
      assert.equal(tunnel.route.kind, 'proxy');
      await tunnel.listGroups();
      assert.deepEqual(authProxy.requests(), [`CONNECT ${TEST_HOST}:${f.https.port} HTTP/1.1`]);
    } finally {
      modules.http.request = originals.http;
      modules.https.request = originals.https;
    }
    assert.deepEqual(calls, [], 'no request went through http.request or https.request');
  });

  it('a proxy that wants credentials (407): says where to put them, never shows them', async () => {
    const wrong = new URL(authProxy.url);
    wrong.username = 'alice';
    wrong.password = `${SECRET}-wrong`;
    for (const [url, base] of [
      [authProxy.url, f.httpUrl],
      [authProxy.url, f.httpsUrl],
      [wrong.href, f.httpUrl],
      [wrong.href, f.httpsUrl],
    ]) {
      const err = await f.fails(
        f.client(base, { proxy: url, caCertificates: [await readCa(f.certs.caFile)] }).listGroups(),
        'network',
        new RegExp(`the proxy ${authProxy.host.replace(/\./g, '\\.')} asks for credentials \\((407 Proxy Authentication Required|401)\\).*http\\.proxy.*http\\.proxyAuthorization`),
      );
      assert.ok(err.status === 407 || err.status === 401);
    }
  });

  it('a proxy that refuses the CONNECT: says so and what to ask for', async () => {
    const strict = await startTinyproxy({ connectPorts: [443] });
    try {
      await f.fails(
        f.client(f.httpsUrl, { proxy: strict.url, caCertificates: [await readCa(f.certs.caFile)] }).listGroups(),
        'network',
        new RegExp(`the proxy ${strict.host.replace(/\./g, '\\.')} refused to connect to ${TEST_HOST}:${f.https.port} \\(403 to CONNECT\\).*http\\.noProxy`),
      );
      assert.deepEqual(strict.requests(), [`CONNECT ${TEST_HOST}:${f.https.port} HTTP/1.1`]);
    } finally {
      await strict.stop();
    }
  });

  it('a proxy that is not there: names the proxy and the settings', async () => {
    // A loopback port nothing listens on (a stopping proxy may still reset a connection instead).
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const url = `http://127.0.0.1:${port}`;
    for (const base of [f.httpUrl, f.httpsUrl]) {
      await f.fails(f.client(base, { proxy: url }).listGroups(), 'network', /could not connect to the proxy 127\.0\.0\.1:\d+ \(ECONNREFUSED\)\. Check the setting http\.proxy/);
    }
  });

  it('a proxy that cannot reach the server: says so', async () => {
    const base = `https://${TEST_HOST}:1/api`;
    await f.fails(f.client(base, { proxy: proxy.url }).listGroups(), 'network', /the proxy 127\.0\.0\.1:\d+ could not reach datagrok-test\.internal:1 \(5\d\d\)/);
  });
});

async function readCa(file: string): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  return readFile(file, 'utf8');
}

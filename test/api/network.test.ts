// The route decision (src/api/network.ts): pure functions, no I/O.
import * as assert from 'node:assert/strict';
import { proxyOf } from '../../src/api/exchange';
import { bypassesProxy, describeRoute, isLoopback, parseNoProxy, parseProxyUrl, resolveRoute } from '../../src/api/network';

const target = (url: string) => new URL(url);

describe('network: which route a request takes', () => {
  it('NO_PROXY entries: hosts, domains, a leading dot, *.domain, *, ports, IPs, case and trailing dots', () => {
    const list = parseNoProxy(' corp.example, .internal ,*.lab.example  10.0.0.5,[::2]:8443,other:8080');
    assert.deepEqual(list, ['corp.example', '.internal', '*.lab.example', '10.0.0.5', '[::2]:8443', 'other:8080']);
    const cases: Array<[string, number, boolean]> = [
      ['corp.example', 443, true],
      ['api.corp.example', 443, true],
      ['notcorp.example', 443, false],
      ['x.internal', 80, true],
      ['internal', 80, true],
      ['a.b.lab.example', 443, true],
      ['lab.example', 443, true],
      ['10.0.0.5', 443, true],
      ['10.0.0.50', 443, false],
      ['[::2]', 8443, true],
      ['::2', 443, false],
      ['other', 8080, true],
      ['other', 80, false],
      ['API.CORP.EXAMPLE.', 443, true],
    ];
    for (const [host, port, expected] of cases) assert.equal(bypassesProxy(host, port, list), expected, `${host}:${port}`);
    assert.equal(bypassesProxy('anything.example', 1, ['*']), true);
    assert.equal(bypassesProxy('anything.example', 1, []), false);
  });

  it('loopback is never proxied (as in VS Code)', () => {
    for (const host of ['localhost', '127.0.0.1', '[::1]', 'LOCALHOST']) assert.equal(isLoopback(host), true, host);
    assert.equal(isLoopback('datagrok.local'), false);
    assert.deepEqual(resolveRoute(target('http://127.0.0.1:8080/api'), { proxy: 'http://proxy:3128' }), { kind: 'direct', why: 'loopback' });
  });

  it('http.proxy wins over the environment; https uses HTTPS_PROXY, then HTTP_PROXY; lowercase over uppercase', () => {
    const env = { HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2', HTTP_PROXY: 'http://plain:3' };
    const route = (url: string, options: Parameters<typeof resolveRoute>[1]) => {
      const r = resolveRoute(target(url), options);
      return r.kind === 'proxy' ? `${r.from} ${r.proxy.host}` : r.kind;
    };
    assert.equal(route('https://dg.corp/api', { proxy: 'proxy.corp:3128', env }), 'settings proxy.corp:3128');
    assert.equal(route('https://dg.corp/api', { env }), 'environment lower:2');
    assert.equal(route('https://dg.corp/api', { env: { HTTPS_PROXY: 'http://upper:1' } }), 'environment upper:1');
    assert.equal(route('https://dg.corp/api', { env: { HTTP_PROXY: 'http://plain:3' } }), 'environment plain:3');
    assert.equal(route('http://dg.corp/api', { env: { HTTPS_PROXY: 'http://upper:1' } }), 'direct');
    assert.equal(route('http://dg.corp/api', { env: { http_proxy: 'plain:3' } }), 'environment plain:3');
    assert.equal(route('https://dg.corp/api', { proxy: 'http://p:1', proxySupport: 'off', env }), 'direct');
    assert.equal(route('https://dg.corp/api', { proxy: '  ', env: {} }), 'direct');
  });

  it('http.noProxy, when set, replaces NO_PROXY; either sends matching hosts direct', () => {
    const env = { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'dg.corp' };
    assert.equal(resolveRoute(target('https://dg.corp/api'), { env }).kind, 'direct');
    assert.equal(resolveRoute(target('https://dg.corp/api'), { env, noProxy: ['other.corp'] }).kind, 'proxy');
    assert.equal(resolveRoute(target('https://dg.corp/api'), { env, noProxy: ['', ' '] }).kind, 'direct');
    assert.equal(resolveRoute(target('https://x.dg.corp:8443/api'), { proxy: 'http://p:1', noProxy: ['dg.corp:8443'] }).kind, 'direct');
  });

  it('proxy URLs: a scheme is added when missing; other schemes are not used', () => {
    assert.equal(parseProxyUrl('proxy.corp:3128')?.href, 'http://proxy.corp:3128/');
    assert.equal(parseProxyUrl('https://proxy.corp')?.protocol, 'https:');
    assert.equal(parseProxyUrl('socks5://proxy:1080'), undefined);
    assert.equal(parseProxyUrl('http://[bad'), undefined);
    assert.equal(parseProxyUrl(''), undefined);
  });

  it('describes the route without credentials', () => {
    const route = resolveRoute(target('https://dg.corp/api'), { proxy: 'http://alice:s3cret@proxy.corp:3128' });
    const text = describeRoute(route);
    assert.equal(text, 'via proxy proxy.corp:3128 (from http.proxy)');
    assert.ok(!text.includes('s3cret') && !text.includes('alice'));
    assert.equal(describeRoute(resolveRoute(target('https://dg.corp/api'), {})), 'direct');
    assert.match(describeRoute(resolveRoute(target('http://localhost:8080/api'), {})), /local server is never proxied/);
  });

  it('in VS Code’s extension host the host routes: the settings only describe it, unless proxy support is off', () => {
    const host = resolveRoute(target('https://dg.corp/api'), { proxy: 'http://alice:s3cret@proxy.corp:3128', resolvedByHost: true });
    assert.equal(host.kind, 'host');
    const text = describeRoute(host);
    assert.match(text, /^as VS Code routes extension requests .*by the settings alone: via proxy proxy\.corp:3128/);
    assert.ok(!text.includes('s3cret') && !text.includes('alice'));
    assert.equal(resolveRoute(target('https://dg.corp/api'), { proxy: 'http://proxy.corp:3128', proxySupport: 'off', resolvedByHost: false }).kind, 'direct');
    assert.equal(resolveRoute(target('http://127.0.0.1:8080/api'), { resolvedByHost: true }).kind, 'direct');
  });

  it('the proxy the extension host reports choosing is named without the credentials http.proxy may hold', () => {
    assert.equal(proxyOf({ proxy: 'PROXY alice:s3cret@proxy.corp:3128' }), 'proxy.corp:3128');
    assert.equal(proxyOf({ proxy: 'PROXY al%40ice:s3@cret@proxy.corp:3128' }), 'proxy.corp:3128');
    assert.equal(proxyOf({ proxy: 'HTTPS proxy.corp:443' }), 'proxy.corp:443');
    assert.equal(proxyOf({ proxy: 'PROXY alice:s3cret@proxy.corp:3128/' }), 'proxy.corp:3128');
    assert.equal(proxyOf({ proxy: 'DIRECT' }), undefined);
    assert.equal(proxyOf({ proxy: 'PROXY alice:s3cret@' }), undefined);
  });

  it('in the extension host, http.proxyAuthorization with a proxy the settings name: the proxy is ours to take (the host never sends it)', () => {
    const proxyAuthorization = 'Basic YWxpY2U6czNjcmV0';
    for (const [base, options] of [
      ['http://dg.corp/api', { proxy: 'http://proxy.corp:3128' }],
      ['https://dg.corp/api', { proxy: 'http://proxy.corp:3128' }],
      ['https://dg.corp/api', { env: { HTTPS_PROXY: 'http://proxy.corp:3128' } }],
    ] as const) {
      const route = resolveRoute(target(base), { ...options, proxyAuthorization, resolvedByHost: true });
      assert.equal(route.kind, 'proxy', base);
      assert.equal(describeRoute(route).includes('YWxpY2U6czNjcmV0'), false);
    }
    // No proxy by the settings (a PAC file or the system's may still apply): the host routes.
    assert.equal(resolveRoute(target('https://dg.corp/api'), { proxyAuthorization, resolvedByHost: true, env: {} }).kind, 'host');
    assert.equal(resolveRoute(target('https://dg.corp/api'), { proxy: 'http://proxy.corp:3128', noProxy: ['dg.corp'], proxyAuthorization, resolvedByHost: true }).kind, 'host');
    assert.equal(resolveRoute(target('https://dg.corp/api'), { proxy: 'http://proxy.corp:3128', proxyAuthorization: '  ', resolvedByHost: true }).kind, 'host');
    assert.equal(resolveRoute(target('https://dg.corp/api'), { proxy: 'http://proxy.corp:3128', proxyAuthorization, proxySupport: 'off', resolvedByHost: false }).kind, 'direct');
  });
});

// HTTPS with a private certificate authority (made with openssl at test time): trusted through each
// supported way, and each certificate failure with its message.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { createConnections } from '../../src/api/connections';
import { canReadSystemStore } from '../../src/api/trust';
import { TEST_HOST } from '../network/certs';
import { useNetworkFixture } from '../network/fixture';
import { type RunningProxy, startTinyproxy } from '../network/tinyproxy';

const run = promisify(execFile);

/** listGroups() in a fresh Node process with that environment. */
async function inChild(options: object, env: Record<string, string>): Promise<{ ok: boolean; groups?: number; message?: string }> {
  const script = path.join(__dirname, '..', 'network', 'childClient.js');
  const { stdout } = await run(process.execPath, [script, JSON.stringify(options)], { env: { ...process.env, ...env } });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}');
}

describe('HTTPS and certificate authorities', () => {
  const f = useNetworkFixture();
  const ca = () => readFileSync(f.certs.caFile, 'utf8');

  it('an authority nobody trusts: names datagrok.tls.caCertificates and the other ways', async () => {
    await f.fails(
      f.client(f.httpsUrl, { env: {} }).listGroups(),
      'network',
      new RegExp(
        `the certificate of ${TEST_HOST}:\\d+ is not signed by an authority this machine trusts \\(UNABLE_TO_VERIFY_LEAF_SIGNATURE\\)\\. .*datagrok\\.tls\\.caCertificates.*http\\.systemCertificates.*NODE_EXTRA_CA_CERTS`,
      ),
    );
  });

  it('trusted through datagrok.tls.caCertificates (PEM text, a bundle with other certificates too)', async () => {
    const bundle = `${readFileSync(f.certs.selfSigned.cert, 'utf8')}\n${ca()}`;
    const client = f.client(f.httpsUrl, { caCertificates: [bundle] });
    assert.ok((await client.listGroups()).length > 0);
    await client.uploadFile('System:DemoFiles', 'tls.txt', { data: 'over TLS' });
    assert.equal(Buffer.from(await client.readFile('System:DemoFiles', 'tls.txt')).toString(), 'over TLS');
  });

  it('a large download over TLS arrives whole with its reads released, one and two at a time', async () => {
    const client = f.client(f.httpsUrl, { caCertificates: [ca()] });
    const data = randomBytes(3 * 1024 * 1024 + 5);
    await client.uploadFile('System:DemoFiles', 'tls-large.bin', { data });
    const dir = mkdtempSync(path.join(tmpdir(), 'dg-tls-'));
    try {
      const targets = [0, 1, 2].map((n) => path.join(dir, `${n}.bin`));
      await client.downloadFile('System:DemoFiles', 'tls-large.bin', { file: targets[0] });
      await Promise.all(targets.slice(1).map((file) => client.downloadFile('System:DemoFiles', 'tls-large.bin', { file })));
      const expected = createHash('sha256').update(data).digest('hex');
      for (const file of targets) assert.equal(createHash('sha256').update(readFileSync(file)).digest('hex'), expected, file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("where VS Code's host routes requests, an own authority is trusted through one context per client", async () => {
    // In a plain Node process nothing patches https: this is Node's own connect with what the client
    // hands the host (the list, so that the host adds none, and a context made once from it).
    const network = { caCertificates: [ca()], resolvedByHost: true };
    const connections = createConnections(new URL(f.httpsUrl), network);
    assert.equal(connections.route.kind, 'host');
    const first = connections.tls;
    assert.ok(first.ca && first.ca.length > 1, "the list names the authorities (Node's and the user's)");
    assert.ok(first.secureContext, 'a context made from the list');
    assert.equal(connections.tls.secureContext, first.secureContext, 'the same context for every connection');
    const client = f.client(f.httpsUrl, network);
    assert.ok((await client.listGroups()).length > 0);
  });

  it('trusted through NODE_EXTRA_CA_CERTS (read by Node at start)', async () => {
    const options = { baseUrl: f.httpsUrl, apiKey: f.http.key, retries: 0 };
    const trusted = await inChild({ ...options, network: {} }, { NODE_EXTRA_CA_CERTS: f.certs.caFile });
    assert.equal(trusted.ok, true, trusted.message);
    // With datagrok.tls.caCertificates also set, the list we build keeps NODE_EXTRA_CA_CERTS.
    const both = await inChild({ ...options, network: { caCertificates: [readFileSync(f.certs.selfSigned.cert, 'utf8')] } }, { NODE_EXTRA_CA_CERTS: f.certs.caFile });
    assert.equal(both.ok, true, both.message);
    const without = await inChild({ ...options, network: {} }, {});
    assert.equal(without.ok, false);
    assert.match(without.message ?? '', /not signed by an authority this machine trusts/);
  });

  it("trusted through the operating system's store (http.systemCertificates) where Node can read it", async () => {
    // OpenSSL's SSL_CERT_FILE names the system bundle for this process: our authority stands in for it.
    const options = { baseUrl: f.httpsUrl, apiKey: f.http.key, retries: 0 };
    const on = await inChild({ ...options, network: { systemCertificates: true } }, { SSL_CERT_FILE: f.certs.caFile });
    const off = await inChild({ ...options, network: { systemCertificates: false } }, { SSL_CERT_FILE: f.certs.caFile });
    assert.equal(off.ok, false, 'without http.systemCertificates the system store is not used');
    if (canReadSystemStore()) assert.equal(on.ok, true, on.message);
    else assert.match(on.message ?? '', /not signed by an authority/, `Node ${process.version} cannot read the system store: default roots only`);
  });

  it('a self-signed certificate: untrusted, with the same advice', async () => {
    const emulator = await f.httpsWith(f.certs.selfSigned);
    await f.fails(
      f.client(`https://${TEST_HOST}:${emulator.port}/api`).listGroups(),
      'network',
      /is not signed by an authority this machine trusts \(DEPTH_ZERO_SELF_SIGNED_CERT\).*datagrok\.tls\.caCertificates/,
    );
  });

  it('an expired certificate: says it expired, even from a trusted authority', async () => {
    const emulator = await f.httpsWith(f.certs.expired);
    await f.fails(
      f.client(`https://${TEST_HOST}:${emulator.port}/api`, { caCertificates: [ca()] }).listGroups(),
      'network',
      /the certificate of datagrok-test\.internal:\d+ has expired \(CERT_HAS_EXPIRED\)\. Ask the server's administrator to renew it/,
    );
  });

  it('a certificate for another host name: says to use the name the certificate has', async () => {
    const emulator = await f.httpsWith(f.certs.wrongHost);
    await f.fails(
      f.client(`https://${TEST_HOST}:${emulator.port}/api`, { caCertificates: [ca()] }).listGroups(),
      'network',
      /is issued for another host name \(ERR_TLS_CERT_ALTNAME_INVALID\).*add datagrok-test\.internal to the certificate/,
    );
  });

  it('https:// to a server that speaks plain HTTP: says to check the scheme', async () => {
    await f.fails(f.client(`https://${TEST_HOST}:${f.http.port}/api`).listGroups(), 'network', /did not answer in HTTPS .*http:\/\/ instead of https:\/\//);
  });

  describe('through a proxy', () => {
    let proxy: RunningProxy;
    before(async () => {
      proxy = await startTinyproxy();
    });
    after(async () => {
      await proxy?.stop();
    });

    it('certificate failures through a tunnel say so, and http.proxyStrictSSL false is honoured', async () => {
      const emulator = await f.httpsWith(f.certs.expired);
      const base = `https://${TEST_HOST}:${emulator.port}/api`;
      await f.fails(f.client(base, { proxy: proxy.url, caCertificates: [ca()] }).listGroups(), 'network', /has expired \(CERT_HAS_EXPIRED\)/);
      await f.fails(f.client(f.httpsUrl, { proxy: proxy.url }).listGroups(), 'network', /\(through the proxy 127\.0\.0\.1:\d+\) is not signed by an authority/);
      assert.ok((await f.client(base, { proxy: proxy.url, proxyStrictSSL: false }).listGroups()).length > 0);
      assert.ok(proxy.requests().every((line) => line.startsWith('CONNECT ')));
    });
  });
});

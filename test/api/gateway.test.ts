// A sign-in gateway in front of the server (real HTTP: a small server standing in for one): a redirect
// to its sign-in page, or the page itself, says to sign in in the browser at that address.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '../../src/api/client';
import { DatagrokError } from '../../src/api/errors';
import { isNetworkSetupFailure } from '../../src/api/networkFailures';

const LOGIN_PAGE = '<!doctype html><html><head><title>Sign in - Corp SSO</title></head><body><form><input name="user"><input type="password" name="pw"></form></body></html>';

describe('sign-in gateways', () => {
  let server: Server;
  let base: string;
  let answer: { status: number; headers: Record<string, string>; body: string };

  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(answer.status, answer.headers).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function failure(call: 'json' | 'download'): Promise<DatagrokError> {
    const client = createClient({ baseUrl: base, apiKey: 'gateway-test-key', retries: 0 });
    try {
      if (call === 'json') await client.listGroups();
      else await client.readFile('System:DemoFiles', 'demog.csv');
    } catch (error) {
      assert.ok(error instanceof DatagrokError);
      assert.ok(!error.message.includes('gateway-test-key'));
      return error;
    } finally {
      await client.close();
    }
    throw new Error('the call succeeded');
  }

  it('a redirect to a sign-in page: sign in in the browser at that address (no query shown)', async () => {
    answer = { status: 302, headers: { location: 'https://sso.corp.example/adfs/ls/?SAMLRequest=abc&RelayState=xyz' }, body: '' };
    for (const call of ['json', 'download'] as const) {
      const error = await failure(call);
      assert.equal(error.kind, 'network');
      assert.ok(isNetworkSetupFailure(error));
      assert.match(
        error.message,
        /a sign-in gateway answered instead of the Datagrok server \(302 redirect to https:\/\/sso\.corp\.example\/adfs\/ls\/\)\. Open https:\/\/sso\.corp\.example\/adfs\/ls\/ in the browser and sign in there/,
      );
      assert.ok(!error.message.includes('SAMLRequest'));
    }
  });

  it('a redirect elsewhere (http → https) still says to use the address it redirects to', async () => {
    answer = { status: 301, headers: { location: base.replace('http:', 'https:') + '/public/v1/groups' }, body: '' };
    const error = await failure('json');
    assert.equal(error.kind, 'badInput');
    assert.match(error.message, /the server redirects to another address \(301: https:\/\/127\.0\.0\.1:\d+\/api\/public\/v1\/groups\)\. Use the address it redirects to/);
  });

  it('its sign-in page instead of data (200, or 401 with a page): sign in in the browser', async () => {
    for (const status of [200, 401]) {
      answer = { status, headers: { 'content-type': 'text/html; charset=utf-8' }, body: LOGIN_PAGE };
      const error = await failure('json');
      // answered with success it is not the server's answer; answered 401 it is the network in the way
      assert.equal(error.kind, status === 200 ? 'unexpectedAnswer' : 'network', `status ${status}`);
      assert.match(
        error.message,
        /answered with a sign-in page instead of data: a sign-in gateway stands in front of it\. Open http:\/\/127\.0\.0\.1:\d+ in the browser and sign in there/,
      );
    }
  });

  it('another web page is not taken for a gateway', async () => {
    answer = { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>Welcome to nginx!</h1></body></html>' };
    const error = await failure('json');
    assert.equal(error.kind, 'server');
    assert.match(error.message, /answered with a web page instead of data/);
  });
});

import * as assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, DatagrokError } from '../../src/api';
import { IDS, useEmulator } from './harness';

describe('errors, retries and server quirks', () => {
  const h = useEmulator();

  describe('one kind per failure', () => {
    it('unauthorized: a wrong key, with advice and without the key', async () => {
      const client = h.newClient({ apiKey: 'wrong-key-0123456789' });
      const err = await h.fails(client.listGroups(), 'unauthorized', /^Listing groups failed: the API key was rejected \(401\).*Sign in again with a valid key\.$/);
      assert.equal(err.status, 401);
      assert.equal(err.details.method, 'GET');
      assert.equal(err.details.path, '/public/v1/groups');
      assert.ok(!err.message.includes('wrong-key-0123456789'));
      assert.equal((await h.requests())[0].authorized, false);
    });

    it('sends "Authorization: Bearer <key>" whether or not the key was pasted with Bearer', async () => {
      for (const apiKey of [`Bearer ${h.emulator.key}`, `  ${h.emulator.key}\n`, `bearer ${h.emulator.key}`]) {
        await h.newClient({ apiKey }).currentUserGroup();
      }
      assert.ok((await h.requests()).every((r) => r.authorized));
      await h.fails(h.newClient({ apiKey: '  ' }).listGroups(), 'badInput', /API key/);
    });

    it('forbidden, notFound and server carry the server message', async () => {
      const forbidden = await h.fails(h.client.listRequests(IDS.dataScience), 'forbidden', /permission denied \(403\): You are not an administrator of Data Science/);
      assert.equal(forbidden.serverMessage, 'You are not an administrator of Data Science');
      const missing = await h.fails(h.client.getGroup('00000000-0000-4000-8000-00000000dead'), 'notFound', /Group .* not found/);
      assert.ok(!missing.message.includes('/api?'));
      await h.fails(h.client.callFunction('Demo:Fail', {}), 'server', /Demo:Fail always fails/);
    });

    it('unavailable: an HTML 502 page, never HTML in the message', async () => {
      await h.fault({ match: 'POST /api/public/v1/groups', html: true, status: 502 });
      const err = await h.fails(h.client.createGroup({ name: 'x' }), 'unavailable', /server unavailable \(502\)/);
      assert.ok(!/[<>]/.test(err.message), err.message);
      assert.equal(err.serverMessage, undefined);
    });

    it('network: nothing listening', async () => {
      const server: Server = createServer();
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const port = (server.address() as { port: number }).port;
      await new Promise<void>((r) => server.close(() => r()));
      const client = createClient({ baseUrl: `http://127.0.0.1:${port}/api`, apiKey: 'k', retryBaseDelayMs: 1 });
      try {
        await h.fails(client.listGroups(), 'network', /could not connect to 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
      } finally {
        await client.close();
      }
    });

    it('timeout: the server does not answer in time (configurable)', async () => {
      const client = h.newClient({ timeouts: { requestMs: 200 }, retries: 0 });
      await h.fault({ match: 'GET /api/public/v1/groups', delayMs: 1000 });
      await h.fails(client.listGroups(), 'timeout', /did not answer within 0.2 s/);
    });

    it('cancelled: an aborted signal, before or during a call', async () => {
      await h.fails(h.client.listGroups(undefined, { signal: AbortSignal.abort() }), 'cancelled', /Listing groups was cancelled\./);
      assert.equal((await h.requests()).length, 0);
      await h.fault({ match: 'GET /api/public/v1/groups', delayMs: 2000 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      await h.fails(h.client.listGroups(undefined, { signal: controller.signal }), 'cancelled');
    });

    it('cancelled during a retry backoff', async () => {
      const client = h.newClient({ retryBaseDelayMs: 5000 });
      await h.fault({ match: 'GET /api/public/v1/groups', status: 503 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const started = Date.now();
      await h.fails(client.listGroups(undefined, { signal: controller.signal }), 'cancelled');
      assert.ok(Date.now() - started < 2000);
    });

    it('badInput: rejected before any request', async () => {
      await h.fails(h.client.getGroup('..'), 'badInput');
      await h.fails(h.client.downloadTable(':', { stream: process.stdout }), 'badInput');
      await h.fails(h.client.shareDashboard('id', ['x'], 'Owner' as 'View'), 'badInput', /View or Edit/);
      assert.throws(
        () => createClient({ baseUrl: 'ftp://example.com/api', apiKey: 'k' }),
        (e: unknown) => e instanceof DatagrokError && e.kind === 'badInput',
      );
      assert.equal((await h.requests()).length, 0);
    });

    it('badInput: a download target that cannot be written', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'datagrok-api-test-'));
      try {
        await h.fails(h.client.downloadFile('System:DemoFiles', 'cars.csv', { file: join(dir, 'no', 'such', 'dir', 'x.csv') }), 'badInput', /cannot write/);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });

  describe('errors answered with HTTP 200', () => {
    for (const [label, config] of [
      ['with the api-error header', { errorsAsHttp200: true, apiErrorHeader: true }],
      ['as an ApiError body', { errorsAsHttp200: true, apiErrorHeader: false }],
      ['as a JSON string of an ApiError (text/plain)', { errorsAsHttp200: true, apiErrorHeader: false, errorBodyAsJsonString: true }],
    ] as const) {
      it(label, async () => {
        await h.config(config);
        const err = await h.fails(h.client.getGroup('00000000-0000-4000-8000-00000000dead'), 'notFound', /not found \(404\): Group .* not found/);
        assert.equal(err.status, 404);
        await h.fails(h.client.listRequests(IDS.dataScience), 'forbidden');
        await h.fails(h.client.callFunction('Demo:Fail', { message: 'boom' }), 'server', /boom/);
        await h.fails(h.client.approveRequest('e2000000-0000-4000-8000-00000000ffff'), 'notFound');
        await h.fails(h.newClient({ apiKey: 'bad-key-xyz' }).listGroups(), 'unauthorized');
      });
    }

    it('an injected 200 + ApiError on a JSON call', async () => {
      await h.fault({ match: 'GET /api/public/v1/groups', apiError: 'Something broke' });
      await h.fails(h.client.listGroups(), 'server', /Something broke/);
      assert.equal(h.log.length, 1);
    });
  });

  describe('the URL', () => {
    it('hints at /api when the base URL lacks it', async () => {
      const client = h.newClient({ baseUrl: h.emulator.origin });
      await h.fails(client.listGroups(), 'notFound', /Is the URL missing \/api\?/);
      await h.fails(client.currentUserGroup(), 'notFound', /Is the URL missing \/api\?/);
    });

    it('hints at /api when even the current-user route 404s', async () => {
      const client = h.newClient({ baseUrl: `${h.emulator.origin}/datagrok/api` });
      await h.fails(client.currentUserGroup(), 'notFound', /Is the URL missing \/api\?/);
    });
  });

  describe('retries', () => {
    it('retries a GET on 503 and honours Retry-After', async () => {
      await h.fault({ match: 'GET /api/public/v1/groups/lookup', status: 503, retryAfter: 1 });
      const started = Date.now();
      const groups = await h.client.lookupGroups('Chem');
      assert.equal(groups[0]?.name, 'Chemists');
      assert.ok(Date.now() - started >= 900, 'waited for Retry-After');
      assert.deepEqual(
        h.log.map((e) => [e.attempt, e.status, e.error]),
        [
          [1, 503, 'unavailable'],
          [2, 200, undefined],
        ],
      );
    });

    it('retries on 429, 502 (HTML) and 504, then gives up with the last failure', async () => {
      await h.fault({ match: 'GET /api/public/v1/groups', status: 429, retryAfter: 0 });
      await h.fault({ match: 'GET /api/public/v1/groups', status: 502, html: true });
      await h.fault({ match: 'GET /api/public/v1/groups', status: 504 });
      assert.ok((await h.client.listGroups()).length > 0);
      assert.deepEqual(
        h.log.map((e) => e.status),
        [429, 502, 504, 200],
      );
      h.log.length = 0;
      await h.fault({ match: 'GET /api/public/v1/groups', status: 503, count: 10 });
      await h.fails(h.newClient({ retries: 2 }).listGroups(), 'unavailable', /server unavailable \(503\)/);
      assert.equal(h.log.length, 3);
    });

    it('retries a GET on a dropped connection', async () => {
      await h.fault({ match: 'GET /api/public/v1/groups', resetBeforeResponse: true });
      await h.fault({ match: 'GET /api/public/v1/groups', dropAfterBytes: 10 });
      assert.ok((await h.client.listGroups()).length > 0);
      assert.deepEqual(
        h.log.map((e) => e.error),
        ['network', 'network', undefined],
      );
    });

    it('never retries a POST', async () => {
      await h.fault({ match: 'POST /api/public/v1/groups', status: 503, retryAfter: 0 });
      await h.fails(h.client.createGroup({ name: 'Once' }), 'unavailable');
      await h.fault({ match: 'POST /api/public/v1/Demo.Add/call', resetBeforeResponse: true });
      await h.fails(h.client.callFunction('Demo:Add', { a: 1, b: 1 }), 'network');
      await h.fault({ match: 'POST /api/public/v1/groups/requests', status: 502, html: true });
      await h.fails(h.client.approveRequest(IDS.bobToChemists), 'unavailable');
      const posts = (await h.requests()).filter((r) => r.method === 'POST');
      assert.deepEqual(
        posts.map((r) => r.path),
        ['/api/public/v1/groups', '/api/public/v1/Demo.Add/call', `/api/public/v1/groups/requests/${IDS.bobToChemists}/approve`],
      );
      assert.ok(!(await h.state()).groups.some((g) => g.name === 'Once'));
    });
  });

  it('never puts the key in a message, even when the server echoes it', async () => {
    const key = h.emulator.key;
    await h.fault({ match: 'GET /api/public/v1/groups', apiError: `Token ${key} is not allowed; header was Bearer ${key}` });
    const err = await h.fails(h.client.listGroups(), 'server');
    assert.ok(!err.message.includes(key));
    assert.ok(!err.serverMessage?.includes(key));
    assert.match(err.message, /Token \*\*\* is not allowed/);
    await h.fault({ match: 'GET /api/public/v1/groups', status: 500, retryAfter: 0, count: 1 });
    await h.fails(h.client.listGroups(), 'server');
  });

  it('logs one entry per attempt with a path relative to the base URL', async () => {
    await h.fault({ match: 'GET /api/public/v1/groups/lookup', status: 503 });
    await h.client.lookupGroups('a b');
    assert.equal(h.log.length, 2);
    for (const [i, e] of h.log.entries()) {
      assert.equal(e.method, 'GET');
      assert.equal(e.path, '/public/v1/groups/lookup?query=a+b');
      assert.equal(e.attempt, i + 1);
      assert.ok(e.durationMs >= 0);
    }
  });
});

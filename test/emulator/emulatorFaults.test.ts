// The emulator's faults and configuration over raw HTTP: injected errors, dropped and stalled responses,
// route generations and less uniform answers, as the client's failure tests rely on them.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { request } from 'undici';
import { type Emulator, startEmulator } from './server';
import { emulatorUnderTest } from './selfTest';

describe('Datagrok API emulator', function () {
  this.timeout(20_000);
  const { emu, call, json, control } = emulatorUnderTest();

  describe('faults and config', () => {
    it('injects an HTML 502 once, then answers normally', async () => {
      await control('POST', 'faults', { count: 1, status: 502, html: true, match: '/groups' });
      const bad = await call('GET', '/public/v1/groups');
      assert.equal(bad.status, 502);
      assert.match(String(bad.headers['content-type']), /text\/html/);
      assert.equal((await call('GET', '/public/v1/groups')).status, 200);
    });

    it('switches route generations: plain 404 for a missing route, not an ApiError', async () => {
      await control('POST', 'config', { generation: 'new' });
      const old = await call('GET', '/public/v1/user/group');
      assert.equal(old.status, 404);
      assert.doesNotMatch(old.text, /ApiError/);
      assert.equal((await call('POST', '/public/v1/Demo.Add/call', '{"a":1,"b":2}')).status, 404);
      assert.equal((await call('GET', '/public/v1/groups/current')).status, 200);
      assert.equal(await json('POST', '/public/v1/functions/Demo.Add/call', '{"a":1,"b":2}'), 3);
      const board = await json('POST', '/public/v1/dashboards/Board/Demo.demog');
      const shareGet = await call('GET', `/public/v1/dashboards/${board.ID}/shares?groups=Chemists`);
      assert.deepEqual([shareGet.status, shareGet.text], [404, 'Not Found']);
      assert.equal((await json('POST', `/public/v1/entities/${board.ID}/shares?groups=Chemists`)).status, 'success');
      await control('POST', 'config', { generation: 'old' });
      assert.equal((await call('POST', `/public/v1/entities/${board.ID}/shares?groups=Chemists`)).status, 404);
      assert.equal((await call('GET', `/public/v1/dashboards/${board.ID}/shares?groups=Chemists`)).status, 200);
      assert.equal((await call('POST', '/public/v1/functions/Demo.Add/call', '{"a":1,"b":2}')).status, 404);
      assert.equal((await call('GET', '/public/v1/groups/current')).status, 404);
      assert.equal(await json('POST', '/public/v1/Demo.Add/call', '{"a":1,"b":2}'), 3);
    });

    it('drops a response after N bytes, or the connection before any answer', async () => {
      await control('POST', 'faults', { dropAfterBytes: 1000, match: 'tables/Demo.demog' });
      await assert.rejects(call('GET', '/public/v1/tables/Demo.demog'));
      await control('POST', 'faults', { resetBeforeResponse: true });
      await assert.rejects(call('GET', '/public/v1/groups'));
      assert.equal((await call('GET', '/public/v1/groups')).status, 200);
      const log = await control('GET', 'requests');
      assert.deepEqual(
        log.map((e: { status: number }) => e.status),
        [200, 0, 200],
      );
    });

    it('stalls a response after N bytes and holds it open until reset or close ends it', async () => {
      // Headers and N body bytes arrive, then nothing: the response neither ends nor errors.
      const stalledGet = async (target: Emulator, n: number) => {
        await request(`${target.origin}/__emulator/faults`, { method: 'POST', body: JSON.stringify({ stallAfterBytes: n, match: 'demog.csv' }) }).then((r) => r.body.dump());
        return new Promise<{ res: http.IncomingMessage; bytes: () => number; closed: Promise<void> }>((resolve, reject) => {
          const req = http.get(`${target.baseUrl}/public/v1/files/System.DemoFiles/demog.csv`, { headers: { authorization: `Bearer ${target.key}` } }, (res) => {
            let bytes = 0;
            res.on('data', (c: Buffer) => {
              bytes += c.length;
            });
            const closed = new Promise<void>((done) => res.on('close', () => done()));
            res.on('error', () => undefined);
            resolve({ res, bytes: () => bytes, closed });
          });
          req.on('error', reject);
        });
      };
      const first = await stalledGet(emu(), 1000);
      assert.equal(first.res.statusCode, 200);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(first.bytes(), 1000);
      assert.equal(first.res.complete, false);
      assert.equal(emu().state.stalled.size, 1);
      await control('POST', 'reset');
      await first.closed;
      assert.equal(first.res.complete, false);
      assert.equal(emu().state.stalled.size, 0);

      const other = await startEmulator({ port: 0 });
      const held = await stalledGet(other, 0);
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(held.bytes(), 0);
      const started = Date.now();
      await other.close();
      await held.closed;
      assert.ok(Date.now() - started < 2000);
      assert.equal(held.res.complete, false);
    });

    it('switches the listing, connections and DELETE routes off (plain 404)', async () => {
      await control('POST', 'config', { listing: false, deleteFiles: false });
      for (const [method, path] of [
        ['GET', '/public/v1/connections/System.DemoFiles'],
        ['GET', '/connectors/connections/f0000000-0000-4000-8000-000000000001/files/'],
        ['DELETE', '/public/v1/files/System.DemoFiles/readme.md'],
      ] as const) {
        const res = await call(method, path);
        assert.equal(res.status, 404, path);
        assert.equal(res.text, 'Not Found');
      }
    });

    it('can be less uniform: chunked downloads, variant creation keys, other error shapes', async () => {
      await control('POST', 'config', { chunkedDownloads: true, creationResultKeys: 'variant', errorShape: 'error' });
      for (const path of ['/public/v1/files/System.DemoFiles/demog.csv', '/public/v1/tables/Demo.demog']) {
        const res = await call('GET', path);
        assert.equal(res.status, 200);
        assert.equal(res.headers['content-length'], undefined, path);
        assert.equal(res.headers['transfer-encoding'], 'chunked', path);
        assert.ok(res.bytes.length > 1000);
      }
      const created = await json('POST', '/public/v1/tables/Keys.t', 'a\n1\n');
      assert.deepEqual(Object.keys(created).sort(), ['Grok name', 'id', 'markup', 'url']);
      assert.equal(created['Grok name'], 'demo:Keys:t');
      const board = await json('POST', `/public/v1/dashboards/Keys/${created.id}`);
      assert.deepEqual(Object.keys(board).sort(), ['Grok name', 'id', 'markup', 'url']);
      const missing = await call('GET', '/public/v1/groups/00000000-0000-4000-8000-00000000dead');
      assert.equal(missing.status, 404);
      assert.deepEqual(JSON.parse(missing.text), { error: 'Group 00000000-0000-4000-8000-00000000dead not found' });
      await control('POST', 'config', { errorShape: 'text', errorsAsHttp200: true });
      const failed = await call('POST', '/public/v1/Demo.Fail/call', '{"message":"boom"}');
      assert.deepEqual([failed.status, failed.text], [500, 'boom']);
      assert.match(String(failed.headers['content-type']), /^text\/plain/);
      assert.equal((await call('GET', '/public/v1/groups', undefined, 'wrong')).status, 401);
      const bad = await request(`${emu().origin}/__emulator/config`, { method: 'POST', body: JSON.stringify({ errorShape: 'xml' }) });
      assert.equal(bad.statusCode, 400);
      await bad.body.dump();
    });

    it('sends errors as HTTP 200 with an api-error header when configured', async () => {
      await control('POST', 'config', { errorsAsHttp200: true });
      const res = await call('POST', '/public/v1/Demo.Fail/call', '{"message":"boom"}');
      assert.equal(res.status, 200);
      assert.equal(res.headers['api-error'], 'true');
      assert.equal(JSON.parse(res.text).message, 'boom');
    });
  });
});

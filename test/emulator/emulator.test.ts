// The emulator itself, over raw HTTP: what the client, the test host and the benchmark rely on. Its
// faults and configuration are in emulatorFaults.test.ts.
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import * as http from 'node:http';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { BOB_TO_CHEMISTS, CHEMISTS, emulatorUnderTest } from './selfTest';

describe('Datagrok API emulator', function () {
  this.timeout(20_000);
  const { emu, call, json, control } = emulatorUnderTest();

  describe('auth', () => {
    it('answers 401 with an ApiError for a missing, wrong or un-prefixed key', async () => {
      for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: emu().key }]) {
        const res = await request(`${emu().baseUrl}/public/v1/groups`, { headers });
        const body = (await res.body.json()) as { '#type': string; errorCode: number };
        assert.equal(res.statusCode, 401);
        assert.equal(body['#type'], 'ApiError');
        assert.equal(body.errorCode, 401);
      }
      assert.equal((await call('GET', '/connectors/connections/x/files/', undefined, 'wrong')).status, 401);
    });

    // Every route of the README's "Routes" section: the reference ones, then those of current servers.
    const DASHBOARD = '{dashboard}';
    const ROUTES: Array<[method: 'GET' | 'POST' | 'DELETE', path: string, body?: string]> = [
      ['GET', '/public/v1/files/System.DemoFiles/demog.csv'],
      ['POST', '/public/v1/files/demo.Home/auth-check.txt', 'x'],
      ['GET', '/public/v1/tables/Demo.demog'],
      ['POST', '/public/v1/tables/Auth.check', 'a\n1\n'],
      ['POST', '/public/v1/dashboards/Auth%20board/Demo.demog', '{}'],
      ['GET', `/public/v1/dashboards/${DASHBOARD}/shares?groups=Chemists&access=View`],
      ['POST', '/public/v1/Demo.Add/call', '{"a":1,"b":2}'],
      ['GET', '/public/v1/groups?include=children&text=chem'],
      ['POST', '/public/v1/groups?saveRelations=false', '{"name":"Auth group"}'],
      ['GET', '/public/v1/groups/lookup?query=chem'],
      ['GET', `/public/v1/groups/${CHEMISTS}`],
      ['GET', `/public/v1/groups/${CHEMISTS}/members?admin=false`],
      ['GET', `/public/v1/groups/${CHEMISTS}/memberships`],
      ['POST', '/public/v1/groups/c0000000-0000-4000-8000-000000000003/request'],
      ['GET', `/public/v1/groups/${CHEMISTS}/requests`],
      ['POST', `/public/v1/groups/requests/${BOB_TO_CHEMISTS}/approve`],
      ['POST', '/public/v1/groups/requests/e2000000-0000-4000-8000-000000000002/deny'],
      ['GET', '/public/v1/user/group'],
      // Current servers (beyond the reference)
      ['POST', '/public/v1/functions/Demo.Add/call', '{"a":1,"b":2}'],
      ['GET', '/public/v1/groups/current'],
      ['POST', `/public/v1/entities/${DASHBOARD}/shares?groups=Chemists&access=Edit`],
      ['DELETE', '/public/v1/files/demo.Home/notes.txt'],
      ['GET', '/public/v1/connections/System.DemoFiles'],
      ['GET', '/public/v1/connections/Samples.Northwind'],
      ['POST', '/public/v1/functions', '{"name":"AuthCheck","source":"script","language":"python","script":"x = 1"}'],
      ['GET', '/connectors/connections/f0000000-0000-4000-8000-000000000001/files/geo/?recursive=false'],
      // Also beyond the reference (README "Beyond the reference: what real servers do")
      ['GET', '/public/v1/healthcheck'],
      ['GET', '/public/v1/users/current'],
      ['GET', '/public/v1/users?text=alice'],
      ['GET', '/public/v1/users/alice'],
      ['GET', '/public/v1/functions?text=source%20%3D%20%22script%22'],
      ['GET', '/public/v1/functions/Demo.Add'],
      ['GET', '/public/v1/connections?text=demo'],
      ['POST', '/public/v1/files/sync/System.DemoFiles/geo?recursive=true', '{}'],
      ['GET', '/tables?text=demog&limit=100&page=1'],
      ['GET', '/tables/b0000000-0000-4000-8000-000000000001'],
      ['GET', '/groups?limit=50&page=1'],
      ['GET', '/projects?limit=50&page=1'],
      ['GET', '/projects/b1000000-0000-4000-8000-000000000001'],
      ['GET', '/connectors/connections'],
      ['DELETE', `/public/v1/groups/${CHEMISTS}`],
    ];

    it('every route answers 401 without the key (and changes nothing), and not 401 with it', async () => {
      const board = await json('POST', '/public/v1/dashboards/Auth%20target/Demo.demog');
      const before = JSON.stringify(await control('GET', 'state'));
      for (const [method, raw, body] of ROUTES) {
        const path = raw.replace(DASHBOARD, board.ID);
        for (const key of [null, 'wrong-key']) {
          const res = await call(method, path, body, key);
          assert.equal(res.status, 401, `${method} ${path} with key ${key}: ${res.status} ${res.text}`);
          assert.equal(JSON.parse(res.text)['#type'], 'ApiError');
        }
      }
      assert.equal(JSON.stringify(await control('GET', 'state')), before, 'an unauthorized request changed the state');
      for (const [method, raw, body] of ROUTES) {
        const path = raw.replace(DASHBOARD, board.ID);
        const res = await call(method, path, body);
        assert.notEqual(res.status, 401, `${method} ${path}: ${res.text}`);
        assert.ok(res.status < 400, `${method} ${path} with the key: ${res.status} ${res.text}`);
      }
      const log: Array<{ authorized: boolean }> = await control('GET', 'requests');
      assert.equal(log.filter((e) => !e.authorized).length, ROUTES.length * 2);
    });

    it('serves /info/server without a key and 404s outside /api', async () => {
      assert.equal((await call('GET', '/info/server', undefined, null)).status, 200);
      const res = await request(`${emu().origin}/public/v1/groups`, { headers: { authorization: `Bearer ${emu().key}` } });
      await res.body.dump();
      assert.equal(res.statusCode, 404);
    });
  });

  describe('demo data', () => {
    it('has the demo groups, the current user, files and the demog table', async () => {
      const names = (await json('GET', '/public/v1/groups')).map((g: { name: string }) => g.name);
      for (const n of ['All users', 'Developers', 'Administrators', 'Chemists', 'Data Science', 'Biologists', 'demo', 'alice']) {
        assert.ok(names.includes(n), n);
      }
      assert.equal((await json('GET', '/public/v1/user/group')).id, 'd0000000-0000-4000-8000-000000000001');
      const requests = await json('GET', `/public/v1/groups/${CHEMISTS}/requests`);
      assert.deepEqual(requests.map((r: { from: { name: string } }) => r.from.name).sort(), ['bob', 'carol']);
      const cities = await call('GET', '/public/v1/files/System.DemoFiles/geo/cities.csv');
      assert.equal(cities.status, 200);
      assert.equal(cities.headers['content-length'], String(cities.bytes.length));
      assert.match(cities.text, /^city,country/);
      const listing = await json('GET', '/connectors/connections/' + (await json('GET', '/public/v1/connections/System.DemoFiles')).id + '/files/?recursive=false');
      assert.deepEqual(
        listing.map((e: { name: string; isFile: boolean }) => `${e.name}:${e.isFile}`),
        ['cars.csv:true', 'demog.csv:true', 'geo:false', 'readme.md:true'],
      );
      assert.equal(await json('POST', '/public/v1/Demo.RowCount/call', JSON.stringify({ table: 'Demo.demog' })), 5850);
    });
  });

  describe('files', () => {
    it('round-trips a streamed upload byte for byte, with its sha256 in the state', async () => {
      const data = randomBytes(3 * 1024 * 1024 + 17);
      const sha = createHash('sha256').update(data).digest('hex');
      const chunks = Array.from({ length: 50 }, (_, i) => data.subarray(Math.floor((i * data.length) / 50), Math.floor(((i + 1) * data.length) / 50)));
      const up = await call('POST', '/public/v1/files/System.AppData/sub%20dir/blob.bin', Readable.from(chunks));
      assert.equal(up.status, 200);
      const down = await call('GET', '/public/v1/files/System.AppData/sub%20dir/blob.bin');
      assert.equal(down.status, 200);
      assert.equal(down.headers['content-length'], String(data.length));
      assert.ok(down.bytes.equals(data));
      const state = await control('GET', 'state');
      const file = state.files.find((f: { connector: string; path: string }) => f.connector === 'System:AppData' && f.path === 'sub dir/blob.bin');
      assert.deepEqual({ bytes: file.bytes, sha256: file.sha256 }, { bytes: data.length, sha256: sha });
    });

    it('keeps the previous content when an upload is aborted midway', async () => {
      const before = await call('GET', '/public/v1/files/System.DemoFiles/readme.md');
      await new Promise<void>((resolve) => {
        const req = http.request(`${emu().baseUrl}/public/v1/files/System.DemoFiles/readme.md`, {
          method: 'POST',
          headers: { authorization: `Bearer ${emu().key}`, 'content-length': String(10_000_000) },
        });
        req.on('error', () => resolve());
        req.write(Buffer.alloc(1_000_000, 65), () => setTimeout(() => req.destroy(), 100));
      });
      const after = await call('GET', '/public/v1/files/System.DemoFiles/readme.md');
      assert.equal(after.status, 200);
      assert.ok(after.bytes.equals(before.bytes));
      // …and its partial temp file is gone once the server noticed the abort.
      for (let i = 0; i < 50 && (await readdir(emu().state.files.tmpDir)).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(await readdir(emu().state.files.tmpDir), []);
    });

    it('rejects .. and empty segments, and 404s missing files and connectors with an ApiError', async () => {
      // node:http sends the path as written (fetch/undici would resolve the dot segments first).
      const raw = (path: string) =>
        new Promise<number>((resolve, reject) => {
          const req = http.get({ host: '127.0.0.1', port: emu().port, path: `/api${path}`, headers: { authorization: `Bearer ${emu().key}` } }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject);
        });
      assert.equal(await raw('/public/v1/files/System.DemoFiles/geo/../demog.csv'), 400);
      assert.equal(await raw('/public/v1/files/System.DemoFiles/geo/%2E%2E/demog.csv'), 400);
      assert.equal(await raw('/public/v1/files/System.DemoFiles/geo//cities.csv'), 400);
      for (const path of ['/public/v1/files/System.DemoFiles/nope.csv', '/public/v1/files/No.Such/x.csv']) {
        const res = await call('GET', path);
        assert.equal(res.status, 404);
        assert.equal(JSON.parse(res.text)['#type'], 'ApiError');
      }
    });
  });

  describe('tables and dashboards', () => {
    it('re-uploading a table keeps its ID; dashboards check their tables exist', async () => {
      const first = await json('POST', '/public/v1/tables/Sales.q1', 'a,b\n1,2\n');
      const second = await json('POST', '/public/v1/tables/Sales.q1', 'a,b\n3,4\n5,6\n');
      assert.equal(second.ID, first.ID);
      // Named as real servers name it: the uploader's login first (`<owner>:<project>:<table>`).
      assert.equal(second.name, 'demo:Sales:q1');
      assert.equal(second.URL, `${emu().origin}/p/demo.Sales/q1`);
      for (const name of ['demo.Sales.q1', 'DEMO.sales.Q1', 'Sales.q1', first.ID]) assert.equal((await call('GET', `/public/v1/tables/${name}`)).text, 'a,b\n3,4\n5,6\n', name);
      assert.equal((await json('POST', '/public/v1/tables/demo.Sales.q1', 'a,b\n3,4\n5,6\n')).ID, first.ID, 'the full name replaces the same table');
      assert.equal((await call('GET', `/public/v1/tables/${first.ID}`)).text, 'a,b\n3,4\n5,6\n');
      const missing = await call('POST', '/public/v1/dashboards/Board/Sales.q1,Nope.t');
      assert.equal(missing.status, 404);
      assert.match(JSON.parse(missing.text).message, /Nope:t/);
      const board = await json('POST', `/public/v1/dashboards/Board/${first.ID}`, JSON.stringify({ views: [] }));
      assert.equal((await call('GET', `/public/v1/dashboards/${board.ID}/shares?groups=Chemists&access=Edit`)).status, 200);
      const state = await control('GET', 'state');
      const saved = state.dashboards.find((d: { ID: string }) => d.ID === board.ID); // the demo data has dashboards of its own
      assert.deepEqual(saved.shares, [{ group: CHEMISTS, groupName: 'Chemists', access: 'Edit' }]);
      assert.deepEqual(saved.layout, { views: [] });
    });
  });

  describe('functions', () => {
    it('computes on the stored table: ColumnStats and Filter agree with the CSV', async () => {
      const csv = (await call('GET', '/public/v1/tables/Demo.demog')).text.trim().split('\n');
      const ageIndex = csv[0].split(',').indexOf('AGE');
      const ages = csv.slice(1).map((line) => Number(line.split(',')[ageIndex]));
      const stats = await json('POST', '/public/v1/Demo.ColumnStats/call', JSON.stringify({ column: 'Demo.demog/AGE' }));
      assert.deepEqual(stats.slice(0, 2), [Math.min(...ages), Math.max(...ages)]);
      assert.equal(stats[3], ages.length);
      const filtered: string = await json('POST', '/public/v1/Demo.Filter/call', JSON.stringify({ table: 'Demo.demog', column: 'AGE', min: 80 }));
      assert.equal(filtered.trim().split('\n').length - 1, ages.filter((a) => a >= 80).length);
      assert.equal((await call('POST', '/public/v1/Demo.Add/call', '{"a":1}')).status, 400);
      assert.equal((await call('POST', '/public/v1/Demo.Nope/call', '{}')).status, 404);
    });
  });

  describe('groups', () => {
    it('approving a request makes the requester a member and resolves the request', async () => {
      const members = async () => (await json('GET', `/public/v1/groups/${CHEMISTS}/members`)).map((g: { name: string }) => g.name);
      assert.ok(!(await members()).includes('bob'));
      const res = await call('POST', `/public/v1/groups/requests/${BOB_TO_CHEMISTS}/approve`);
      assert.equal(res.status, 200);
      assert.equal(res.bytes.length, 0);
      assert.ok((await members()).includes('bob'));
      const request = (await json('GET', `/public/v1/groups/${CHEMISTS}/requests`)).find((r: { id: string }) => r.id === BOB_TO_CHEMISTS);
      assert.equal(request.approved, true);
      assert.ok(request.resolutionDate);
      assert.equal((await call('POST', `/public/v1/groups/requests/${BOB_TO_CHEMISTS}/deny`)).status, 400);
    });
  });
});

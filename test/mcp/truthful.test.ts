// What an MCP client is told is what happens: the advertised schema enforced (unknown keys and wrong
// types refused with the key named, nothing sent), a connector file read a page at a time within one
// cap, a CSV summarised, and an answer from a cache marked as one with its age.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { useEmulator } from '../api/harness';
import { ensureBundle, type Session, startServer } from './session';

describe('MCP server: schemas enforced, paged reads, cached answers marked', function () {
  this.timeout(30_000);
  const h = useEmulator();
  let dir = '';
  let session: Session | undefined;

  before(function () {
    this.timeout(120_000);
    ensureBundle();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-mcp-truth-'));
    fs.writeFileSync(path.join(dir, 'planets.csv'), 'planet,moons\nEarth,1\n');
  });

  afterEach(async () => {
    const s = session;
    session = undefined;
    await s?.close();
  });

  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const start = async () => {
    session = await startServer({ DATAGROK_SERVER_URL: h.emulator.baseUrl, DATAGROK_API_KEY: h.emulator.key, DATAGROK_WORKSPACE_FOLDERS: JSON.stringify([dir]) }, dir);
    return session;
  };

  it('refuses unknown keys, wrong types and missing required inputs with the key named, and sends nothing', async () => {
    const s = await start();
    await h.control('DELETE', 'requests');
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['datagrok_pushTable', { file: 'planets.csv', tableName: 'x' }, /Unknown input "tableName" for datagrok_pushTable: it takes "file", "name"/],
      ['datagrok_pushTable', { name: 'planets' }, /"file" is required for datagrok_pushTable/],
      ['datagrok_pushTable', { file: 42 }, /"file" must be a string, not the number 42/],
      ['datagrok_findFunctions', { limit: '5' }, /"limit" must be a whole number, not a string/],
      ['datagrok_resolveRequest', { request: 'x', approve: 'yes' }, /"approve" must be a boolean, not a string/],
      ['datagrok_shareDashboard', { dashboard: 'x', groups: ['a'], access: 'Owner' }, /"access" must be one of "View", "Edit"/],
      ['datagrok_listPendingRequests', { all: true }, /Unknown input "all" for datagrok_listPendingRequests: it takes no inputs/],
      ['datagrok_readFile', { connector: 'System:DemoFiles', path: 'readme.md', maxBytes: 10 }, /Unknown input "maxBytes"/],
    ];
    for (const [tool, args, message] of cases) {
      const answer = await s.call(tool, args);
      assert.equal(answer.isError, true, `${tool} ${JSON.stringify(args)}: ${answer.text}`);
      assert.match(answer.text, message);
    }
    assert.deepEqual(await h.requests(), []);
    assert.ok(!(await h.state()).tables.some((t) => t.name === 'planets'));
  });

  it('reads a connector file a page at a time (offset, length, nextOffset) within one cap; a CSV is summarised', async () => {
    const s = await start();
    const text = 'é'.repeat(10) + 'x'.repeat(70_000) + '\n"quotes" and \\ backslashes\n'.repeat(5_000);
    await h.control('DELETE', 'requests');
    assert.equal((await s.call('datagrok_writeFile', { connector: 'System:DemoFiles', path: 'agents/big.txt', content: text })).isError, false);
    const pages: string[] = [];
    let offset: number | undefined = 0;
    let calls = 0;
    while (offset !== undefined) {
      const answer = await s.call('datagrok_readFile', { connector: 'System:DemoFiles', path: 'agents/big.txt', offset, length: 65536 });
      assert.equal(answer.isError, false, answer.text);
      assert.ok(answer.text.length <= 100_000, `one answer: ${answer.text.length} characters`);
      const page = JSON.parse(answer.text);
      assert.equal(page.offset, offset);
      assert.ok(page.bytes <= 65536);
      pages.push(page.text);
      offset = page.nextOffset;
      calls++;
    }
    assert.equal(pages.join(''), text, 'the pages put together are the file, no character split');
    assert.ok(calls >= 4, `${calls} pages`);
    const first = JSON.parse((await s.call('datagrok_readFile', { connector: 'System:DemoFiles', path: 'agents/big.txt', length: 15 })).text);
    assert.equal(first.text, 'é'.repeat(7), '15 bytes end before a split é: 14 bytes');
    assert.equal(first.nextOffset, 14);
    const past = await s.call('datagrok_readFile', { connector: 'System:DemoFiles', path: 'readme.md', offset: 1_000_000 });
    assert.match(past.text, /"offset" 1000000 is past the end of System:DemoFiles\/readme\.md/);
    const csv = JSON.parse((await s.call('datagrok_readFile', { connector: 'System:DemoFiles', path: 'demog.csv', rows: 2 })).text);
    assert.equal(csv.rows, 5850);
    assert.equal(csv.firstRows.split('\n').length, 3);
    assert.match(csv.note, /pass offset or length to read the text/);
    const raw = JSON.parse((await s.call('datagrok_readFile', { connector: 'System:DemoFiles', path: 'demog.csv', length: 100 })).text);
    assert.equal(raw.bytes, 100);
    assert.equal(raw.nextOffset, 100);
  });

  it('an answer from a cache says so and how old it is, also when the server is gone', async () => {
    const s = await start();
    const fresh = JSON.parse((await s.call('datagrok_listGroups', {})).text);
    assert.equal(fresh.cached, undefined);
    const found = JSON.parse((await s.call('datagrok_findFunctions', { query: 'Demo' })).text);
    assert.equal(found.cached, undefined);
    await new Promise((r) => setTimeout(r, 1100));
    await h.fault({ count: 100, status: 503, text: 'gone' });
    const again = JSON.parse((await s.call('datagrok_listGroups', {})).text);
    assert.deepEqual(again.memberOf, fresh.memberOf);
    assert.ok(again.cached && again.cached.ageSeconds >= 1, JSON.stringify(again));
    assert.match(again.cached.note, /From a cache loaded \d+ s ago, not asked of the server now/);
    const foundAgain = JSON.parse((await s.call('datagrok_findFunctions', { query: 'Demo' })).text);
    assert.equal(foundAgain.total, found.total);
    assert.ok(foundAgain.cached && foundAgain.cached.ageSeconds >= 1, JSON.stringify(foundAgain.cached));
    const other = await s.call('datagrok_findFunctions', { query: 'Chem' });
    assert.equal(other.isError, true, 'what is not cached fails: the server is gone');
  });
});

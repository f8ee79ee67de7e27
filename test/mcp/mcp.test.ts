// The MCP server (dist/mcp.js, what the .vsix ships) as an MCP client in the editor runs it: a separate
// Node process spoken to over stdio with the official SDK's Client, against the emulator over real HTTP.
// Every message it sends (stdout) and everything it logs (stderr) is kept and checked for the key.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { IDS, useEmulator } from '../api/harness';

import { ensureBundle, type Session, startServer } from './session';

describe('MCP server (dist/mcp.js over stdio)', function () {
  this.timeout(30_000);
  const h = useEmulator();
  let dir = '';
  let session: Session | undefined;

  before(function () {
    this.timeout(120_000);
    ensureBundle();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-mcp-'));
    fs.writeFileSync(path.join(dir, 'planets.csv'), 'planet,moons,ring\nMercury,0,false\nEarth,1,false\nSaturn,146,true\n');
    fs.writeFileSync(path.join(dir, 'add.datagrok.json'), '{\n  // comments allowed\n  "$function": "Demo:Add",\n  "a": 2,\n  "b": 3,\n}\n');
    fs.writeFileSync(path.join(dir, 'count.datagrok.json'), '{ "$function": "Demo:RowCount", "table": { "$csv": "planets.csv", "name": "planets_count" } }');
  });

  afterEach(async () => {
    const s = session;
    session = undefined;
    if (!s) return;
    await s.close();
    const key = h.emulator.key;
    assert.ok(!s.stderr().includes(key), `stderr holds the key: ${s.stderr()}`);
    assert.ok(!s.sent.some((m) => m.includes(key)), 'a message to the client holds the key');
  });

  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const signedIn = async () => {
    session = await startServer(
      { DATAGROK_SERVER_URL: h.emulator.baseUrl, DATAGROK_API_KEY: h.emulator.key, DATAGROK_WORKSPACE_TRUSTED: '1', DATAGROK_WORKSPACE_FOLDERS: JSON.stringify([dir]) },
      dir,
    );
    return session;
  };

  it('lists every tool with true annotations: reads read-only, adding writes not destructive, repeatable writes idempotent', async () => {
    const s = await signedIn();
    const { tools } = await s.client.listTools();
    const names = tools.map((t) => t.name);
    assert.equal(names.length, 13);
    // [destructive, idempotent] of each write.
    const writes: Record<string, [boolean, boolean]> = {
      datagrok_runFunction: [true, false],
      datagrok_pushTable: [true, true],
      datagrok_writeFile: [true, true],
      datagrok_createDashboard: [false, false],
      datagrok_shareDashboard: [true, true],
      datagrok_resolveRequest: [true, false],
    };
    for (const tool of tools) {
      const write = writes[tool.name];
      assert.equal(tool.annotations?.readOnlyHint, !write, tool.name);
      assert.equal(tool.annotations?.destructiveHint, write ? write[0] : false, tool.name);
      assert.equal(tool.annotations?.idempotentHint, write ? write[1] : true, tool.name);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
      assert.ok((tool.description ?? '').length > 60, `${tool.name} describes itself`);
      assert.ok(!/asks the user first/.test(tool.description ?? ''), `${tool.name} promises a question nothing asks over MCP`);
      if (write) assert.match(tool.description ?? '', /through an MCP client, the client decides whether to ask/, tool.name);
    }
    assert.deepEqual(tools.find((t) => t.name === 'datagrok_pushTable')?.inputSchema.required, ['file']);
    assert.match(s.stderr(), /ready for 127\.0\.0\.1:\d+/);
  });

  it('finds, describes and runs functions (params, a parameter file, a $csv input pushed first)', async () => {
    const s = await signedIn();
    const found = JSON.parse((await s.call('datagrok_findFunctions', { query: 'package = "Demo"', limit: 3 })).text);
    assert.equal(found.shown, 3);
    assert.ok(found.total >= 5 && found.functions.every((f: { nqName: string }) => f.nqName.startsWith('Demo:')), JSON.stringify(found));
    const add = JSON.parse((await s.call('datagrok_describeFunction', { name: 'Demo:Add' })).text);
    assert.equal(add.signature, 'Demo:Add(a: double, b: double) → sum: double');
    assert.deepEqual(
      add.inputs.map((p: { name: string; required: boolean }) => [p.name, p.required]),
      [
        ['a', true],
        ['b', true],
      ],
    );
    assert.match(add.parameterFile, /"\$function": "Demo:Add"/);
    assert.deepEqual(JSON.parse((await s.call('datagrok_runFunction', { function: 'Demo:Add', params: { a: 40, b: 2 } })).text), { function: 'Demo:Add', result: 42 });
    assert.equal(JSON.parse((await s.call('datagrok_runFunction', { parameterFile: 'add.datagrok.json', params: { b: 10 } })).text).result, 12);
    const counted = JSON.parse((await s.call('datagrok_runFunction', { parameterFile: path.join(dir, 'count.datagrok.json') })).text);
    assert.equal(counted.result, 3);
    assert.equal(counted.pushedTables[0].table.endsWith('planets_count'), true, JSON.stringify(counted));
    assert.ok((await h.state()).tables.some((t) => t.name === 'planets_count'));
    const failed = await s.call('datagrok_runFunction', { function: 'Demo:Fail', params: { message: 'no luck' } });
    assert.equal(failed.isError, true);
    assert.match(failed.text, /no luck/);
  });

  it('pushes a CSV as a table and reads it back summarised; reads a dataframe output summarised', async () => {
    const s = await signedIn();
    const pushed = JSON.parse((await s.call('datagrok_pushTable', { file: 'planets.csv', name: 'planets_mcp' })).text);
    assert.equal(pushed.shape, '3 rows × 3 columns');
    const table = (await h.state()).tables.find((t) => t.ID === pushed.id);
    assert.ok(table && table.name === 'planets_mcp', JSON.stringify(pushed));
    const read = JSON.parse((await s.call('datagrok_openTable', { table: pushed.id, rows: 1 })).text);
    assert.equal(read.rows, 3);
    assert.deepEqual(read.columns, ['planet', 'moons', 'ring']);
    assert.equal(read.firstRows, 'planet,moons,ring\nMercury,0,false');
    const big = JSON.parse((await s.call('datagrok_openTable', { table: IDS.demogTable, rows: 2 })).text);
    assert.equal(big.rows, 5850);
    assert.equal(big.firstRows.split('\n').length, 3);
    const filtered = JSON.parse((await s.call('datagrok_runFunction', { function: 'Demo:Filter', params: { table: pushed.id, column: 'moons', min: 1 } })).text);
    assert.equal(filtered.result.dataframe.rows, 2);
    const missing = await s.call('datagrok_pushTable', { file: 'nope.csv' });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /"nope\.csv" cannot be read: no such file/);
  });

  it('lists, reads and writes connector files', async () => {
    const s = await signedIn();
    const shares = JSON.parse((await s.call('datagrok_listFiles', {})).text);
    assert.ok(
      shares.fileShares.some((c: { connector: string }) => c.connector === 'System:DemoFiles'),
      JSON.stringify(shares),
    );
    const root = JSON.parse((await s.call('datagrok_listFiles', { connector: 'System:DemoFiles' })).text);
    assert.ok(
      root.entries.some((e: { path: string; file: boolean }) => e.path === 'geo' && !e.file),
      JSON.stringify(root),
    );
    const readme = JSON.parse((await s.call('datagrok_readFile', { connector: 'System:DemoFiles', path: 'readme.md' })).text);
    assert.match(readme.text, /^# Demo files/);
    assert.equal(readme.nextOffset, undefined);
    assert.equal(readme.bytes, readme.size);
    const written = JSON.parse((await s.call('datagrok_writeFile', { connector: 'System:DemoFiles', path: 'agents/note.txt', content: 'written by an agent\n' })).text);
    assert.deepEqual(written, { written: 'System:DemoFiles/agents/note.txt', bytes: 20 });
    assert.ok((await h.state()).files.some((f) => f.path === 'agents/note.txt' && f.bytes === 20));
  });

  it('creates and shares a dashboard; lists groups and requests; approves one', async () => {
    const s = await signedIn();
    const made = JSON.parse((await s.call('datagrok_createDashboard', { name: 'Agents board', tables: [IDS.demogTable] })).text);
    assert.equal(made.name, 'Agents board');
    assert.deepEqual(JSON.parse((await s.call('datagrok_shareDashboard', { dashboard: made.id, groups: ['Chemists'], access: 'Edit' })).text), {
      shared: made.id,
      with: ['Chemists'],
      access: 'Edit',
    });
    const board = (await h.state()).dashboards.find((d) => d.ID === made.id);
    assert.deepEqual(
      board?.shares.map((x) => [x.groupName, x.access]),
      [['Chemists', 'Edit']],
    );
    const mine = JSON.parse((await s.call('datagrok_listGroups', {})).text);
    assert.ok(
      mine.memberOf.some((g: { name: string; admin: boolean }) => g.name === 'Chemists' && g.admin),
      JSON.stringify(mine),
    );
    const bio = JSON.parse((await s.call('datagrok_listGroups', { query: 'Bio' })).text);
    assert.ok(bio.groups.some((g: { name: string }) => g.name === 'Biologists'));
    const pending = JSON.parse((await s.call('datagrok_listPendingRequests')).text);
    const ids = pending.pending.map((r: { id: string }) => r.id);
    assert.ok(ids.includes(IDS.bobToChemists) && ids.includes(IDS.carolToChemists), JSON.stringify(pending));
    const approved = JSON.parse((await s.call('datagrok_resolveRequest', { request: IDS.bobToChemists, approve: true })).text);
    assert.equal(approved.approved, true);
    const requests = (await h.state()).requests;
    assert.equal(requests.find((r) => r.id === IDS.bobToChemists)?.approved, true);
    assert.equal(requests.find((r) => r.id === IDS.carolToChemists)?.approved, null);
  });

  it('bad input writes nothing and says which field is wrong', async () => {
    const s = await signedIn();
    const before = await h.state();
    const bad = await s.call('datagrok_writeFile', { connector: 'System:DemoFiles', path: 'x.txt' });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /"content" is required/);
    const share = await s.call('datagrok_shareDashboard', { dashboard: 'x', groups: ['a,b'] });
    assert.match(share.text, /no commas/);
    assert.deepEqual(await h.state(), before);
  });

  it('a wrong key gives a clean error, without the key', async () => {
    const wrong = 'wrong-key-mcp-0123456789';
    session = await startServer({ DATAGROK_SERVER_URL: h.emulator.baseUrl, DATAGROK_API_KEY: wrong }, dir);
    const answer = await session.call('datagrok_listGroups', { query: 'Chem' });
    assert.equal(answer.isError, true);
    assert.match(answer.text, /the API key was rejected \(401\)/);
    assert.ok(!answer.text.includes(wrong) && !session.stderr().includes(wrong) && !session.sent.some((m) => m.includes(wrong)));
  });

  it('signed out (no key), every call says to sign in and nothing is sent', async () => {
    session = await startServer({ DATAGROK_SERVER_URL: h.emulator.baseUrl }, dir);
    assert.equal((await session.client.listTools()).tools.length, 13);
    const answer = await session.call('datagrok_findFunctions', {});
    assert.equal(answer.isError, true);
    assert.match(answer.text, /Not signed in.*"Datagrok: Sign In"/);
    assert.deepEqual(await h.requests(), []);
  });

  it("refuses to act once the extension's connection changed (signed out or switched) until restarted", async () => {
    const stateFile = path.join(dir, 'mcp-connection.txt');
    const started = `${h.emulator.baseUrl}\nsigned in`;
    fs.writeFileSync(stateFile, started);
    session = await startServer(
      { DATAGROK_SERVER_URL: h.emulator.baseUrl, DATAGROK_API_KEY: h.emulator.key, DATAGROK_CONNECTION_FILE: stateFile, DATAGROK_CONNECTION_STATE: started },
      dir,
    );
    assert.equal((await session.call('datagrok_listGroups', { query: 'Chem' })).isError, false);
    fs.writeFileSync(stateFile, `${h.emulator.baseUrl}\nsigned out`);
    await h.control('DELETE', 'requests');
    const answer = await session.call('datagrok_listGroups', { query: 'Chem' });
    assert.equal(answer.isError, true);
    assert.match(answer.text, /connection in VS Code changed.*restart the Datagrok MCP server/);
    assert.deepEqual(await h.requests(), [], 'nothing was sent with the old key');
  });

  it('in an untrusted workspace it refuses to read local files', async () => {
    session = await startServer(
      { DATAGROK_SERVER_URL: h.emulator.baseUrl, DATAGROK_API_KEY: h.emulator.key, DATAGROK_WORKSPACE_TRUSTED: '0', DATAGROK_WORKSPACE_FOLDERS: JSON.stringify([dir]) },
      dir,
    );
    const answer = await session.call('datagrok_pushTable', { file: 'planets.csv' });
    assert.equal(answer.isError, true);
    assert.match(answer.text, /not trusted/);
    assert.ok(!(await h.state()).tables.some((t) => t.name === 'planets'));
  });
});

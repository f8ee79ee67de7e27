// The MCP server reads local files only inside the workspace folders it was given, and ends cleanly:
// dist/mcp.js as a separate process, driven through the SDK's stdio client (or plain stdio for the
// shutdowns), against the emulator, which shows that nothing was uploaded.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { useEmulator } from '../api/harness';
import { bundle, ensureBundle, type Session, startServer } from './session';

describe('MCP server: local files only inside the workspace, clean shutdown', function () {
  this.timeout(30_000);
  const h = useEmulator();
  let top = '';
  let workspace = '';
  let outside = '';
  let session: Session | undefined;

  before(function () {
    this.timeout(120_000);
    ensureBundle();
    top = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-mcp-confine-'));
    workspace = path.join(top, 'workspace');
    outside = path.join(top, 'outside');
    fs.mkdirSync(path.join(workspace, 'sub'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(workspace, 'planets.csv'), 'planet,moons\nEarth,1\n');
    fs.writeFileSync(path.join(outside, 'secret.csv'), 'key,value\nssh,PRIVATE\n');
    fs.writeFileSync(path.join(outside, 'run.datagrok.json'), '{ "$function": "Demo:Add", "a": 1, "b": 2 }');
    fs.symlinkSync(path.join(outside, 'secret.csv'), path.join(workspace, 'link.csv'));
    fs.symlinkSync(outside, path.join(workspace, 'sub', 'door'));
    // A parameter file inside whose $csv leads out.
    fs.writeFileSync(path.join(workspace, 'leak.datagrok.json'), JSON.stringify({ $function: 'Demo:RowCount', table: { $csv: '../outside/secret.csv' } }));
  });

  afterEach(async () => {
    const s = session;
    session = undefined;
    await s?.close();
  });

  after(() => {
    if (top) fs.rmSync(top, { recursive: true, force: true });
  });

  const start = (folders: string[] | undefined) =>
    startServer(
      {
        DATAGROK_SERVER_URL: h.emulator.baseUrl,
        DATAGROK_API_KEY: h.emulator.key,
        ...(folders ? { DATAGROK_WORKSPACE_FOLDERS: JSON.stringify(folders) } : {}),
      },
      workspace,
    );

  const escapes = (): [string, Record<string, unknown>][] => [
    ['datagrok_pushTable', { file: '../outside/secret.csv' }],
    ['datagrok_pushTable', { file: '../../../../../../../../etc/passwd' }],
    ['datagrok_pushTable', { file: '/etc/passwd' }],
    ['datagrok_pushTable', { file: path.join(outside, 'secret.csv') }],
    ['datagrok_pushTable', { file: 'link.csv' }],
    ['datagrok_pushTable', { file: 'sub/door/secret.csv' }],
    ['datagrok_runFunction', { function: 'Demo:RowCount', params: { table: { $csv: '/etc/passwd' } } }],
    ['datagrok_runFunction', { function: 'Demo:RowCount', params: { table: { $csv: '../outside/secret.csv' } } }],
    ['datagrok_runFunction', { function: 'Demo:RowCount', params: { table: { $csv: 'link.csv' } } }],
    ['datagrok_runFunction', { function: 'Demo:RowCount', params: { table: { $csv: 'sub/door/secret.csv' } } }],
    ['datagrok_runFunction', { parameterFile: path.join(outside, 'run.datagrok.json') }],
    ['datagrok_runFunction', { parameterFile: '../outside/run.datagrok.json' }],
    ['datagrok_runFunction', { parameterFile: 'sub/door/run.datagrok.json' }],
    ['datagrok_runFunction', { parameterFile: 'leak.datagrok.json' }],
  ];

  it('refuses traversal, absolute paths and symlinks out of the workspace for every tool that reads a local file; nothing is uploaded', async () => {
    session = await start([workspace]);
    await h.control('DELETE', 'requests');
    for (const [tool, args] of escapes()) {
      const answer = await session.call(tool, args);
      assert.equal(answer.isError, true, `${tool} ${JSON.stringify(args)} answered ${answer.text}`);
      assert.match(answer.text, /Refused to read ".*": it is outside the workspace/, `${tool} ${JSON.stringify(args)}`);
      assert.ok(answer.text.includes(workspace), `the message names the allowed folder: ${answer.text}`);
      assert.ok(!answer.text.includes('PRIVATE'), answer.text);
    }
    const sent = await h.requests();
    assert.deepEqual(sent, [], `the emulator saw: ${JSON.stringify(sent)}`);
    assert.ok(!(await h.state()).tables.some((t) => /secret|passwd|link|door/i.test(t.name)));
    // The same server still reads what is inside.
    const pushed = JSON.parse((await session.call('datagrok_pushTable', { file: path.join(workspace, 'planets.csv'), name: 'planets_inside' })).text);
    assert.equal(pushed.shape, '1 row × 2 columns');
  });

  it('started without a workspace folder, it reads no local file', async () => {
    session = await start(undefined);
    await h.control('DELETE', 'requests');
    for (const args of [{ file: 'planets.csv' }, { file: path.join(workspace, 'planets.csv') }]) {
      const answer = await session.call('datagrok_pushTable', args);
      assert.equal(answer.isError, true);
      assert.match(answer.text, /no workspace folder was given, so no local file can be read/);
    }
    assert.deepEqual(await h.requests(), []);
    assert.match(session.stderr(), /no local files \(no workspace folder given\)/);
  });

  for (const how of ['stdin close', 'SIGTERM', 'SIGINT'] as const) {
    it(`on ${how} it exits 0 with nothing on stderr but its start line`, async () => {
      const child = spawn(process.execPath, [bundle], {
        env: {
          PATH: process.env['PATH'] ?? '',
          DATAGROK_SERVER_URL: h.emulator.baseUrl,
          DATAGROK_API_KEY: h.emulator.key,
          DATAGROK_WORKSPACE_FOLDERS: JSON.stringify([workspace]),
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      let stdout = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      const started = new Promise<void>((resolve) => {
        child.stderr.on('data', (c: Buffer) => {
          stderr += c.toString();
          if (stderr.includes('\n')) resolve();
        });
      });
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
      // A whole session's start: initialize, then the tool list.
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
      );
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
      await started;
      while (!stdout.includes('"id":2')) await new Promise((r) => setTimeout(r, 20));
      if (how === 'stdin close') child.stdin.end();
      else child.kill(how);
      const { code, signal } = await exited;
      assert.deepEqual({ code, signal }, { code: 0, signal: null }, stderr);
      assert.equal(stderr, `Datagrok MCP server: ready for ${new URL(h.emulator.baseUrl).host}; local files from ${workspace}\n`);
    });
  }
});

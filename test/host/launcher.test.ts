// The launcher's own contract: exit 0 only when every test passed; non-zero on a failing test, a
// runner that cannot load, or a signal; every process it started stopped in every case.
// Each run starts a real code-server and Chromium (~10–15 s), so there are few of them.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { shortTempDir, startCodeServer } from './codeServer';
import { repoRoot, resultsDir } from './paths';
import { ensureHost } from './provision';

const launcher = path.join(repoRoot, 'out', 'test', 'host', 'run.js');
const fixtures = path.join(repoRoot, 'test', 'fixtures', 'host-suites');

interface LauncherRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  /** The code-server origin the launcher reported, to check it is gone afterwards. */
  serverOrigin?: string;
  stateDir?: string;
}

function runLauncher(args: string[], options: { killWhenServerIsUp?: NodeJS.Signals } = {}): Promise<LauncherRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [launcher, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (options.killWhenServerIsUp && /\[host\] code-server http/.test(output) && child.exitCode === null) {
        child.kill(options.killWhenServerIsUp);
        options.killWhenServerIsUp = undefined;
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const server = /\[host\] code-server (http:\/\/127\.0\.0\.1:\d+), state in (\S+)/.exec(output);
      resolve({ code, signal, output, serverOrigin: server?.[1], stateDir: server?.[2] });
    });
  });
}

async function assertStopped(run: LauncherRun): Promise<void> {
  assert.ok(run.serverOrigin, `the launcher reported no code-server:\n${run.output}`);
  await assert.rejects(fetch(`${run.serverOrigin}/healthz`, { signal: AbortSignal.timeout(2000) }), 'code-server still answers after the launcher exited');
  assert.equal(fs.existsSync(run.stateDir!), false, `the launcher left ${run.stateDir} behind`);
}

function fixtureArgs(name: string): string[] {
  return ['--spec-dir', path.join(fixtures, name), '--results', path.join(resultsDir, `launcher-fixture-${name}.json`), '--timeout', '120'];
}

describe('Integration launcher (real VS Code host)', function () {
  this.timeout(180_000);

  before(async function () {
    // A cold cache installs code-server (a few minutes, once); later runs find it in the cache.
    this.timeout(15 * 60_000);
    await ensureHost();
  });

  it('exits 0 when every test passed, and stops what it started', async () => {
    const run = await runLauncher(fixtureArgs('passing'));
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /^ok {3}fixture passes inside VS Code/m);
    assert.match(run.output, /^1 passed, 0 failed$/m);
    assert.match(run.output, /\[host\] VS Code \d+\.\d+\.\d+/);
    const results = JSON.parse(fs.readFileSync(path.join(resultsDir, 'launcher-fixture-passing.json'), 'utf8'));
    assert.equal(results.passed, 1);
    assert.equal(results.failed, 0);
    await assertStopped(run);
  });

  it('exits non-zero when a test fails', async () => {
    const run = await runLauncher(fixtureArgs('failing'));
    assert.notEqual(run.code, 0, run.output);
    assert.match(run.output, /^FAIL fixture fails on purpose$/m);
    assert.match(run.output, /^1 passed, 1 failed$/m);
    await assertStopped(run);
  });

  it('exits non-zero when the runner cannot load (syntax error)', async () => {
    const run = await runLauncher([...fixtureArgs('passing'), '--tests', path.join(fixtures, 'broken-runner', 'index.js')]);
    assert.notEqual(run.code, 0, run.output);
    assert.match(run.output, /the runner wrote no results/);
    await assertStopped(run);
  });

  it('starts code-server on a new port when its port was taken meanwhile (freePort race)', async () => {
    // A server that answers any request (so /healthz too) holds the port code-server is given.
    const blocker = net.createServer((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n'));
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as net.AddressInfo).port;
    const stateDir = shortTempDir('dgvt-port-');
    try {
      const server = await startCodeServer(await ensureHost(), { stateDir, port: taken, smokeTestDriver: true });
      try {
        assert.notEqual(server.port, taken);
        assert.equal(server.origin, `http://127.0.0.1:${server.port}`);
        const response = await fetch(`${server.origin}/healthz`, { signal: AbortSignal.timeout(5000) });
        assert.match(await response.text(), /"status"/, 'the new port is code-server\'s');
      } finally {
        await server.stop();
      }
      assert.match(fs.readFileSync(path.join(stateDir, 'code-server.log'), 'utf8'), /EADDRINUSE/);
    } finally {
      blocker.close();
      fs.rmSync(stateDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  });

  it('stops everything and exits non-zero on SIGTERM', async () => {
    const run = await runLauncher(fixtureArgs('passing'), { killWhenServerIsUp: 'SIGTERM' });
    assert.equal(run.code, 143, run.output);
    await assertStopped(run);
  });
});

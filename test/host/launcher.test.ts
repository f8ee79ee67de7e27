// The launcher's own contract: exit 0 only when every test passed; non-zero on a failing test, a
// runner that cannot load, its timeout (124), or a signal; every process it started stopped in every case.
// Each run starts a real code-server and Chromium (~10–15 s), so there are few of them.
import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { shortTempDir, startCodeServer } from './codeServer';
import { repoRoot, resultsDir } from './paths';
import { ensureHost } from './provision';

const launcher = path.join(repoRoot, 'out', 'test', 'host', 'run.js');
const fixtures = path.join(repoRoot, 'test', 'fixtures', 'host-suites');

/** A process seen below the launcher: pid plus start time (a reused pid is another process). */
interface Descendant {
  pid: number;
  startTime: string;
  comm: string;
  cmdline: string;
}

interface LauncherRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  /** The code-server origin the launcher reported, to check it is gone afterwards. */
  serverOrigin?: string;
  /** The emulator origin the launcher reported (`[host] emulator http://…/api`). */
  emulatorOrigin?: string;
  stateDir?: string;
  /** Every process seen below the launcher while it ran (code-server, extension host, emulator, Chromium). */
  descendants: Descendant[];
}

/** pid → [parent pid, start time, comm] from /proc/PID/stat (comm may hold spaces and parentheses). */
function processTable(): Map<number, { ppid: number; startTime: string; comm: string }> {
  const table = new Map<number, { ppid: number; startTime: string; comm: string }>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      // After "pid (comm) ": state, ppid, …; starttime is field 22 of the whole line (index 19 here).
      if (fields[0] === 'Z' || fields[0] === 'X') continue;
      table.set(Number(name), { ppid: Number(fields[1]), startTime: fields[19], comm: stat.slice(stat.indexOf('(') + 1, close) });
    } catch {
      // Gone while listing.
    }
  }
  return table;
}

function cmdlineOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim().slice(0, 200);
  } catch {
    return '';
  }
}

/** Adds every (live) descendant of `root` to `seen`. */
function collectDescendants(root: number, seen: Map<string, Descendant>): void {
  const table = processTable();
  const below = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, info] of table) {
      if (!below.has(pid) && below.has(info.ppid)) {
        below.add(pid);
        grew = true;
      }
    }
  }
  below.delete(root);
  for (const pid of below) {
    const info = table.get(pid)!;
    const key = `${pid}:${info.startTime}`;
    if (!seen.has(key)) seen.set(key, { pid, startTime: info.startTime, comm: info.comm, cmdline: cmdlineOf(pid) });
  }
}

/** The processes among `descendants` that are still alive (same pid, same start time, not a zombie). */
function stillAlive(descendants: Descendant[]): Descendant[] {
  const table = processTable();
  return descendants.filter((process) => table.get(process.pid)?.startTime === process.startTime);
}

/** Launchers still running (a mocha timeout cut a test short): stopped in afterEach. */
const active = new Set<{ child: ChildProcess; seen: Map<string, Descendant> }>();

function runLauncher(args: string[], options: { killWhenServerIsUp?: NodeJS.Signals } = {}): Promise<LauncherRun> {
  return new Promise((resolve, reject) => {
    // Its own process group, so that afterEach can stop it (and what it started) if a test times out.
    const child = spawn(process.execPath, [launcher, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const seen = new Map<string, Descendant>();
    const entry = { child, seen };
    active.add(entry);
    const poll = setInterval(() => child.pid !== undefined && collectDescendants(child.pid, seen), 250);
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
    child.once('error', (error) => {
      clearInterval(poll);
      active.delete(entry);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearInterval(poll);
      active.delete(entry);
      const server = /\[host\] code-server (http:\/\/127\.0\.0\.1:\d+), state in (\S+)/.exec(output);
      const emulator = /\[host\] emulator (https?:\/\/[^/\s]+)\/api/.exec(output);
      resolve({
        code,
        signal,
        output,
        serverOrigin: server?.[1],
        stateDir: server?.[2],
        emulatorOrigin: emulator?.[1],
        descendants: [...seen.values()],
      });
    });
  });
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Stops a launcher left running: SIGTERM to its group (it stops what it started), then SIGKILL to all of it. */
async function stopLauncher(entry: { child: ChildProcess; seen: Map<string, Descendant> }): Promise<void> {
  const { child, seen } = entry;
  if (child.pid === undefined) return;
  collectDescendants(child.pid, seen);
  if (child.exitCode === null && child.signalCode === null) {
    signalGroup(child.pid, 'SIGTERM');
    await Promise.race([new Promise((resolve) => child.once('exit', resolve)), new Promise((resolve) => setTimeout(resolve, 15_000))]);
  }
  signalGroup(child.pid, 'SIGKILL');
  // Its children run in process groups of their own: whatever survived the launcher is killed one by one.
  for (const process_ of stillAlive([...seen.values()])) signalGroup(process_.pid, 'SIGKILL');
  for (const process_ of stillAlive([...seen.values()])) {
    try {
      process.kill(process_.pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
  active.delete(entry);
}

// The test process going away (Ctrl+C of mocha) takes no launcher down with it: they are detached.
process.once('exit', () => {
  for (const { child } of active) if (child.pid !== undefined) signalGroup(child.pid, 'SIGTERM');
});

async function assertStopped(run: LauncherRun, options: { browserStarted?: boolean } = {}): Promise<void> {
  assert.ok(run.serverOrigin, `the launcher reported no code-server:\n${run.output}`);
  assert.ok(run.emulatorOrigin, `the launcher reported no emulator:\n${run.output}`);
  await assert.rejects(fetch(`${run.serverOrigin}/healthz`, { signal: AbortSignal.timeout(2000) }), 'code-server still answers after the launcher exited');
  await assert.rejects(fetch(`${run.emulatorOrigin}/`, { signal: AbortSignal.timeout(2000) }), 'the emulator still answers after the launcher exited');
  assert.equal(fs.existsSync(run.stateDir!), false, `the launcher left ${run.stateDir} behind`);
  const browsers = run.descendants.filter((process_) => /chrom/i.test(process_.comm) || /chrom/i.test(process_.cmdline.split(' ')[0] ?? ''));
  if (options.browserStarted) assert.ok(browsers.length > 0, `no Chromium was seen below the launcher:\n${run.output}`);
  // Processes killed a moment ago may take a little while to disappear from /proc.
  let left = stillAlive(run.descendants);
  for (let i = 0; i < 20 && left.length > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = stillAlive(left);
  }
  const listing = (list: Descendant[]) => list.map((process_) => `  ${process_.pid} ${process_.comm}: ${process_.cmdline}`).join('\n');
  assert.deepEqual(stillAlive(browsers), [], `Chromium of this run still running:\n${listing(stillAlive(browsers))}`);
  assert.deepEqual(left, [], `processes of this run still running:\n${listing(left)}`);
}

function fixtureArgs(name: string, timeoutSeconds = 120): string[] {
  return ['--spec-dir', path.join(fixtures, name), '--results', path.join(resultsDir, `launcher-fixture-${name}.json`), '--timeout', String(timeoutSeconds)];
}

describe('Integration launcher (real VS Code host)', function () {
  this.timeout(180_000);

  before(async function () {
    // A cold cache installs code-server (a few minutes, once); later runs find it in the cache.
    this.timeout(15 * 60_000);
    await ensureHost();
  });

  afterEach(async function () {
    // A test cut short by mocha's timeout leaves its launcher running: stop it and all it started.
    this.timeout(30_000);
    await Promise.all([...active].map((entry) => stopLauncher(entry)));
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
    assert.equal(results.complete, true);
    await assertStopped(run, { browserStarted: true });
  });

  it('exits non-zero when a test fails', async () => {
    const run = await runLauncher(fixtureArgs('failing'));
    assert.notEqual(run.code, 0, run.output);
    assert.match(run.output, /^FAIL fixture fails on purpose$/m);
    assert.match(run.output, /^1 passed, 1 failed$/m);
    await assertStopped(run, { browserStarted: true });
  });

  it('exits non-zero when the runner cannot load (syntax error)', async () => {
    const run = await runLauncher([...fixtureArgs('passing'), '--tests', path.join(fixtures, 'broken-runner', 'index.js')]);
    assert.notEqual(run.code, 0, run.output);
    assert.match(run.output, /the runner wrote no results/);
    await assertStopped(run, { browserStarted: true });
  });

  it('exits 124 on its timeout, keeping partial results, and stops everything', async () => {
    const resultsFile = path.join(resultsDir, 'launcher-fixture-hanging.json');
    const run = await runLauncher(fixtureArgs('hanging', 15));
    assert.equal(run.code, 124, run.output);
    assert.match(run.output, /\[host\] timed out after 15 s/);
    assert.match(run.output, /\[host\] FAILED \(exit 124\)/);
    // Under load the runner may not even have started within 15 s; once it has, the finished test is kept.
    if (/^ok {3}fixture passes before the hang/m.test(run.output)) {
      const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
      assert.equal(results.complete, false);
      assert.equal(results.passed, 1);
      assert.equal(results.failed, 0);
      assert.deepEqual(
        results.tests.map((test: { title: string; state: string }) => [test.title, test.state]),
        [['fixture passes before the hang', 'passed']],
      );
      assert.match(run.output, /the runner did not finish: 1 passed, 0 failed so far/);
    } else if (fs.existsSync(resultsFile)) {
      assert.equal(JSON.parse(fs.readFileSync(resultsFile, 'utf8')).complete, false);
    }
    await assertStopped(run, { browserStarted: true });
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
        assert.match(await response.text(), /"status"/, "the new port is code-server's");
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

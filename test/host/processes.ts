// Child processes the host launcher starts: each in its own process group, all stopped on exit,
// on Ctrl+C and on SIGTERM, so that no code-server, emulator or browser outlives a run.
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';

const children = new Set<ChildProcess>();
const cleanups: Array<() => Promise<void> | void> = [];
const afterStopCleanups: Array<() => Promise<void> | void> = [];
let stopping: Promise<void> | undefined;

/** Spawns a command as the leader of a new process group, tracked for {@link stopAll}. */
export function spawnGroup(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options, detached: true });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/**
 * Runs a callback (close a browser, end a log stream) when stopping, before the process groups are
 * stopped. Removing files the children write into belongs in {@link afterStop}.
 */
export function onStop(cleanup: () => Promise<void> | void): void {
  cleanups.push(cleanup);
}

/**
 * Runs a callback once every process group is stopped: code-server and its extension host write into
 * their user-data/ and tmp/ until then, so a temp folder removed earlier can fail (ENOTEMPTY) or be
 * recreated.
 */
export function afterStop(cleanup: () => Promise<void> | void): void {
  afterStopCleanups.push(cleanup);
}

/** Removes a temp folder once everything that may write into it is stopped. */
export function removeAfterStop(dir: string): void {
  afterStop(() => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Stops one child's process group: SIGTERM, then SIGKILL after a grace period. */
export async function stopGroup(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.pid === undefined) return;
  const exited = child.exitCode !== null || child.signalCode !== null;
  signalGroup(child, 'SIGTERM');
  if (!exited) {
    const gone = await Promise.race([
      new Promise<boolean>((resolve) => child.once('exit', () => resolve(true))),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), graceMs).unref()),
    ]);
    if (gone) {
      // The leader left; its descendants (extension host, file watcher) may linger a moment.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  signalGroup(child, 'SIGKILL');
  children.delete(child);
}

/** Whether {@link stopAll} has begun: exits seen after that are expected. */
export function isStopping(): boolean {
  return stopping !== undefined;
}

async function runCleanups(list: Array<() => Promise<void> | void>): Promise<void> {
  for (const cleanup of list.splice(0).reverse()) {
    try {
      await cleanup();
    } catch (error) {
      console.error(`cleanup failed: ${String(error)}`);
    }
  }
}

/**
 * Stops everything, in order: the {@link onStop} cleanups (newest first: close the browser, end log
 * streams), then every process group this process started, then the {@link afterStop} cleanups (remove
 * temp folders), when nothing is left to write into them.
 */
export function stopAll(): Promise<void> {
  stopping ??= (async () => {
    await runCleanups(cleanups);
    await Promise.all([...children].map((child) => stopGroup(child)));
    await runCleanups(afterStopCleanups);
  })();
  return stopping;
}

/** Stops everything on Ctrl+C / SIGTERM / SIGHUP and exits with the conventional code. */
export function stopAllOnSignals(): void {
  const codes: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
  for (const signal of Object.keys(codes) as NodeJS.Signals[]) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping everything that was started`);
      void stopAll().finally(() => process.exit(codes[signal]));
    });
  }
  // Last resort for a synchronous exit path: no awaiting possible, so kill the groups outright.
  process.once('exit', () => {
    for (const child of children) signalGroup(child, 'SIGKILL');
  });
}

/** A TCP port that is free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo;
      server.close(() => resolve(address.port));
    });
  });
}

/** Whether a given port can be bound on 127.0.0.1. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Resolves with the first stdout/stderr line matching `pattern`; rejects if the child exits or time runs out. */
export function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number, echo?: (line: string) => void): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let tail = '';
    const finish = (error: Error | undefined, match?: RegExpMatchArray) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(match!);
    };
    const timer = setTimeout(() => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${pattern}\n${tail}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-4000);
      for (const line of text.split(/\r?\n/)) {
        if (!line) continue;
        echo?.(line);
        const match = line.match(pattern);
        if (match) finish(undefined, match);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => finish(new Error(`exited (${signal ?? code}) before printing ${pattern}\n${tail}`)));
    child.once('error', (error) => finish(error));
  });
}

/** Polls a URL until it answers (any HTTP status); gives up early if `child` exits. */
export async function waitForHttp(url: string, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(`the server exited (${child.signalCode ?? child.exitCode}) before ${url} answered`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** A log file to send a child's output to, keeping the terminal for test results. */
export function logTo(child: ChildProcess, file: string): void {
  const out = fs.createWriteStream(file, { flags: 'a' });
  child.stdout?.pipe(out, { end: false });
  child.stderr?.pipe(out, { end: false });
}

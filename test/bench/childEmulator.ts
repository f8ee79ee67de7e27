// The emulator in a child process for benchmarks: the client's event loop and memory are its own.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createClient } from '../../src/api';
import type { DatagrokApi } from '../../src/api/datagrokApi';

export interface Server {
  baseUrl: string;
  stop(): Promise<void>;
}

export async function startChildEmulator(dataDir: string | undefined, key: string, extra: string[] = []): Promise<Server> {
  const cli = join(__dirname, '..', 'emulator', 'cli.js');
  const child: ChildProcess = spawn(process.execPath, [cli, '--port', '0', '--key', key, ...(dataDir ? ['--data', dataDir] : []), ...extra], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /Datagrok emulator: (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`emulator exited (${code}) before it started`)));
  });
  return {
    baseUrl,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Runs `bench` with a child emulator (started with `extra`) and a client on it; stops both afterwards. */
export async function withEmulatorClient(key: string, extra: string[], bench: (client: DatagrokApi, emulator: Server) => Promise<void>): Promise<void> {
  const emulator = await startChildEmulator(undefined, key, extra);
  const client = createClient({ baseUrl: emulator.baseUrl, apiKey: key });
  try {
    await bench(client, emulator);
  } finally {
    await client.close();
    await emulator.stop();
  }
}

/** Runs a bench's main; a failure is printed and exits 1. */
export function runBench(main: () => Promise<void>): void {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}

// The emulator in a child process for benchmarks: the client's event loop and memory are its own.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export interface Server {
  baseUrl: string;
  stop(): Promise<void>;
}

export async function startChildEmulator(dataDir: string | undefined, key: string, extra: string[] = []): Promise<Server> {
  const cli = join(__dirname, '..', 'emulator', 'cli.js');
  const child: ChildProcess = spawn(process.execPath, [cli, '--port', '0', '--key', key, ...(dataDir ? ['--data', dataDir] : []), ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
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

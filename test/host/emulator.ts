// Starts the Datagrok API emulator (test/emulator, demo data) as a child process in its own group.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnGroup, stopGroup, waitForLine } from './processes';
import { repoRoot } from './paths';

export interface RunningEmulator {
  /** http://127.0.0.1:P/api — what the extension calls its server URL. */
  baseUrl: string;
  /** http://127.0.0.1:P — for the /__emulator/* control routes. */
  origin: string;
  key: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export function randomKey(): string {
  return `test-${randomBytes(12).toString('hex')}`;
}

/** Runs `out/test/emulator/cli.js --port P --key K` and waits for its "Datagrok emulator: URL" line. */
export async function startEmulator(
  options: { port?: number; key?: string; logFile?: string /** Serve HTTPS with this certificate and key (PEM files). */; tls?: { cert: string; key: string } } = {},
): Promise<RunningEmulator> {
  // DATAGROK_TEST_EMULATOR_CLI: another emulator build with the same CLI contract.
  const cli = process.env['DATAGROK_TEST_EMULATOR_CLI'] || path.join(repoRoot, 'out', 'test', 'emulator', 'cli.js');
  if (!fs.existsSync(cli)) {
    throw new Error(`the emulator is not built: ${cli} is missing (run \`npm run compile\`; test/emulator must exist)`);
  }
  const key = options.key ?? randomKey();
  const tls = options.tls ? ['--tls-cert', options.tls.cert, '--tls-key', options.tls.key] : [];
  const child = spawnGroup(process.execPath, [cli, '--port', String(options.port ?? 0), '--key', key, ...tls], { cwd: repoRoot });
  const log = options.logFile ? fs.createWriteStream(options.logFile, { flags: 'a' }) : undefined;
  let match: RegExpMatchArray;
  try {
    match = await waitForLine(child, /Datagrok emulator:\s*(https?:\/\/\S+\/api)\b/, 30_000, (line) => log?.write(`${line}\n`));
  } catch (error) {
    await stopGroup(child);
    throw new Error(`the emulator did not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (log) {
    child.stdout?.on('data', (chunk) => log.write(chunk));
    child.stderr?.on('data', (chunk) => log.write(chunk));
  } else {
    // Keep draining its output so that a chatty emulator never blocks on a full pipe.
    child.stdout?.resume();
    child.stderr?.resume();
  }
  const baseUrl = match[1];
  return { baseUrl, origin: new URL(baseUrl).origin, key, process: child, stop: () => stopGroup(child) };
}

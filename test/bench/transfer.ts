// Transfer benchmark: uploads and downloads one large file through src/api and through curl, against
// the same emulator in the same run, and reports throughputs, client/curl ratios and the client's peak
// extra memory. Not a test: it prints figures.
//
//   npm run bench -- [--size 1G|256M|...] [--runs N] [--in-process] [--dir /dev/shm] [--no-proxy]
//
// Then the same through a real tinyproxy (test/bench/proxied.ts): src/api with http.proxy vs curl -x.
//
// By default the emulator runs as a child process, so the client's event loop and RSS are its own;
// --in-process shares one process (the memory figure then includes the emulator's buffers). --dir picks
// where the source file, the emulator's storage and the downloads live (e.g. a tmpfs, to take the disk
// out of the comparison).
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createClient } from '../../src/api';
import { startEmulator } from '../emulator/server';
import { type Server, startChildEmulator } from './childEmulator';
import { proxiedRun } from './proxied';

const MiB = 1024 * 1024;
const KEY = 'bench-key';
const CONNECTOR = 'demo:Home';

function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?$/i.exec(text.trim());
  if (!m) throw new Error(`--size: expected e.g. 1G, 256M or 1048576, got "${text}"`);
  const unit = { '': 1, k: 1024, m: MiB, g: 1024 * MiB, t: 1024 * 1024 * MiB }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
  return Math.round(Number(m[1]) * unit);
}


async function startInProcessEmulator(dataDir: string): Promise<Server> {
  const emulator = await startEmulator({ port: 0, key: KEY, dataDir });
  return { baseUrl: emulator.baseUrl, stop: () => emulator.close() };
}

/** Writes `size` bytes of incompressible data and returns its sha256. */
async function createSourceFile(file: string, size: number): Promise<string> {
  const block = randomBytes(4 * MiB);
  const hash = createHash('sha256');
  async function* blocks() {
    for (let left = size; left > 0; left -= block.length) {
      const chunk = left >= block.length ? block : block.subarray(0, left);
      hash.update(chunk);
      yield chunk;
    }
  }
  await pipeline(blocks, createWriteStream(file, { highWaterMark: 4 * MiB }));
  return hash.digest('hex');
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file, { highWaterMark: 4 * MiB }), hash);
  return hash.digest('hex');
}

function curl(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('curl', ['-sS', '-w', '%{http_code}', ...args], { maxBuffer: MiB }, (err, stdout, stderr) => {
      if (err) reject(new Error(`curl failed: ${stderr || err.message}`));
      else if (!stdout.trim().endsWith('200')) reject(new Error(`curl: HTTP ${stdout.trim()}`));
      else resolve(stdout);
    });
  });
}

/**
 * Samples this process's RSS while `run` runs; returns seconds, the peak RSS above the baseline and this
 * process's CPU seconds (user + system, all threads). CPU per GiB does not depend on other load on the
 * machine, so it compares client versions more reliably than throughput on a busy box.
 */
async function measure(run: () => Promise<unknown>): Promise<{ seconds: number; extraRss: number; cpu: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  peak = Math.max(peak, process.memoryUsage.rss());
  const cpu = process.cpuUsage(cpuBefore);
  return { seconds, extraRss: Math.max(0, peak - baseline), cpu: (cpu.user + cpu.system) / 1e6 };
}

function fmt(n: number, digits = 1): string {
  return n.toFixed(digits);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      size: { type: 'string', default: '1G' },
      runs: { type: 'string', default: '1' },
      'in-process': { type: 'boolean', default: false },
      dir: { type: 'string', default: tmpdir() },
      'no-proxy': { type: 'boolean', default: false },
    },
  });
  const size = parseSize(values.size ?? '1G');
  const runs = Math.max(1, Number(values.runs) || 1);
  const inProcess = values['in-process'] === true;
  const dir = await mkdtemp(join(values.dir ?? tmpdir(), 'datagrok-bench-'));
  let server: Server | undefined;
  const client = { current: undefined as ReturnType<typeof createClient> | undefined };
  try {
    const source = join(dir, 'source.bin');
    const dataDir = join(dir, 'emulator');
    await mkdir(dataDir);
    console.log(`Creating a ${fmt(size / MiB, 0)} MiB file...`);
    const sourceSha = await createSourceFile(source, size);
    server = inProcess ? await startInProcessEmulator(dataDir) : await startChildEmulator(dataDir, KEY);
    console.log(`Emulator ${inProcess ? 'in-process' : 'child process'}: ${server.baseUrl}; node ${process.version}; ${runs} run(s), best kept`);
    const api = createClient({ baseUrl: server.baseUrl, apiKey: KEY });
    client.current = api;
    const fileUrl = (name: string) => `${server?.baseUrl}/public/v1/files/demo.Home/bench/${name}`;
    const auth = `Authorization: Bearer ${KEY}`;

    // Warm-up: one small request so connection setup is not part of the first figure.
    await api.listGroups();

    const best = { clientUp: Infinity, curlUp: Infinity, clientDown: Infinity, curlDown: Infinity, memUp: 0, memDown: 0 };
    for (let run = 0; run < runs; run++) {
      const up = await measure(() => api.uploadFile(CONNECTOR, 'bench/client-upload.bin', { file: source }));
      best.clientUp = Math.min(best.clientUp, up.seconds);
      best.memUp = Math.max(best.memUp, up.extraRss);
      const curlUp = await measure(() => curl(['-T', source, '-X', 'POST', '-H', auth, fileUrl('curl-upload.bin'), '-o', '/dev/null']));
      best.curlUp = Math.min(best.curlUp, curlUp.seconds);

      const clientTarget = join(dir, 'client-download.bin');
      const down = await measure(() => api.downloadFile(CONNECTOR, 'bench/client-upload.bin', { file: clientTarget }));
      best.clientDown = Math.min(best.clientDown, down.seconds);
      best.memDown = Math.max(best.memDown, down.extraRss);
      const curlTarget = join(dir, 'curl-download.bin');
      const curlDown = await measure(() => curl(['-H', auth, '-o', curlTarget, fileUrl('client-upload.bin')]));
      best.curlDown = Math.min(best.curlDown, curlDown.seconds);

      // Per run too: the machine may be loaded by others, and a ratio within one run is the fairer figure.
      const mib = size / MiB;
      console.log(
        `run ${run + 1}: upload ${fmt(mib / up.seconds)} vs curl ${fmt(mib / curlUp.seconds)} MiB/s (${fmt(curlUp.seconds / up.seconds, 2)}), ` +
          `download ${fmt(mib / down.seconds)} vs curl ${fmt(mib / curlDown.seconds)} MiB/s (${fmt(curlDown.seconds / down.seconds, 2)}), ` +
          `extra RSS ${fmt(up.extraRss / MiB)} / ${fmt(down.extraRss / MiB)} MiB, client CPU ${fmt(up.cpu, 2)} / ${fmt(down.cpu, 2)} s`,
      );
      if (run === 0) {
        const [a, b] = await Promise.all([stat(clientTarget), stat(curlTarget)]);
        if (a.size !== size || b.size !== size) throw new Error(`size mismatch: client ${a.size}, curl ${b.size}, expected ${size}`);
        if ((await sha256File(clientTarget)) !== sourceSha) throw new Error('the client download differs from the source');
      }
      await rm(clientTarget, { force: true });
      await rm(curlTarget, { force: true });
    }

    const mibs = (seconds: number) => size / MiB / seconds;
    const rows: [string, number, number][] = [
      ['upload', mibs(best.clientUp), mibs(best.curlUp)],
      ['download', mibs(best.clientDown), mibs(best.curlDown)],
    ];
    console.log('');
    console.log('direction   client MiB/s   curl MiB/s   client/curl   target');
    for (const [name, c, u] of rows) {
      const ratio = c / u;
      console.log(
        `${name.padEnd(10)}  ${fmt(c).padStart(12)}   ${fmt(u).padStart(10)}   ${fmt(ratio, 2).padStart(11)}   ${ratio >= 0.9 ? 'ok (>= 0.9)' : 'BELOW 0.9'}`,
      );
    }
    const peak = Math.max(best.memUp, best.memDown) / MiB;
    console.log('');
    console.log(
      `client peak extra RSS: upload ${fmt(best.memUp / MiB)} MiB, download ${fmt(best.memDown / MiB)} MiB -> ${fmt(peak)} MiB ${peak <= 64 ? 'ok (<= 64 MiB)' : 'ABOVE 64 MiB'}${inProcess ? ' (includes the in-process emulator)' : ''}`,
    );
    console.log('Integrity: the client download matched the source (sha256).');
    if (!values['no-proxy']) {
      await proxiedRun({ baseUrl: server.baseUrl, key: KEY, connector: CONNECTOR, source, size, dir, runs, measure, curl, fmt });
    }
  } finally {
    await client.current?.close();
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exitCode = 1;
});

// Transfer benchmark: uploads and downloads one large file through src/api and through curl, against
// the same emulator in the same run, and reports throughputs, client/curl ratios and the client's peak
// extra memory. Not a test: it prints figures.
//
//   npm run bench -- [--size 1G|256M|...] [--runs N] [--in-process] [--dir /dev/shm] [--no-proxy] [--push-size 100M]
//
// Each run times client and curl back to back, taking turns at going first, each after writing dirty pages
// back (see settle in figures.ts) and deleting its own copy from the run before; the figure is the median
// of the per-run client/curl ratios (7 runs by default). Then a push of CSV text held in memory (an
// unsaved editor: pushText.ts) against curl uploading the same bytes.
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
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createClient } from '../../src/api';
import { startEmulator } from '../emulator/server';
import { type Server, startChildEmulator } from './childEmulator';
import { type Figure, printFigures, ratioFigure, settle } from './figures';
import { proxiedRun } from './proxied';
import { pushTextRun } from './pushText';

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
      runs: { type: 'string', default: '7' },
      'in-process': { type: 'boolean', default: false },
      dir: { type: 'string', default: tmpdir() },
      'no-proxy': { type: 'boolean', default: false },
      'push-size': { type: 'string', default: '100M' },
    },
  });
  const size = parseSize(values.size ?? '1G');
  const runs = Math.max(1, Number(values.runs) || 1);
  const pushSize = parseSize(values['push-size'] ?? '100M');
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
    console.log(`Emulator ${inProcess ? 'in-process' : 'child process'}: ${server.baseUrl}; node ${process.version}; ${runs} run(s), median client/curl ratio kept`);
    const api = createClient({ baseUrl: server.baseUrl, apiKey: KEY });
    client.current = api;
    const fileUrl = (name: string) => `${server?.baseUrl}/public/v1/files/demo.Home/bench/${name}`;
    const auth = `Authorization: Bearer ${KEY}`;

    // Warm-up: a small request and a small transfer each way, so connection setup and compiling the
    // transfer code (curl has nothing to compile) are not part of the first figure.
    await api.listGroups();
    const warm = join(dir, 'warm.bin');
    await writeFile(warm, randomBytes(4 * MiB));
    await api.uploadFile(CONNECTOR, 'bench/warm.bin', { file: warm });
    await api.downloadFile(CONNECTOR, 'bench/warm.bin', { file: warm });
    await rm(warm, { force: true });

    const mib = size / MiB;
    const up: number[] = [];
    const down: number[] = [];
    const mem = { up: 0, down: 0 };
    const cpu = { up: 0, down: 0 };
    const clientTarget = join(dir, 'client-download.bin');
    const curlTarget = join(dir, 'curl-download.bin');
    for (let run = 0; run < runs; run++) {
      // Client and curl take turns going first. Before each transfer, untimed: dirty pages are written
      // back (settle), then the transfer's own copy from the run before is deleted (the emulator's stored
      // file for an upload, the target file for a download), so each one writes into memory the kernel
      // has just freed, as the other did (in run 1 neither has any). This VM hands freed memory back to its host at once (free page
      // reporting), and a page the host must supply again costs several times a recycled one: curl
      // downloading 1 GiB four times keeping each file ran at 649, 621, 279, 210 MiB/s, deleting each
      // just before the next at 656, 583, 740. Without this, whoever found its memory recycled won.
      const clientFirst = run % 2 === 0;
      const pair = async (client: () => Promise<unknown>, reference: () => Promise<unknown>, before: { client: () => Promise<unknown>; reference: () => Promise<unknown> }) => {
        const timed = async (f: () => Promise<unknown>, free: () => Promise<unknown>) => {
          await settle();
          await free();
          return measure(f);
        };
        if (clientFirst) {
          const c = await timed(client, before.client);
          return { c, u: await timed(reference, before.reference) };
        }
        const u = await timed(reference, before.reference);
        return { c: await timed(client, before.client), u };
      };
      const upPair = await pair(
        () => api.uploadFile(CONNECTOR, 'bench/client-upload.bin', { file: source }),
        () => curl(['-T', source, '-X', 'POST', '-H', auth, fileUrl('curl-upload.bin'), '-o', '/dev/null']),
        { client: () => api.deleteFile(CONNECTOR, 'bench/client-upload.bin').catch(() => undefined), reference: () => api.deleteFile(CONNECTOR, 'bench/curl-upload.bin').catch(() => undefined) },
      );
      // Each download replaces its own copy from the run before, deleted just before it (run 1: none).
      const downPair = await pair(
        () => api.downloadFile(CONNECTOR, 'bench/client-upload.bin', { file: clientTarget }),
        () => curl(['-H', auth, '-o', curlTarget, fileUrl('client-upload.bin')]),
        { client: () => rm(clientTarget, { force: true }), reference: () => rm(curlTarget, { force: true }) },
      );
      up.push(upPair.u.seconds / upPair.c.seconds);
      down.push(downPair.u.seconds / downPair.c.seconds);
      mem.up = Math.max(mem.up, upPair.c.extraRss);
      mem.down = Math.max(mem.down, downPair.c.extraRss);
      cpu.up = Math.max(cpu.up, upPair.c.cpu);
      cpu.down = Math.max(cpu.down, downPair.c.cpu);
      // Per run too: the machine may be loaded by others, and a ratio within one run is the fairer figure.
      console.log(
        `run ${run + 1} (${clientFirst ? 'client' : 'curl'} first): upload ${fmt(mib / upPair.c.seconds)} vs curl ${fmt(mib / upPair.u.seconds)} MiB/s (${fmt(up[run], 2)}), ` +
          `download ${fmt(mib / downPair.c.seconds)} vs curl ${fmt(mib / downPair.u.seconds)} MiB/s (${fmt(down[run], 2)}), ` +
          `extra RSS ${fmt(upPair.c.extraRss / MiB)} / ${fmt(downPair.c.extraRss / MiB)} MiB, client CPU ${fmt(upPair.c.cpu, 2)} / ${fmt(downPair.c.cpu, 2)} s`,
      );
      if (run === 0) {
        for (const target of [clientTarget, curlTarget]) {
          const { size: got } = await stat(target);
          if (got !== size) throw new Error(`size mismatch: ${target} has ${got} bytes, expected ${size}`);
          if ((await sha256File(target)) !== sourceSha) throw new Error(`${target} differs from the source`);
        }
      }
    }

    const push = await pushTextRun({ baseUrl: server.baseUrl, key: KEY, api, size: pushSize, dir, runs, measure, curl, settle });
    const extra = (bytes: number) => `${fmt(bytes / MiB)} MiB`;
    const figures: Figure[] = [
      ratioFigure(`upload ${fmt(mib, 0)} MiB, client/curl`, up),
      ratioFigure(`download ${fmt(mib, 0)} MiB, client/curl`, down),
      { name: 'download, client extra RSS', value: extra(mem.down), target: '<= 64 MiB', ok: mem.down <= 64 * MiB, miss: 'ABOVE' },
      { name: 'upload, client extra RSS', value: extra(mem.up), target: '<= 64 MiB', ok: mem.up <= 64 * MiB, miss: 'ABOVE' },
      ratioFigure(`push of ${fmt(push.textMiB, 0)} MiB CSV text, client/curl`, push.ratios),
      {
        name: 'push of text, client extra RSS',
        value: `${extra(push.extraRss)} (the text: ${fmt(push.textMiB, 0)} MiB)`,
        target: '<= 64 MiB, no second copy',
        ok: push.extraRss <= 64 * MiB,
        miss: 'ABOVE',
      },
    ];
    printFigures(
      `Transfers (emulator ${inProcess ? 'in-process' : 'in a child process'}, ${os.cpus().length} cores; client CPU per run up to ${fmt(cpu.up, 2)} s up, ${fmt(cpu.down, 2)} s down)${inProcess ? '; memory includes the in-process emulator' : ''}:`,
      figures,
    );
    console.log('Integrity: the client download matched the source (sha256); the pushed table matched the text (sha256).');
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

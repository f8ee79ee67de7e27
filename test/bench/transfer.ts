// Transfer benchmark: uploads and downloads one large file through src/api and through curl, against
// the same emulator in the same run, over plain HTTP and over HTTPS (a second emulator serving TLS with a
// private authority made by openssl), and reports throughputs, client/curl ratios, CPU seconds beside
// wall clock, and the client's peak extra memory, each with its target. Not a test: it prints figures.
//
//   npm run bench -- [--size 1G|256M|...] [--runs N] [--in-process] [--dir /dev/shm] [--no-tls] [--no-proxy]
//                    [--no-answers] [--push-size 100M]
//
// Each run times client and curl back to back, taking turns at going first, each after writing dirty pages
// back (see settle in figures.ts) and deleting its own copy from the run before; the figure is the median
// of the per-run client/curl ratios (7 runs by default). Then a push of CSV text held in memory (an
// unsaved editor: pushText.ts) against curl uploading the same bytes, then the memory of answers larger
// than needed (answers.ts: a 500 with a 50 MB body, a JSON answer past the limit).
//
// Then the same through a real tinyproxy (test/bench/proxied.ts): src/api with http.proxy vs curl -x.
//
// By default the emulators run as child processes, so the client's event loop and RSS are its own;
// --in-process shares one process for plain HTTP (the memory figure then includes the emulator's
// buffers). --dir picks where the source file, the emulators' storage and the downloads live (e.g. a
// tmpfs, to take the disk out of the comparison).
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createClient, type DatagrokClient } from '../../src/api';
import { startEmulator } from '../emulator/server';
import { makeCertificates, type TestCertificates } from '../network/certs';
import { answerFigures } from './answers';
import { type Server, startChildEmulator } from './childEmulator';
import { type Figure, measure, median, printFigures, ratioFigure, settle } from './figures';
import { nodeFloorRuns, uploadedFileUrl } from './nodeFloor';
import { proxiedRun } from './proxied';
import { pushTextRun } from './pushText';
import { type TransferFigures, transferRuns } from './transferRuns';

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

function fmt(n: number, digits = 1): string {
  return n.toFixed(digits);
}

/** Warm-up: a small request and a small transfer each way, so connection setup and compiling the transfer code (curl has nothing to compile) are not part of the first figure. */
async function warmUp(api: DatagrokClient, dir: string): Promise<void> {
  await api.listGroups();
  const warm = join(dir, 'warm.bin');
  await writeFile(warm, randomBytes(4 * MiB));
  await api.uploadFile(CONNECTOR, 'bench/warm.bin', { file: warm });
  await api.downloadFile(CONNECTOR, 'bench/warm.bin', { file: warm });
  await rm(warm, { force: true });
}

/** The figures of one protocol: wall-clock ratios, the download's CPU against curl's, memory. */
function protocolFigures(label: string, mib: number, f: TransferFigures): Figure[] {
  const extra = (bytes: number) => `${fmt(bytes / MiB)} MiB`;
  const cpuText = (client: number[], curl: number[], ratios: number[]) =>
    ratios.some((r) => !Number.isFinite(r))
      ? `${fmt(median(client), 2)} s (curl's: n/a, /usr/bin/time missing)`
      : `${fmt(median(ratios), 2)}x (${fmt(median(client), 2)} s vs curl ${fmt(median(curl), 2)} s)`;
  const downCpu = median(f.downCpu);
  return [
    ratioFigure(`${label} upload ${fmt(mib, 0)} MiB, client/curl`, f.up),
    ratioFigure(`${label} download ${fmt(mib, 0)} MiB, client/curl`, f.down),
    {
      name: `${label} download CPU, client/curl`,
      value: cpuText(f.cpu.clientDown, f.cpu.curlDown, f.downCpu),
      target: "<= 1.3x curl's (median)",
      ok: !(downCpu > 1.3),
      miss: 'ABOVE',
    },
    { name: `${label} upload CPU, client/curl`, value: cpuText(f.cpu.clientUp, f.cpu.curlUp, f.upCpu), target: 'reported', ok: true },
    { name: `${label} download, client extra RSS`, value: extra(f.mem.down), target: '<= 64 MiB', ok: f.mem.down <= 64 * MiB, miss: 'ABOVE' },
    { name: `${label} upload, client extra RSS`, value: extra(f.mem.up), target: '<= 64 MiB', ok: f.mem.up <= 64 * MiB, miss: 'ABOVE' },
  ];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      size: { type: 'string', default: '1G' },
      runs: { type: 'string', default: '7' },
      'in-process': { type: 'boolean', default: false },
      dir: { type: 'string', default: tmpdir() },
      'no-tls': { type: 'boolean', default: false },
      'no-proxy': { type: 'boolean', default: false },
      'no-answers': { type: 'boolean', default: false },
      'push-size': { type: 'string', default: '100M' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log('node out/test/bench/transfer.js [--size 1G] [--runs 7] [--in-process] [--dir DIR] [--no-tls] [--no-proxy] [--no-answers] [--push-size 100M]');
    return;
  }
  const size = parseSize(values.size ?? '1G');
  const runs = Math.max(1, Number(values.runs) || 1);
  const pushSize = parseSize(values['push-size'] ?? '100M');
  const inProcess = values['in-process'] === true;
  const dir = await mkdtemp(join(values.dir ?? tmpdir(), 'datagrok-bench-'));
  const servers: Server[] = [];
  const clients: DatagrokClient[] = [];
  let certs: TestCertificates | undefined;
  try {
    const source = join(dir, 'source.bin');
    console.log(`Creating a ${fmt(size / MiB, 0)} MiB file...`);
    const sourceSha = await createSourceFile(source, size);
    const check = async (file: string) => {
      if ((await sha256File(file)) !== sourceSha) throw new Error(`${file} differs from the source`);
    };
    const emulatorDir = async (name: string) => {
      const d = join(dir, name);
      await mkdir(d);
      return d;
    };
    // First, while this process is fresh: memory taken later would be hidden by the heap the transfers grew.
    const answers = values['no-answers'] ? [] : await answerFigures(measure);
    const plainServer = inProcess ? await startInProcessEmulator(await emulatorDir('emulator')) : await startChildEmulator(await emulatorDir('emulator'), KEY);
    servers.push(plainServer);
    console.log(`Emulator ${inProcess ? 'in-process' : 'child process'}: ${plainServer.baseUrl}; node ${process.version}; ${runs} run(s), median client/curl ratio kept`);
    const api = createClient({ baseUrl: plainServer.baseUrl, apiKey: KEY });
    clients.push(api);
    await warmUp(api, dir);
    const mib = size / MiB;
    const common = { key: KEY, connector: CONNECTOR, source, size, dir, runs, measure, check };
    const plain = await transferRuns({ ...common, label: 'HTTP', api, baseUrl: plainServer.baseUrl, curlArgs: [] });
    const figures: Figure[] = protocolFigures('HTTP ', mib, plain);
    // The fastest download Node's HTTP client does here (synchronous writes, memory released), beside
    // curl: the ceiling of any client on it, which the client's asynchronous writes stay under.
    const ceiling = await nodeFloorRuns({
      baseUrl: plainServer.baseUrl,
      key: KEY,
      fileUrl: uploadedFileUrl(plainServer.baseUrl, CONNECTOR),
      curlArgs: [],
      dir,
      runs,
      measure,
      way: 'fastest',
    });
    figures.push({
      name: "HTTP  download, Node's fastest (http.get, writeSync) / curl",
      value: `${fmt(median(ceiling.speed), 2)} (${fmt(Math.min(...ceiling.speed), 2)}–${fmt(Math.max(...ceiling.speed), 2)} over ${runs} runs); the client ${fmt(median(plain.down) / median(ceiling.speed), 2)}x of it`,
      target: "reported (the ceiling on Node's HTTP client; the client writes off the event loop)",
      ok: true,
    });

    if (!values['no-tls']) {
      certs = makeCertificates();
      const tlsServer = await startChildEmulator(await emulatorDir('emulator-tls'), KEY, ['--tls-cert', certs.good.cert, '--tls-key', certs.good.key]);
      servers.push(tlsServer);
      const httpsUrl = tlsServer.baseUrl.replace(/^http:/, 'https:');
      console.log(`HTTPS emulator: ${httpsUrl} (a private authority, trusted through datagrok.tls.caCertificates and curl --cacert)`);
      const secure = createClient({ baseUrl: httpsUrl, apiKey: KEY, network: { caCertificates: [readFileSync(certs.caFile, 'utf8')] } });
      clients.push(secure);
      await warmUp(secure, dir);
      const https = await transferRuns({ ...common, label: 'HTTPS', api: secure, baseUrl: httpsUrl, curlArgs: ['--cacert', certs.caFile] });
      figures.push(...protocolFigures('HTTPS', mib, https));
      // Node's own https.get piped into a file, beside curl: what Node's HTTP client costs used plainly.
      const floor = await nodeFloorRuns({
        baseUrl: httpsUrl,
        key: KEY,
        fileUrl: uploadedFileUrl(httpsUrl, CONNECTOR),
        ca: readFileSync(certs.caFile, 'utf8'),
        curlArgs: ['--cacert', certs.caFile],
        dir,
        runs,
        measure,
      });
      const clientOverFloor = median(https.cpu.clientDown) / median(floor.node);
      figures.push({
        name: "HTTPS download CPU, Node's https.get piped to a file / curl",
        value: `${fmt(median(floor.ratios), 2)}x (${fmt(median(floor.node), 2)} s vs curl ${fmt(median(floor.curl), 2)} s); the client ${fmt(clientOverFloor, 2)}x of it`,
        target: "reported (Node's client used plainly; the client releases what it read)",
        ok: true,
      });
    }

    const push = await pushTextRun({ baseUrl: plainServer.baseUrl, key: KEY, api, size: pushSize, dir, runs, measure, curl, settle });
    figures.push(ratioFigure(`push of ${fmt(push.textMiB, 0)} MiB CSV text, client/curl`, push.ratios), {
      name: 'push of text, client extra RSS',
      value: `${fmt(push.extraRss / MiB)} MiB (the text: ${fmt(push.textMiB, 0)} MiB)`,
      target: '<= 64 MiB, no second copy',
      ok: push.extraRss <= 64 * MiB,
      miss: 'ABOVE',
    });
    figures.push(...answers);
    printFigures(
      `Transfers (emulators ${inProcess ? 'in-process' : 'in child processes'}, ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => fmt(l))
        .join(' ')}; CPU: the client's own, curl's by /usr/bin/time)${inProcess ? '; memory includes the in-process emulator' : ''}:`,
      figures,
    );
    console.log('Integrity: every client download matched the source (sha256); the pushed table matched the text (sha256).');
    if (!values['no-proxy']) {
      await proxiedRun({ baseUrl: plainServer.baseUrl, key: KEY, connector: CONNECTOR, source, size, dir, runs, measure, curl, fmt });
    }
  } finally {
    for (const c of clients) await c.close();
    for (const s of servers) await s.stop();
    certs?.remove();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exitCode = 1;
});

// Transfers through the real VS Code extension host: datagrok.files.download of a large file and
// datagrok.tables.open of a large table (too large for an editor: saved to the extension's storage), and the
// download again over HTTPS (a second emulator serving TLS with a private authority, trusted through
// datagrok.tls.caCertificates), each against curl fetching the same route into a file from inside the
// same host, in the same run
// (hostTransferRunner.ts). The emulator runs in a child process with its data on disk; code-server runs
// the production bundle. Prints the median client/curl ratio and the host's peak extra RSS per command,
// with the targets of issue #15 (>= 0.9x curl, <= 64 MiB), and checks both outputs byte for byte.
//
//   node out/test/bench/hostTransfer.js [--size 1G] [--runs 3] [--no-tls]
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createClient } from '../../src/api';
import { shortTempDir, startCodeServer } from '../host/codeServer';
import { freePort, onStop, removeAfterStop, stopAll, stopAllOnSignals } from '../host/processes';
import { ensureHost } from '../host/provision';
import { openBrowser } from '../host/workbench';
import { makeCertificates } from '../network/certs';
import { startChildEmulator } from './childEmulator';
import { type Figure, median, printFigures, ratioFigure } from './figures';
import { productionExtension, runInWindow } from './hostRun';
import type { HostTransfer, HostTransferRun } from './hostTransferRunner';

const MiB = 1024 * 1024;
const KEY = 'bench-key';
const CONNECTOR = 'demo:Home';
const FILE = 'bench/host.bin';
const TABLE = 'Bench:host';

function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)i?b?$/i.exec(text.trim());
  if (!m) throw new Error(`--size: expected e.g. 1G or 256M, got "${text}"`);
  return Math.round(Number(m[1]) * { '': 1, k: 1024, m: MiB, g: 1024 * MiB }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g']);
}

/** Writes `size` bytes made by `block(i)` (4 MiB each, the last one cut) and returns their sha256. */
function writeBlocks(file: string, size: number, block: (i: number) => Buffer): string {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'w');
  try {
    for (let at = 0, i = 0; at < size; i++) {
      const b = block(i).subarray(0, Math.min(4 * MiB, size - at));
      fs.writeSync(fd, b);
      hash.update(b);
      at += b.length;
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

function csvBlock(): Buffer {
  const rows = ['id,name,city,value\n'];
  let length = rows[0].length;
  for (let i = 0; length < 4 * MiB; i++) {
    const row = `${i},name ${i % 997},${i % 13 === 0 ? 'São Paulo' : 'Berlin'},${(i * 0.37).toFixed(2)}\n`;
    rows.push(row);
    length += Buffer.byteLength(row);
  }
  return Buffer.from(rows.join(''));
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

function figures(name: string, runs: HostTransferRun[]): Figure[] {
  const extra = Math.max(...runs.map((r) => r.extraRss)) / MiB;
  return [
    ratioFigure(
      `${name}, command/curl`,
      runs.map((r) => r.curl / r.command),
    ),
    { name: `${name}, extension host extra RSS`, value: `${extra.toFixed(1)} MiB`, target: '<= 64 MiB', ok: extra <= 64, miss: 'ABOVE' },
  ];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { size: { type: 'string', default: '1G' }, runs: { type: 'string', default: '3' }, 'no-tls': { type: 'boolean', default: false } } });
  const size = parseSize(values.size ?? '1G');
  const runs = Math.max(1, Number(values.runs) || 3);
  const host = await ensureHost();
  const stateDir = shortTempDir('dgxfer-');
  if (!process.env['DATAGROK_TEST_KEEP']) removeAfterStop(stateDir);
  const dataDir = path.join(stateDir, 'emulator-data');
  const work = path.join(stateDir, 'work');
  for (const dir of [dataDir, work]) fs.mkdirSync(dir, { recursive: true });

  console.log(`Creating a ${(size / MiB).toFixed(0)} MiB file and a ${(size / MiB).toFixed(0)} MiB CSV table...`);
  const random = randomBytes(4 * MiB);
  const source = path.join(stateDir, 'source.bin');
  const sourceSha = writeBlocks(source, size, () => random);
  const csv = csvBlock();
  const csvFile = path.join(stateDir, 'source.csv');
  // Every block after the first without the header line.
  const body = csv.subarray(csv.indexOf(10) + 1);
  const csvSha = writeBlocks(csvFile, size, (i) => (i === 0 ? csv : body));

  const emulator = await startChildEmulator(dataDir, KEY);
  onStop(() => emulator.stop());
  const client = createClient({ baseUrl: emulator.baseUrl, apiKey: KEY });
  await client.uploadFile(CONNECTOR, FILE, { file: source });
  await client.uploadTable(TABLE, { file: csvFile });
  await client.close();

  let secure: { url: string; caFile: string } | undefined;
  if (!values['no-tls']) {
    const certs = makeCertificates();
    onStop(async () => certs.remove());
    const secureData = path.join(stateDir, 'emulator-tls-data');
    fs.mkdirSync(secureData, { recursive: true });
    const tlsEmulator = await startChildEmulator(secureData, KEY, ['--tls-cert', certs.good.cert, '--tls-key', certs.good.key]);
    onStop(() => tlsEmulator.stop());
    const ca = fs.readFileSync(certs.caFile, 'utf8');
    const url = tlsEmulator.baseUrl.replace(/^http:/, 'https:');
    const tlsClient = createClient({ baseUrl: url, apiKey: KEY, network: { caCertificates: [ca] } });
    await tlsClient.uploadFile(CONNECTOR, FILE, { file: source });
    await tlsClient.close();
    secure = { url, caFile: certs.caFile };
  }

  const extension = path.join(stateDir, 'extension');
  productionExtension(extension);
  if (secure) {
    // A machine-scoped setting: in code-server's window it is read from the machine's settings, not the user's.
    const machine = path.join(stateDir, 'user-data', 'Machine');
    fs.mkdirSync(machine, { recursive: true });
    fs.writeFileSync(path.join(machine, 'settings.json'), JSON.stringify({ 'datagrok.tls.caCertificates': [secure.caFile] }));
  }
  const server = await startCodeServer(host, {
    stateDir,
    port: await freePort(),
    smokeTestDriver: true,
    settings: { 'chat.disableAIFeatures': true, 'datagrok.serverUrl': emulator.baseUrl },
    logFile: path.join(stateDir, 'code-server.log'),
  });
  const workbench = await openBrowser(host.chromium);
  const resultFile = path.join(stateDir, 'result.json');
  const load = os.loadavg()[0].toFixed(1);
  await runInWindow(server, workbench, {
    workspace: work,
    extension,
    runner: path.join(__dirname, 'hostTransferRunner.js'),
    environment: {
      DATAGROK_BENCH_RESULT: resultFile,
      DATAGROK_BENCH_URL: emulator.baseUrl,
      DATAGROK_BENCH_KEY: KEY,
      DATAGROK_BENCH_DIR: work,
      DATAGROK_BENCH_RUNS: String(runs),
      DATAGROK_BENCH_CONNECTOR: CONNECTOR,
      DATAGROK_BENCH_FILE: FILE,
      DATAGROK_BENCH_TABLE: TABLE,
      ...(secure ? { DATAGROK_BENCH_HTTPS_URL: secure.url, DATAGROK_BENCH_CA_FILE: secure.caFile } : {}),
    },
    consoleFile: path.join(stateDir, 'console.log'),
    timeoutMs: 60_000 + runs * 6 * Math.max(60_000, (size / MiB) * 200),
  });
  const result = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as HostTransfer;
  if (result.error) throw new Error(`in the extension host: ${result.error}`);
  const line = (what: string, r: HostTransferRun, i: number) =>
    `${what} run ${i + 1} (${i % 2 === 0 ? 'command' : 'curl'} first): ${(size / MiB / r.command).toFixed(1)} vs curl ${(size / MiB / r.curl).toFixed(1)} MiB/s (${(r.curl / r.command).toFixed(2)}), host extra RSS ${(r.extraRss / MiB).toFixed(1)} MiB`;
  for (const [i, r] of result.download.entries()) console.log(line('files.download', r, i));
  for (const [i, r] of result.table.entries()) console.log(line('tables.open', r, i));
  for (const [i, r] of result.secureDownload.entries()) console.log(line('files.download over HTTPS', r, i));
  const label = `${(size / MiB).toFixed(0)} MiB`;
  printFigures(`Through the extension host (VS Code ${host.vscodeVersion}, production bundle; ${os.cpus().length} cores, load average ${load} at the start; median of ${runs}):`, [
    ...figures(`datagrok.files.download ${label}`, result.download),
    ...figures(`datagrok.tables.open ${label}`, result.table),
    ...(secure ? figures(`datagrok.files.download ${label} over HTTPS`, result.secureDownload) : []),
  ]);
  const downloaded = result.downloadedFile ? await sha256Of(result.downloadedFile) : '';
  const table = result.tableFile ? await sha256Of(result.tableFile) : '';
  if (downloaded !== sourceSha) throw new Error(`the downloaded file differs from the source (sha256 ${downloaded} vs ${sourceSha})`);
  if (table !== csvSha) throw new Error(`the opened table differs from the CSV (sha256 ${table} vs ${csvSha})`);
  if (secure) {
    const overTls = result.secureDownloadedFile ? await sha256Of(result.secureDownloadedFile) : '';
    if (overTls !== sourceSha) throw new Error(`the file downloaded over HTTPS differs from the source (sha256 ${overTls} vs ${sourceSha})`);
  }
  console.log(
    `Integrity: the file and the table the commands saved matched their sources (sha256); median command time ${median(result.download.map((r) => r.command)).toFixed(2)} s / ${median(result.table.map((r) => r.command)).toFixed(2)} s.`,
  );
}

if (require.main === module) {
  stopAllOnSignals();
  let code = 0;
  main()
    .catch((error: unknown) => {
      console.error(`[bench] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      code = 1;
    })
    .finally(async () => {
      await stopAll();
      process.exit(code);
    });
}

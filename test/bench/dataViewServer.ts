// The data view's server-table figures for test/bench/dataView.ts: a table of `rows` rows (the bench's CSV)
// on an emulator serving HTTPS with a private authority (trusted through datagrok.tls.caCertificates, as
// users behind one do), opened with datagrok.tables.open in the real extension host (code-server, the
// production bundle) until its webview is sent the first rows, against curl fetching the same URL from
// inside the same host (dataViewServerRunner.ts). Prints the timeline and returns the figures.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createClient } from '../../src/api';
import { shortTempDir, startCodeServer } from '../host/codeServer';
import { freePort, onStop, removeAfterStop } from '../host/processes';
import { ensureHost } from '../host/provision';
import { openBrowser } from '../host/workbench';
import { makeCertificates } from '../network/certs';
import { startChildEmulator } from './childEmulator';
import { type Figure, median } from './figures';
import { productionExtension, runInWindow } from './hostRun';
import type { ServerTableResult } from './dataViewServerRunner';

const KEY = 'bench-key';
const TABLE = 'Bench:million';

const s = (seconds: number) => `${seconds.toFixed(2)} s`;
const range = (values: number[]) => (values.length > 1 ? ` (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})` : '');

/** Runs the server-table bench on `csv` (its rows counted by the caller); resolves with its figures. */
export async function serverTableFigures(csv: string, rows: number, runs: number): Promise<Figure[]> {
  const host = await ensureHost();
  const stateDir = shortTempDir('dgdvs-');
  if (!process.env['DATAGROK_TEST_KEEP']) removeAfterStop(stateDir);
  const work = path.join(stateDir, 'work');
  const data = path.join(stateDir, 'emulator-data');
  for (const dir of [work, data]) fs.mkdirSync(dir, { recursive: true });
  const certs = makeCertificates();
  onStop(async () => certs.remove());
  const emulator = await startChildEmulator(data, KEY, ['--tls-cert', certs.good.cert, '--tls-key', certs.good.key]);
  onStop(() => emulator.stop());
  const url = emulator.baseUrl.replace(/^http:/, 'https:');
  const client = createClient({ baseUrl: url, apiKey: KEY, network: { caCertificates: [fs.readFileSync(certs.caFile, 'utf8')] } });
  await client.uploadTable(TABLE, { file: csv });
  await client.close();

  const extension = path.join(stateDir, 'extension');
  productionExtension(extension);
  const machine = path.join(stateDir, 'user-data', 'Machine');
  fs.mkdirSync(machine, { recursive: true });
  fs.writeFileSync(path.join(machine, 'settings.json'), JSON.stringify({ 'datagrok.tls.caCertificates': [certs.caFile] }));
  const server = await startCodeServer(host, {
    stateDir,
    port: await freePort(),
    smokeTestDriver: true,
    settings: { 'chat.disableAIFeatures': true, 'datagrok.serverUrl': url },
    logFile: path.join(stateDir, 'code-server.log'),
  });
  const workbench = await openBrowser(host.chromium);
  const resultFile = path.join(stateDir, 'result.json');
  const load = os.loadavg()[0].toFixed(1);
  await runInWindow(server, workbench, {
    workspace: work,
    extension,
    runner: path.join(__dirname, 'dataViewServerRunner.js'),
    environment: {
      DATAGROK_BENCH_RESULT: resultFile,
      DATAGROK_BENCH_URL: url,
      DATAGROK_BENCH_KEY: KEY,
      DATAGROK_BENCH_TABLE: TABLE,
      DATAGROK_BENCH_ROWS: String(rows),
      DATAGROK_BENCH_RUNS: String(runs),
      DATAGROK_BENCH_DIR: work,
      DATAGROK_BENCH_CA_FILE: certs.caFile,
    },
    consoleFile: path.join(stateDir, 'console.log'),
    timeoutMs: 120_000 + runs * 240_000,
  });
  await workbench.browser.close().catch(() => undefined);
  const result = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as ServerTableResult;
  if (result.error) throw new Error(`in the extension host: ${result.error}`);
  for (const [i, r] of result.table.entries()) {
    console.log(
      `Server table run ${i + 1}: view open ${s(r.viewOpen)}, meta ${s(r.meta)}, first rows ${s(r.firstRows)}, download done ${s(r.downloaded)}; curl: first byte ${s(r.curlFirstByte)}, whole ${s(r.curlTotal)}`,
    );
  }
  const first = result.table.map((r) => r.firstRows);
  const afterFirstByte = result.table.map((r) => r.firstRows - r.curlFirstByte);
  const ratio = result.table.map((r) => r.firstRows / r.curlTotal);
  const local = result.local;
  const label = `server table, ${rows.toLocaleString('en-US')} rows over HTTPS (VS Code ${host.vscodeVersion}, load ${load})`;
  return [
    { name: `${label}: first rows`, value: `${s(median(first))}${range(first)}, download (curl) ${s(median(result.table.map((r) => r.curlTotal)))}`, target: 'reported', ok: true },
    {
      name: 'first rows after the first byte (curl)',
      value: `${s(median(afterFirstByte))}${range(afterFirstByte)}`,
      target: '<= 1 s',
      ok: median(afterFirstByte) <= 1,
      miss: 'ABOVE',
    },
    {
      name: 'first rows / whole download (curl)',
      value: `${median(ratio).toFixed(2)}${range(ratio)}`,
      target: '< 1 (rows before the download ends)',
      ok: median(ratio) < 1,
      miss: 'ABOVE',
    },
    { name: 'the same CSV from disk: first rows', value: `${s(median(local))}${range(local)}`, target: '<= 1 s', ok: median(local) <= 1, miss: 'ABOVE' },
  ];
}

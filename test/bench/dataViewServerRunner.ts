// The extension host's side of the data view's server-table bench (dataViewServer.ts): loaded as the test
// runner (extensionTestsPath), it signs in to the bench's HTTPS emulator and, run after run, times
// datagrok.tables.open of a large table until the view's webview is sent its first rows (the real webview
// asks for them), against curl fetching the same URL from this same host (its time to the first byte and
// to the last); and the same CSV opened from disk with datagrok.dataView.open. The timeline of each run
// (view open, meta, first rows, download done) goes to DATAGROK_BENCH_RESULT as JSON.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DatagrokExtensionApi } from '../../src/extension';

/** Seconds from the command's start. */
export interface ServerTableRun {
  viewOpen: number;
  meta: number;
  firstRows: number;
  /** The command settled (the download is whole). */
  downloaded: number;
  curlFirstByte: number;
  curlTotal: number;
}

export interface ServerTableResult {
  table: ServerTableRun[];
  /** Seconds to the first rows of the same CSV opened from disk. */
  local: number[];
  rows: number;
  error?: string;
}

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

function curl(args: string[]): Promise<{ firstByte: number; total: number }> {
  return new Promise((resolve, reject) =>
    execFile('curl', ['-sS', '-f', '-w', '%{time_starttransfer} %{time_total}', ...args], (error, stdout, stderr) => {
      if (error) return reject(new Error(`curl: ${stderr || error.message}`));
      const [firstByte, total] = stdout.trim().split(' ').map(Number);
      resolve({ firstByte, total });
    }),
  );
}

/** Seconds from `started` until `test` holds (polled every 5 ms), else rejects after `timeoutMs`. */
function when(started: number, test: () => boolean, what: string, timeoutMs = 300_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (test()) {
        clearInterval(timer);
        resolve((performance.now() - started) / 1000);
      } else if (performance.now() - started > timeoutMs) {
        clearInterval(timer);
        reject(new Error(`no ${what} within ${timeoutMs / 1000} s`));
      }
    }, 5);
  });
}

/** Opens `open()`'s view and times it: the view listed, its meta sent, its first rows sent (with the meta, or as the webview asked). */
async function timeView(api: DatagrokExtensionApi, match: (uri: string) => boolean, open: () => Thenable<unknown>) {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const started = performance.now();
  const view = () => api.dataViews.list().find((v) => match(v.uri));
  const done = Promise.resolve(open()).then(() => (performance.now() - started) / 1000);
  done.catch(() => undefined);
  const viewOpen = await when(started, () => view() !== undefined, 'data view');
  const meta = await when(started, () => view()?.sent.some((m) => m.type === 'meta') === true, 'meta message');
  const firstRows = await when(started, () => view()?.sent.some((m) => (m.type === 'rows' || m.type === 'meta') && m.rows?.length > 0) === true, 'rows sent to the webview');
  return { viewOpen, meta, firstRows, downloaded: await done };
}

export async function run(): Promise<void> {
  const resultFile = env('DATAGROK_BENCH_RESULT');
  const result: ServerTableResult = { table: [], local: [], rows: Number(env('DATAGROK_BENCH_ROWS')) };
  try {
    const url = env('DATAGROK_BENCH_URL');
    const key = env('DATAGROK_BENCH_KEY');
    const table = env('DATAGROK_BENCH_TABLE');
    const runs = Number(env('DATAGROK_BENCH_RUNS'));
    const dir = env('DATAGROK_BENCH_DIR');
    const api = (await vscode.extensions.getExtension<DatagrokExtensionApi>('datagrok-community.datagrok-vscode')?.activate()) as DatagrokExtensionApi;
    await vscode.commands.executeCommand('datagrok.signIn', { url, apiKey: key });
    const leaf = `/${table.split(/[:.]/).pop()}.csv`;
    const curlTable = path.join(dir, 'curl-table.csv');
    const curlArgs = [
      '--cacert',
      env('DATAGROK_BENCH_CA_FILE'),
      '-o',
      curlTable,
      '-H',
      `Authorization: Bearer ${key}`,
      `${url}/public/v1/tables/${encodeURIComponent(table.replace(':', '.'))}`,
    ];
    for (let i = 0; i < runs; i++) {
      const timeline = await timeView(
        api,
        (uri) => uri.endsWith(leaf),
        () => vscode.commands.executeCommand('datagrok.tables.open', { name: table }),
      );
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const c = await curl(curlArgs);
      result.table.push({ ...timeline, curlFirstByte: c.firstByte, curlTotal: c.total });
      console.log(`[bench] server table run ${i + 1}: ${JSON.stringify(result.table[i])}`);
    }
    // The same CSV from disk (curl's copy), for comparison.
    const local = path.join(dir, 'local-table.csv');
    fs.renameSync(curlTable, local);
    for (let i = 0; i < runs; i++) {
      const timeline = await timeView(
        api,
        (uri) => uri.endsWith('/local-table.csv'),
        () => vscode.commands.executeCommand('datagrok.dataView.open', { uri: local }),
      );
      result.local.push(timeline.firstRows);
      console.log(`[bench] local file run ${i + 1}: ${JSON.stringify(timeline)}`);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  } catch (error) {
    result.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  }
  fs.writeFileSync(resultFile, JSON.stringify(result));
}

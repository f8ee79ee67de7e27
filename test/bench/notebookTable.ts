// The notebook's big table output (issue 44, "Numbers"): a cell answering 1,000,000 rows, run as the kernel
// runs it (the answer's CSV streamed to the output's file as it arrives, then its shape, typed columns and
// first screen read from the file for the output item), then the table renderer's first request for rows from the middle answered by the data
// view's worker on that file. Timed from the server's answer (the call resolved) to the output item ready
// (the first rows in the renderer's hands) and to the first request answered; the process's extra memory
// (peak RSS over the RSS before the call; the emulator is another process). Targets ≤ 1 s, ≤ 100 MB.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DatagrokApi } from '../../src/api/datagrokApi';
import type { NotebookTableItem } from '../../src/platform/dataView/protocol';
import { DataSourceClient } from '../../src/platform/dataView/workerClient';
import { OutputFiles } from '../../src/platform/notebook/outputFiles';
import { runCell } from '../../src/platform/notebook/runCell';
import { NotebookVariables } from '../../src/platform/notebook/variables';
import { repoRoot } from '../host/paths';

const MiB = 1024 * 1024;

/** A cell of one table output, or (`count`) of two: the table and its row count, answered as an array. */
const cellOf = (rows: number, count: boolean) =>
  [
    '//output: dataframe big',
    ...(count ? ['//output: int n', `n = ${rows};`] : []),
    `big = "id,x,y,name,day\\n" + Array.from({ length: ${rows} }, (_, i) => i + "," + (i * 0.37).toFixed(2) + "," + ((i * 7919) % 100003) + ",name " + (i % 5000) + ",2024-0" + ((i % 9) + 1) + "-1" + (i % 10)).join("\\n");`,
  ].join('\n');

export interface BigOutputFigures {
  rows: number;
  bytes: number;
  itemBytes: number;
  toItemMs: number;
  toFirstRequestMs: number;
  extraMiB: number;
}

/** One run of a cell answering `rows` rows (and with `count`, a second output: an answer of several outputs), measured from the call's answer. */
export async function bigOutput(client: DatagrokApi, rows: number, count = false): Promise<BigOutputFigures> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-bench-outputs-'));
  const files = new OutputFiles(root);
  let answered = 0;
  const api: DatagrokApi = Object.create(client);
  // The answer is streamed to the output's file as it arrives: "answered" is when its last byte is written.
  api.callFunctionToFile = async (...args: Parameters<DatagrokApi['callFunctionToFile']>) => {
    const result = await client.callFunctionToFile(...args);
    answered = performance.now();
    return result;
  };
  (globalThis as { gc?: () => void }).gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  let worker: DataSourceClient | undefined;
  try {
    const ran = await runCell(
      { api, variables: new NotebookVariables(), signal: new AbortController().signal, tablePrefix: 'Bench_', leftBehind: () => undefined, outputFiles: files },
      { index: 0, language: 'javascript', text: cellOf(rows, count) },
    );
    const o = ran.outputs[0];
    if (count && ran.outputs[1]?.value !== rows) throw new Error(`the second output is ${JSON.stringify(ran.outputs[1])}`);
    if (!o?.id || !o.head || !o.file) throw new Error(`the cell made no table output: ${JSON.stringify(ran.outputs).slice(0, 200)}`);
    const item: NotebookTableItem = { id: o.id, name: o.name, rows: o.head.rows, columns: o.head.columns, first: o.head.first };
    const itemBytes = Buffer.byteLength(JSON.stringify(item));
    const toItemMs = performance.now() - answered;
    if (item.rows !== rows || item.first.length === 0) throw new Error(`the item has ${item.rows} rows, ${item.first.length} first rows`);
    // The renderer shows the item's rows and says it is on show: the worker opens the file; then rows from the middle.
    worker = new DataSourceClient(path.join(repoRoot, 'dist', 'dataViewWorker.js'));
    await worker.call('open', [o.file]);
    const middle = await worker.call('rows', [rows / 2, 200]);
    const toFirstRequestMs = performance.now() - answered;
    if (middle[0]?.[0] !== String(rows / 2)) throw new Error(`row ${rows / 2} read as ${JSON.stringify(middle[0])}`);
    peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
    return { rows, bytes: fs.statSync(o.file).size, itemBytes, toItemMs, toFirstRequestMs, extraMiB: (peak - rssBefore) / MiB };
  } finally {
    clearInterval(sampler);
    await worker?.dispose();
    files.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

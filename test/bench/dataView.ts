// Data view benchmark: a CSV of 10 million rows (about 1 GB) written to a temporary folder, then driven
// through the data view's source (src/platform/dataView/dataSource.ts) in this process, as the worker
// thread does in the extension: the first rows on screen, memory while scrolling anywhere (the file is
// never held in memory), the columns read into memory in the background and what they hold, and the
// time (wall clock and CPU seconds) of a sort, a histogram, a filter and a column summary of every row.
// Then a table of the server (1 million rows of the same CSV, over HTTPS from the emulator) opened in the
// real extension host until its first rows are on screen, against curl's download of the same URL
// (dataViewServer.ts). Not a test: it prints figures with their targets.
//
//   node --expose-gc out/test/bench/dataView.js [--rows 10000000] [--keep] [--csv FILE (a CSV written by an earlier --keep run: not written again)]
//     [--server-rows 1000000] [--server-runs 3] [--no-server] [--server-only]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { stopAll, stopAllOnSignals } from '../host/processes';
import { COLUMN_BUDGET } from '../../src/platform/dataView/columnStore';
import { CsvDataSource } from '../../src/platform/dataView/dataSource';
import { serverTableFigures } from './dataViewServer';
import { type Figure, printFigures } from './figures';

const CITIES = ['Berlin', 'Paris', 'Lagos', 'Lima', 'Osaka', 'Quito', 'Oslo', 'Perth', 'Cairo', 'Dhaka', 'Hanoi', 'Porto'];

/** Writes `rows` rows of 9 columns (ints, doubles, a date, a bool, text with quotes, commas and newlines now and then). */
export async function writeCsv(file: string, rows: number): Promise<number> {
  const out = fs.createWriteStream(file, { highWaterMark: 1 << 22 });
  const write = (text: string) => (out.write(text) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', () => resolve())));
  await write('id,name,city,age,weight,score,visited,member,note\n');
  let seed = 12345;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 4294967296;
  };
  // A block of distinct rows (all but the id), written again and again with new ids: writing 1 GB stays quick.
  const block: string[] = [];
  for (let i = 0; i < Math.min(rows, 100_000); i++) {
    const r = random();
    const score = r < 0.02 ? '' : (random() * 1000 - 500).toFixed(4);
    const note = i % 1000 === 7 ? '"said ""hi"",\nthen left"' : `note number ${i % 9973} for this row of the bench`;
    block.push(
      `,person_${Math.floor(random() * 50000)},${CITIES[i % CITIES.length]},${Math.floor(r * 90)},${(40 + random() * 80).toFixed(2)},${score},2024-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')},${r < 0.5},${note}\n`,
    );
  }
  const batch = 50_000;
  for (let first = 0; first < rows; first += batch) {
    let text = '';
    for (let id = first; id < Math.min(rows, first + batch); id++) text += id + block[id % block.length];
    await write(text);
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return fs.statSync(file).size;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

/** CPU seconds of this process (every thread) spent in `work`, beside its wall clock. */
const cpu: number[] = [];
async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const usage = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(usage);
  cpu.push((used.user + used.system) / 1e6);
  return [value, performance.now() - started];
}

/** Wall clock and the CPU seconds of the last timed work. */
function both(ms: number): string {
  return `${seconds(ms)} (CPU ${cpu[cpu.length - 1].toFixed(2)} s)`;
}

function memory(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
}

const OPTIONS = {
  rows: { type: 'string', default: '10000000' },
  keep: { type: 'boolean', default: false },
  csv: { type: 'string' },
  'server-rows': { type: 'string', default: '1000000' },
  'server-runs': { type: 'string', default: '3' },
  'no-server': { type: 'boolean', default: false },
  'server-only': { type: 'boolean', default: false },
} as const;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: OPTIONS });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'datagrok-dataview-bench-'));
  try {
    if (!values['server-only']) await local(values.rows, values.csv, dir);
    if (!values['no-server']) {
      const rows = Number(values['server-rows']);
      const csv = path.join(dir, 'server.csv');
      const bytes = await writeCsv(csv, rows);
      console.log(`\nWrote ${rows.toLocaleString('en-US')} rows, ${mb(bytes)} for the server table`);
      printFigures('Data view: a table of the server', await serverTableFigures(csv, rows, Math.max(1, Number(values['server-runs']) || 3)));
    }
  } finally {
    if (!values.keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The local figures: a CSV of `rowsText` rows read through the data source in this process. */
async function local(rowsText: string, csv: string | undefined, dir: string): Promise<void> {
  const rows = Number(rowsText);
  const file = csv ?? path.join(dir, 'big.csv');
  const [bytes, writeMs] = csv ? [fs.statSync(file).size, 0] : await timed(() => writeCsv(file, rows));
  console.log(`Wrote ${rows.toLocaleString('en-US')} rows, ${mb(bytes)} in ${seconds(writeMs)} (${file})`);
  const baseline = memory();
  let peak = 0;
  const sampleMemory = () => {
    peak = Math.max(peak, process.memoryUsage().rss - baseline);
  };
  const [first, firstMs] = await timed(async () => {
    const source = await CsvDataSource.open(file);
    await source.rows(0, 60);
    return source;
  });
  const source = first;
  const { rows: seenAtFirst } = source.rowCount();
  const [, indexMs] = await timed(() => source.indexed);
  const indexCpu = both(indexMs + firstMs);
  const [, storedMs] = await timed(() => source.stored);
  const storedCpu = both(storedMs + indexMs + firstMs);
  const columnsMemory = source.store.bytes;
  const afterStored = memory() - baseline;
  const count = source.rowCount();
  console.log(
    `Columns: ${source.columns.map((c, i) => `${c.name}:${c.type}${source.store.columns[i] ? '' : ' (not kept)'}`).join(', ')}; first screen after ${seenAtFirst.toLocaleString('en-US')} rows known; ${count.rows.toLocaleString('en-US')} rows (${count.exact ? 'exact' : 'at least'}), index ${mb(source.index.memory)}, columns ${mb(columnsMemory)}`,
  );
  // Scrolling anywhere: 300 screens of 60 rows at random places (memory over what the columns hold).
  const beforeScroll = memory();
  const [, scrollMs] = await timed(async () => {
    for (let i = 0; i < 300; i++) {
      await source.rows(Math.floor(Math.random() * (count.rows - 60)), 60);
      sampleMemory();
    }
  });
  const scrollPeak = Math.max(0, peak - (beforeScroll - baseline));
  const [, sortMs] = await timed(() => source.sort({ column: 5, descending: true }));
  const sortCpu = both(sortMs);
  const top = await source.rows(0, 1);
  const [chart, histogramMs] = await timed(() => source.distribution(5));
  const histogramCpu = both(histogramMs);
  const [, textSortMs] = await timed(() => source.sort({ column: 1 }));
  const textSortCpu = both(textSortMs);
  await source.sort(undefined);
  const [filtered, filterMs] = await timed(() =>
    source.filter([
      { column: 2, kind: 'values', values: ['Lima', 'Oslo'] },
      { column: 3, kind: 'range', min: 30, max: 60 },
    ]),
  );
  const filterCpu = both(filterMs);
  await source.filter([]);
  const [summary, summaryMs] = await timed(() => source.summary(4));
  const summaryCpu = both(summaryMs);
  const [textSummary, textSummaryMs] = await timed(() => source.summary(1));
  const textSummaryCpu = both(textSummaryMs);
  peak = Math.max(peak, memory() - baseline);
  console.log(
    `Sorted by score descending: top ${top[0]?.[5]}; histogram of score: ${(chart.y as number[]).reduce((a, b) => a + b, 0).toLocaleString('en-US')} values in ${chart.y.length} bins; filter kept ${filtered.rows.toLocaleString('en-US')}; weight: mean ${summary.mean?.toFixed(2)}, ${summary.distinct} distinct${summary.distinctApproximate ? ' (approx.)' : ''}; name: ${textSummary.distinct} distinct${textSummary.distinctApproximate ? ' (approx.)' : ''}`,
  );
  await source.close();
  const figures: Figure[] = [
    { name: 'first rows on screen', value: seconds(firstMs), target: '<= 1 s', ok: firstMs <= 1000, miss: 'ABOVE' },
    { name: 'row index (background)', value: indexCpu, target: 'none (the grid works meanwhile)', ok: true },
    { name: 'columns in memory (background)', value: storedCpu, target: 'none (the grid works meanwhile)', ok: true },
    { name: 'memory scrolling adds', value: `${mb(scrollPeak)} (300 screens, ${seconds(scrollMs)})`, target: '<= 100 MB', ok: scrollPeak <= 100 * 1024 * 1024, miss: 'ABOVE' },
    {
      name: 'memory of the columns',
      value: `${mb(columnsMemory)} (process peak ${mb(process.resourceUsage().maxRSS * 1024)} RSS; ${mb(afterStored)} over the baseline once read)`,
      target: `<= ${mb(COLUMN_BUDGET)} (the budget)`,
      ok: columnsMemory <= COLUMN_BUDGET,
      miss: 'ABOVE',
    },
    { name: 'sort (numbers)', value: sortCpu, target: '<= 10 s', ok: sortMs <= 10_000, miss: 'ABOVE' },
    { name: 'histogram (numbers, every row)', value: histogramCpu, target: '<= 10 s', ok: histogramMs <= 10_000, miss: 'ABOVE' },
    { name: 'sort and histogram', value: seconds(sortMs + histogramMs), target: '<= 10 s', ok: sortMs + histogramMs <= 10_000, miss: 'ABOVE' },
    { name: 'sort (text)', value: textSortCpu, target: '<= 10 s', ok: textSortMs <= 10_000, miss: 'ABOVE' },
    { name: 'filter (values and range)', value: filterCpu, target: '<= 10 s', ok: filterMs <= 10_000, miss: 'ABOVE' },
    { name: 'summary (numbers)', value: summaryCpu, target: '<= 10 s', ok: summaryMs <= 10_000, miss: 'ABOVE' },
    { name: 'summary (text)', value: textSummaryCpu, target: '<= 10 s', ok: textSummaryMs <= 10_000, miss: 'ABOVE' },
  ];
  printFigures(`Data view: ${rows.toLocaleString('en-US')} rows, ${mb(bytes)} CSV (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`, figures);
}

if (require.main === module) {
  stopAllOnSignals();
  main()
    .catch((error) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(async () => {
      await stopAll();
      process.exit();
    });
}

// A CSV file as a grid's data source, read in place: the header and the first rows at once, any other
// rows on demand through the row index (rowIndex.ts) while it is built in the background; sort, filter,
// column summaries and chart data by streaming the file once per request. What it keeps: the sparse
// index, a few parsed blocks of rows, and for a sort or filter the row order (4 bytes a row). Pure Node:
// no vscode (the extension runs it in a worker thread; tests and the bench call it directly).
import * as fs from 'node:fs';
import { papaparse } from '../lazyModules';
import { type ColumnType, inferType, isMissing, isNumeric, numberOf } from './columnTypes';
import { scanFields } from './fieldScanner';
import { orderByNumbers, orderByText } from './order';
import { readRange, RowIndex, STRIDE } from './rowIndex';
import { type ColumnSummary, histogram, SAMPLE_SIZE, SummaryBuilder } from './summaries';

export interface ColumnInfo {
  name: string;
  type: ColumnType;
}

export type Filter =
  | { column: number; kind: 'text'; text: string }
  | { column: number; kind: 'range'; min?: number; max?: number }
  | { column: number; kind: 'values'; values: string[] };

export interface SortSpec {
  column: number;
  descending?: boolean;
}

/** Fraction done (0..1) of a long request. */
export type OnProgress = (fraction: number) => void;

export interface RowCount {
  rows: number;
  /** False while the file is still being read: there are at least `rows`. */
  exact: boolean;
}

export interface ChartData {
  kind: 'histogram' | 'bar' | 'scatter';
  columns: string[];
  /** histogram: bin lower edges and counts; bar: values and counts; scatter: x and y. */
  x: number[] | string[];
  y: number[];
  /** Points or values drawn from a sample of this many rows (undefined when all rows were used). */
  sampledFrom?: number;
  /** Rows the chart describes. */
  total: number;
}

/** Rows in the sample that types are inferred from. */
export const TYPE_SAMPLE_ROWS = 1000;
/** A scan reads this many rows at a time (between reads the event loop runs). */
const SCAN_ROWS = STRIDE * 1024;
const CACHED_BLOCKS = 256;
export const SCATTER_POINTS = 20_000;

function parse(text: string): string[][] {
  return papaparse().parse<string[]>(text, { header: false, skipEmptyLines: false }).data;
}

export class CsvDataSource {
  columns: ColumnInfo[] = [];
  readonly index: RowIndex;
  /** The index build (resolves when the whole file is indexed). */
  readonly indexed: Promise<void>;
  private handle!: fs.promises.FileHandle;
  private blocks = new Map<number, string[][]>();
  private order: Uint32Array | undefined;
  private mask: Uint8Array | undefined;
  private view: Uint32Array | undefined;
  sortSpec: SortSpec | undefined;
  filters: Filter[] = [];
  private summaries = new Map<number, { summary: ColumnSummary; sample: number[]; sampled: boolean }>();

  private constructor(
    readonly path: string,
    readonly bytes: number,
    onIndexProgress?: (bytes: number) => void,
  ) {
    this.index = new RowIndex(path, bytes);
    this.indexed = this.index.build(onIndexProgress);
    this.indexed.catch(() => undefined);
  }

  /** Opens a CSV file: resolves with the columns and their types once the first rows are read; the rest is indexed in the background. */
  static async open(path: string, onIndexProgress?: (bytes: number) => void): Promise<CsvDataSource> {
    const { size } = await fs.promises.stat(path);
    const source = new CsvDataSource(path, size, onIndexProgress);
    source.handle = await fs.promises.open(path, 'r');
    await source.index.whenRows(TYPE_SAMPLE_ROWS);
    const header = parse((await readRange(source.handle, 0, source.index.headerEnd)).toString('utf8'))[0] ?? [];
    if (header[0]?.startsWith('\ufeff')) header[0] = header[0].slice(1);
    const sample = await source.rawRows(0, TYPE_SAMPLE_ROWS);
    source.columns = header.map((name, c) => ({ name, type: inferType(sample.map((row) => row[c])) }));
    return source;
  }

  rowCount(): RowCount {
    if (this.view) return { rows: this.view.length, exact: true };
    return { rows: this.index.rows, exact: this.index.done };
  }

  /** Rows [start, start + count) of the current view (sorted and filtered), each its fields. */
  async rows(start: number, count: number): Promise<string[][]> {
    if (!this.view) {
      await this.index.whenRows(start + count);
      return this.rawRows(start, Math.max(0, Math.min(count, this.index.rows - start)));
    }
    const ids = this.view.subarray(start, Math.min(this.view.length, start + count));
    const needed = [...new Set(Array.from(ids, (id) => Math.floor(id / STRIDE)))].sort((a, b) => a - b);
    const blocks = new Map<number, string[][]>();
    for (const k of needed) blocks.set(k, await this.block(k));
    return Array.from(ids, (id) => blocks.get(Math.floor(id / STRIDE))?.[id % STRIDE] ?? []);
  }

  /** Rows in file order. */
  private async rawRows(start: number, count: number): Promise<string[][]> {
    const out: string[][] = [];
    for (let k = Math.floor(start / STRIDE); out.length < count && k * STRIDE < this.index.rows; k++) {
      const block = await this.block(k);
      const from = k * STRIDE < start ? start - k * STRIDE : 0;
      out.push(...block.slice(from, from + count - out.length));
    }
    return out;
  }

  /** Rows [k * STRIDE, (k + 1) * STRIDE), parsed; complete blocks are kept (the last CACHED_BLOCKS used). */
  private async block(k: number): Promise<string[][]> {
    const hit = this.blocks.get(k);
    if (hit) {
      this.blocks.delete(k);
      this.blocks.set(k, hit);
      return hit;
    }
    const first = k * STRIDE;
    const { start, end } = this.index.span(first, STRIDE);
    const rows = parse((await readRange(this.handle, start, end)).toString('utf8')).slice(0, Math.min(STRIDE, this.index.rows - first));
    if (first + STRIDE <= this.index.rows) {
      this.blocks.set(k, rows);
      if (this.blocks.size > CACHED_BLOCKS) this.blocks.delete(this.blocks.keys().next().value as number);
    }
    return rows;
  }

  /** Streams every row once (after the index is complete), in file order: `visit(rowId, wantedIndex, value)` for each wanted column (ascending). */
  private async scan(wanted: readonly number[], visit: (id: number, w: number, value: string) => void, onProgress?: OnProgress, signal?: AbortSignal): Promise<void> {
    await this.index.whenDone();
    const total = this.index.rows;
    for (let first = 0; first < total; first += SCAN_ROWS) {
      signal?.throwIfAborted();
      const { start, end } = this.index.span(first, SCAN_ROWS);
      const buffer = await readRange(this.handle, start, end);
      scanFields(buffer, wanted, Math.min(SCAN_ROWS, total - first), (row, w, value) => visit(first + row, w, value));
      onProgress?.(Math.min(1, (first + SCAN_ROWS) / total));
    }
  }

  private column(c: number): ColumnInfo {
    const info = this.columns[c];
    if (!info) throw new Error(`No column ${c}: the table has ${this.columns.length} columns.`);
    return info;
  }

  /** Sorts the view by a column (missing values last), or back to file order with `undefined`. */
  async sort(spec: SortSpec | undefined, onProgress?: OnProgress, signal?: AbortSignal): Promise<RowCount> {
    if (!spec) {
      this.order = undefined;
    } else {
      const { type } = this.column(spec.column);
      await this.index.whenDone();
      const n = this.index.rows;
      if (isNumeric(type) || type === 'bool') {
        const keys = new Float64Array(n);
        await this.scan([spec.column], (id, _, value) => (keys[id] = numberOf(value, type)), onProgress, signal);
        this.order = orderByNumbers(keys, spec.descending);
      } else {
        const keys = new Array<string | undefined>(n);
        await this.scan([spec.column], (id, _, value) => (keys[id] = isMissing(value) ? undefined : value), onProgress, signal);
        this.order = orderByText(keys, spec.descending);
      }
    }
    this.sortSpec = spec;
    this.compose();
    return this.rowCount();
  }

  /** Keeps the rows every filter accepts (text: contains, case-insensitive; range: inclusive; values: one of). No filters: all rows. */
  async filter(filters: Filter[], onProgress?: OnProgress, signal?: AbortSignal): Promise<RowCount> {
    if (filters.length === 0) {
      this.mask = undefined;
    } else {
      const wanted = [...new Set(filters.map((f) => f.column))].sort((a, b) => a - b);
      const tests = wanted.map((column) =>
        filters
          .filter((f) => f.column === column)
          .map((f): ((value: string) => boolean) => {
            const { type } = this.column(f.column);
            if (f.kind === 'text') {
              const text = f.text.toLowerCase();
              return (value) => value.toLowerCase().includes(text);
            }
            if (f.kind === 'range') {
              const min = f.min ?? Number.NEGATIVE_INFINITY;
              const max = f.max ?? Number.POSITIVE_INFINITY;
              return (value) => {
                const v = numberOf(value, type);
                return v >= min && v <= max;
              };
            }
            const values = new Set(f.values);
            return (value) => values.has(value);
          }),
      );
      await this.index.whenDone();
      const mask = new Uint8Array(this.index.rows).fill(1);
      await this.scan(
        wanted,
        (id, w, value) => {
          if (mask[id] && !tests[w].every((t) => t(value))) mask[id] = 0;
        },
        onProgress,
        signal,
      );
      this.mask = mask;
    }
    this.filters = filters;
    this.compose();
    return this.rowCount();
  }

  private compose(): void {
    const { order, mask } = this;
    if (!mask) {
      this.view = order;
      return;
    }
    let kept = 0;
    for (const m of mask) kept += m;
    const view = new Uint32Array(kept);
    let j = 0;
    if (order) {
      for (const id of order) if (mask[id]) view[j++] = id;
    } else {
      for (let id = 0; id < mask.length; id++) if (mask[id]) view[j++] = id;
    }
    this.view = view;
  }

  /** A column's summary over all rows of the file (kept: asked again, it is not recomputed). */
  async summary(c: number, onProgress?: OnProgress, signal?: AbortSignal): Promise<ColumnSummary> {
    return (await this.summaryOf(c, onProgress, signal)).summary;
  }

  private async summaryOf(c: number, onProgress?: OnProgress, signal?: AbortSignal): Promise<{ summary: ColumnSummary; sample: number[]; sampled: boolean }> {
    const known = this.summaries.get(c);
    if (known) return known;
    const { name, type } = this.column(c);
    const builder = new SummaryBuilder(name, type);
    await this.scan([c], (_, __, value) => builder.add(value), onProgress, signal);
    const kept = { summary: builder.result(), sample: builder.sample, sampled: builder.sampled };
    this.summaries.set(c, kept);
    return kept;
  }

  /** A histogram of a numeric column, or a bar chart of a text column's most frequent values. */
  async distribution(c: number, onProgress?: OnProgress, signal?: AbortSignal): Promise<ChartData> {
    const { summary, sample, sampled } = await this.summaryOf(c, onProgress, signal);
    const total = summary.count + summary.missing;
    if (isNumeric(summary.type) && summary.min !== undefined) {
      const { edges, counts } = histogram(sample);
      return { kind: 'histogram', columns: [summary.column], x: edges, y: counts, total, ...(sampled ? { sampledFrom: SAMPLE_SIZE } : {}) };
    }
    return { kind: 'bar', columns: [summary.column], x: summary.top.map((t) => t.value), y: summary.top.map((t) => t.count), total };
  }

  /** Two numeric columns' values, row by row (a uniform sample of SCATTER_POINTS rows above that). */
  async scatter(cx: number, cy: number, onProgress?: OnProgress, signal?: AbortSignal): Promise<ChartData> {
    const tx = this.column(cx).type;
    const ty = this.column(cy).type;
    if (!isNumeric(tx) || !isNumeric(ty)) throw new Error(`A scatter plot needs two numeric columns: ${this.columns[cx].name} is ${tx}, ${this.columns[cy].name} is ${ty}.`);
    await this.index.whenDone();
    const total = this.index.rows;
    // Every step-th row: a uniform sample that needs no random numbers and keeps file order.
    const step = Math.max(1, Math.ceil(total / SCATTER_POINTS));
    const x: number[] = [];
    const y: number[] = [];
    const [first, second] = cx <= cy ? [cx, cy] : [cy, cx];
    let a = Number.NaN;
    await this.scan(
      cx === cy ? [cx] : [first, second],
      (id, w, value) => {
        if (id % step !== 0) return;
        if (cx === cy) {
          a = numberOf(value, tx);
          if (!Number.isNaN(a)) {
            x.push(a);
            y.push(a);
          }
          return;
        }
        const v = numberOf(value, w === 0 ? this.columns[first].type : this.columns[second].type);
        if (w === 0) {
          a = v;
          return;
        }
        if (!Number.isNaN(a) && !Number.isNaN(v)) {
          x.push(first === cx ? a : v);
          y.push(first === cx ? v : a);
        }
      },
      onProgress,
      signal,
    );
    return { kind: 'scatter', columns: [this.columns[cx].name, this.columns[cy].name], x, y, total, ...(step > 1 ? { sampledFrom: Math.ceil(total / step) } : {}) };
  }

  async close(): Promise<void> {
    await this.handle?.close();
  }
}

// A CSV file as a grid's data source, read in place: the header and the first rows at once, any other
// rows on demand through the row index (rowIndex.ts, rowReader.ts). While the index is built, each block
// of rows it finds is read once more into typed columns (columnStore.ts); sort, filter, column summaries
// and charts work on those columns (columnOps.ts, summaries.ts) and never read the file again. The view
// (sorted and filtered) is a list of row ids (4 bytes a row). Pure Node: no vscode (the extension runs it
// in a worker thread; tests and the bench call it directly).
import * as fs from 'node:fs';
import { applyFilter, scatterPoints, sortOrder } from './columnOps';
import { CHUNK_ROWS, ColumnStore, NumberColumn, type StoredColumn } from './columnStore';
import { inferType, isNumeric } from './columnTypes';
import { readRange, RowIndex } from './rowIndex';
import { RowReader } from './rowReader';
import { type ColumnSummary, histogram, type Rows, scopeOf, summarize } from './summaries';
import type { ChartData, ColumnInfo, Filter, OnProgress, RowCount, SortSpec } from './types';

export type { ChartData, ColumnInfo, Filter, OnProgress, RowCount, SortSpec } from './types';

/** The ids whose mask byte is set, in order. */
function keptIds(mask: Uint8Array): Uint32Array {
  let n = 0;
  for (const m of mask) n += m;
  const ids = new Uint32Array(n);
  let j = 0;
  for (let id = 0; id < mask.length; id++) if (mask[id]) ids[j++] = id;
  return ids;
}

/** Rows in the sample that types are inferred from. */
export const TYPE_SAMPLE_ROWS = 1000;
/** Rows of the sample sent with the columns: the grid's first screen needs no second request. */
export const FIRST_ROWS = 200;
export const SCATTER_POINTS = 20_000;
/** Rows read into the columns at a time: short enough that a request for rows waits little between steps. */
const FILL_ROWS = 8192;

export interface OpenOptions {
  /** Memory the columns may hold (bytes; COLUMN_BUDGET by default). */
  budget?: number;
  /** The file is still being written (a download in progress): it is read as it grows, until complete() or `completion` settles. */
  growing?: boolean;
  /** Resolves when a growing file is whole (with an error: it will not be). */
  completion?: Promise<Error | undefined>;
}

export class CsvDataSource {
  columns: ColumnInfo[] = [];
  /** The first rows (up to FIRST_ROWS), read with the types. */
  firstRows: string[][] = [];
  readonly index: RowIndex;
  /** The index build (resolves when the whole file is indexed). */
  readonly indexed: Promise<void>;
  /** The columns in memory (filled behind the index). */
  store!: ColumnStore;
  /** Resolves when every row is in the columns. */
  stored!: Promise<void>;
  private handle!: fs.promises.FileHandle;
  private reader!: RowReader;
  private storedListeners = new Set<() => void>();
  private closed = false;
  private order: Uint32Array | undefined;
  private mask: Uint8Array | undefined;
  private view: Uint32Array | undefined;
  /** The rows the filters keep, in file order (undefined: no filter). Summaries and charts describe these. */
  private kept: Uint32Array | undefined;
  sortSpec: SortSpec | undefined;
  filters: Filter[] = [];
  private summaries = new Map<number, ColumnSummary>();

  private constructor(
    readonly path: string,
    bytes: number,
    onIndexProgress: ((bytes: number) => void) | undefined,
    growing: boolean,
  ) {
    this.index = new RowIndex(path, bytes);
    if (growing) this.index.follow();
    this.indexed = this.index.build(onIndexProgress);
    this.indexed.catch(() => undefined);
  }

  /** Opens a CSV file: resolves with the columns and their types once the first rows are read; the rest is read in the background. */
  static async open(path: string, onIndexProgress?: (bytes: number) => void, options: OpenOptions = {}): Promise<CsvDataSource> {
    const { size } = await fs.promises.stat(path);
    const source = new CsvDataSource(path, size, onIndexProgress, options.growing === true);
    void options.completion?.then((error) => source.complete(error));
    source.handle = await fs.promises.open(path, 'r');
    source.reader = new RowReader(source.handle, source.index);
    await source.index.whenRows(TYPE_SAMPLE_ROWS);
    const header = await source.reader.header();
    const sample = await source.reader.rows(0, TYPE_SAMPLE_ROWS);
    source.columns = header.map((name, c) => ({ name, type: inferType(sample.map((row) => row[c])) }));
    source.firstRows = sample.slice(0, FIRST_ROWS);
    source.store = new ColumnStore(
      source.columns.map((c) => c.type),
      options.budget,
    );
    source.stored = source.fill(options.growing === true);
    source.stored.catch(() => undefined);
    return source;
  }

  /**
   * Reads each block of rows the index finds into the columns. Behind a download, only once it is whole:
   * reading them meanwhile took the CPU the download needed (on 2 cores, a 1,000,000-row table's download
   * took several times curl's time), and what needs the columns (sort, filter, summaries) waits for every row anyway.
   */
  private async fill(afterDownload: boolean): Promise<void> {
    if (afterDownload) await this.index.whenDone();
    for (;;) {
      const first = this.store.rows;
      await this.index.whenRows(first + FILL_ROWS);
      const count = Math.min(FILL_ROWS, this.index.rows - first);
      if (this.closed || count <= 0) return;
      const { start, end } = this.index.span(first, count);
      this.store.add(await readRange(this.handle, start, end), count);
      for (const listener of this.storedListeners) listener();
    }
  }

  /** Waits until every row is in the columns, telling how far the columns are. */
  private async whenStored(onProgress?: OnProgress, signal?: AbortSignal): Promise<void> {
    const report = () => {
      const total = this.index.done ? this.index.rows : Math.max(this.index.rows, Math.round((this.index.rows * this.index.size) / Math.max(1, this.index.knownEnd)));
      onProgress?.(total > 0 ? Math.min(1, this.store.rows / total) : 0);
    };
    this.storedListeners.add(report);
    const aborted = new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
    aborted.catch(() => undefined);
    try {
      signal?.throwIfAborted();
      await Promise.race([this.stored, aborted]);
    } finally {
      this.storedListeners.delete(report);
    }
  }

  /** A growing file is whole now (or, with `error`, will not be: reading it fails with that error). */
  complete(error?: Error): void {
    this.index.complete(error);
  }

  /** A growing file has more bytes (read them now rather than at the next look). */
  grew(): void {
    this.index.grew();
  }

  rowCount(): RowCount {
    if (this.view) return { rows: this.view.length, exact: true };
    return { rows: this.index.rows, exact: this.index.done };
  }

  /** Rows [start, start + count) of the current view (sorted and filtered), each its fields. */
  async rows(start: number, count: number): Promise<string[][]> {
    if (!this.view) return this.reader.rows(start, count);
    return this.reader.rowsById(this.view.subarray(start, Math.min(this.view.length, start + count)));
  }

  private column(c: number): ColumnInfo {
    const info = this.columns[c];
    if (!info) throw new Error(`No column ${c}: the table has ${this.columns.length} columns.`);
    return info;
  }

  /** A column's values, every row (waits for the file to be read); a column dropped over the memory budget is read again for this once. */
  private async values(c: number, onProgress?: OnProgress, signal?: AbortSignal): Promise<StoredColumn> {
    this.column(c);
    await this.whenStored(onProgress, signal);
    const kept = this.store.columns[c];
    if (kept) return kept;
    const one = new ColumnStore(this.store.types, Number.POSITIVE_INFINITY, c);
    const total = this.index.rows;
    for (let first = 0; first < total; first += CHUNK_ROWS) {
      signal?.throwIfAborted();
      const count = Math.min(CHUNK_ROWS, total - first);
      const { start, end } = this.index.span(first, count);
      one.add(await readRange(this.handle, start, end), count);
      onProgress?.((first + count) / total);
    }
    return one.columns[c] as StoredColumn;
  }

  /** Sorts the view by a column (missing values last), or back to file order with `undefined`. */
  async sort(spec: SortSpec | undefined, onProgress?: OnProgress, signal?: AbortSignal): Promise<RowCount> {
    this.order = spec ? sortOrder(await this.values(spec.column, onProgress, signal), this.index.rows, spec.descending) : undefined;
    this.sortSpec = spec;
    this.compose();
    return this.rowCount();
  }

  /** Keeps the rows every filter accepts (text: contains, case-insensitive; range: inclusive; values: one of). No filters: all rows. */
  async filter(filters: Filter[], onProgress?: OnProgress, signal?: AbortSignal): Promise<RowCount> {
    if (filters.length === 0) {
      this.mask = undefined;
    } else {
      for (const f of filters) this.column(f.column);
      await this.whenStored(onProgress, signal);
      const mask = new Uint8Array(this.index.rows).fill(1);
      for (const f of filters) applyFilter(mask, await this.values(f.column, undefined, signal), this.columns[f.column].type, f, mask.length);
      this.mask = mask;
    }
    this.filters = filters;
    this.compose();
    return this.rowCount();
  }

  private compose(): void {
    const { order, mask } = this;
    const changed = mask !== this.composedMask;
    this.composedMask = mask;
    if (changed) {
      this.summaries.clear();
      this.kept = mask ? keptIds(mask) : undefined;
    }
    if (!mask) this.view = order;
    else if (!order) this.view = this.kept;
    else {
      const view = new Uint32Array((this.kept as Uint32Array).length);
      let j = 0;
      for (const id of order) if (mask[id]) view[j++] = id;
      this.view = view;
    }
  }

  private composedMask: Uint8Array | undefined;

  /** The rows summaries and charts describe: every row, or the filters' rows. */
  private described(): Rows {
    return { rows: this.index.rows, ...(this.kept ? { kept: this.kept } : {}) };
  }

  /** A column's summary over the rows the filters keep (all rows without a filter); kept until the filters change. */
  async summary(c: number, onProgress?: OnProgress, signal?: AbortSignal): Promise<ColumnSummary> {
    return this.summaryOf(c, await this.values(c, onProgress, signal));
  }

  /** The summary of the rows described now (computed at once, so it and the rows it names agree). */
  private summaryOf(c: number, values: StoredColumn): ColumnSummary {
    const known = this.summaries.get(c);
    if (known) return known;
    const { name, type } = this.columns[c];
    const summary = summarize(name, type, values, this.described());
    this.summaries.set(c, summary);
    return summary;
  }

  /** A histogram of a numeric column (every value the filters keep), or a bar chart of a text column's most frequent values. */
  async distribution(c: number, onProgress?: OnProgress, signal?: AbortSignal): Promise<ChartData> {
    const values = await this.values(c, onProgress, signal);
    const summary = this.summaryOf(c, values);
    const { scope } = summary;
    const total = summary.count + summary.missing;
    if (values instanceof NumberColumn && isNumeric(summary.type) && summary.min !== undefined && summary.max !== undefined) {
      const { edges, counts } = histogram(values, this.described(), summary.min, summary.max);
      return { kind: 'histogram', columns: [summary.column], x: edges, y: counts, total, scope };
    }
    return { kind: 'bar', columns: [summary.column], x: summary.top.map((t) => t.value), y: summary.top.map((t) => t.count), total, scope };
  }

  /** Two numeric columns' values over the filters' rows, row by row (every n-th row above SCATTER_POINTS rows). */
  async scatter(cx: number, cy: number, onProgress?: OnProgress, signal?: AbortSignal): Promise<ChartData> {
    const tx = this.column(cx).type;
    const ty = this.column(cy).type;
    if (!isNumeric(tx) || !isNumeric(ty)) throw new Error(`A scatter plot needs two numeric columns: ${this.columns[cx].name} is ${tx}, ${this.columns[cy].name} is ${ty}.`);
    const x = await this.values(cx, onProgress, signal);
    const y = await this.values(cy, undefined, signal);
    const which = this.described();
    const scope = scopeOf(which);
    const points = scatterPoints(x as NumberColumn, y as NumberColumn, which.rows, SCATTER_POINTS, which.kept);
    return {
      kind: 'scatter',
      columns: [this.columns[cx].name, this.columns[cy].name],
      x: points.x,
      y: points.y,
      total: scope.rows,
      scope,
      ...(points.step > 1 ? { sampledFrom: Math.ceil(scope.rows / points.step) } : {}),
    };
  }

  /** Memory the index and the columns hold (bytes). */
  get memory(): number {
    return this.index.memory + this.store.bytes;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.handle?.close();
  }
}

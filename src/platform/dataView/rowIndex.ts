// Where each row of a CSV file starts, found once by streaming the file: the offset of every STRIDE-th
// data row (a sparse index, 1.25 MB for 10 million rows), so any row is one short read away and the file
// is never held in memory. Quote-aware: a newline inside a quoted field does not end a row (RFC 4180;
// `""` inside quotes toggles twice, so counting quotes is enough). Pure Node: no vscode.
import * as fs from 'node:fs';

/** Every STRIDE-th row's start is kept; reading row r reads from row floor(r / STRIDE) * STRIDE on. */
export const STRIDE = 64;
const CHUNK = 1 << 20;
const QUOTE = 0x22;
const NEWLINE = 0x0a;
/** How often a build at the end of a growing file looks again when nobody says it grew (a read of no bytes: cheap; the first rows wait for it). */
const GROWTH_POLL_MS = 40;

export class RowIndex {
  /** checkpoints[k]: byte offset where data row k * STRIDE starts (row 0 is the first after the header). */
  private checkpoints = new Float64Array(1024);
  private checkpointCount = 0;
  /** Data rows whose end is known. */
  rows = 0;
  /** Byte offset where the header ends (the first data row starts); -1 until found. */
  headerEnd = -1;
  /** The end of the last complete row seen (where row `rows` starts). */
  knownEnd = 0;
  done = false;
  error: Error | undefined;
  private waiters: { rows: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  private doneWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];

  /** The file's size (while it grows: what has been read so far, at least). */
  size: number;

  constructor(
    readonly path: string,
    bytes: number,
  ) {
    this.size = bytes;
  }

  /**
   * While true the file is still being written (a download in progress): reading on at its end waits for
   * more bytes instead of ending; complete() ends it. A last row without a newline counts only then.
   */
  private growing = false;
  private growth: (() => void) | undefined;

  /** The file is still being written: build() follows it until complete() (see `growing`). */
  follow(): void {
    this.growing = true;
  }

  /** The file is whole (or, with `error`, will not be: the index fails with it). */
  complete(error?: Error): void {
    this.growing = false;
    if (error) this.writeError = error;
    this.growth?.();
  }

  private writeError: Error | undefined;

  /** More bytes were written (wakes a build waiting at the end of a growing file at once). */
  grew(): void {
    this.growth?.();
  }

  /** Reads the file once; `onProgress` hears the bytes read so far. Resolves when the whole file is indexed. */
  async build(onProgress?: (bytes: number) => void, signal?: AbortSignal): Promise<void> {
    let inQuotes = false;
    let base = 0;
    let handle: fs.promises.FileHandle | undefined;
    try {
      handle = await fs.promises.open(this.path, 'r');
      const buffer = Buffer.allocUnsafe(CHUNK);
      for (;;) {
        signal?.throwIfAborted();
        const { bytesRead } = await handle.read(buffer, 0, CHUNK, base);
        if (bytesRead === 0) {
          if (this.writeError) throw this.writeError;
          if (!this.growing) break;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, GROWTH_POLL_MS);
            this.growth = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          this.growth = undefined;
          continue;
        }
        const chunk = buffer.subarray(0, bytesRead);
        const len = chunk.length;
        let i = 0;
        let quote = chunk.indexOf(QUOTE, 0);
        while (i < len) {
          if (quote !== -1 && quote < i) quote = chunk.indexOf(QUOTE, i);
          if (inQuotes) {
            if (quote === -1) break;
            inQuotes = false;
            i = quote + 1;
            continue;
          }
          const nl = chunk.indexOf(NEWLINE, i);
          if (quote !== -1 && (nl === -1 || quote < nl)) {
            inQuotes = true;
            i = quote + 1;
            continue;
          }
          if (nl === -1) break;
          this.rowEnds(base + nl + 1);
          i = nl + 1;
        }
        base += len;
        this.size = Math.max(this.size, base);
        onProgress?.(base);
        this.wake();
      }
      // A last row without a newline at the end of the file.
      if (base > this.knownEnd && this.headerEnd >= 0) this.rowEnds(base);
      else if (this.headerEnd < 0) this.headerEnd = base;
      this.done = true;
      this.wake();
    } catch (cause) {
      this.error = cause instanceof Error ? cause : new Error(String(cause));
      this.wake();
      throw this.error;
    } finally {
      await handle?.close();
    }
  }

  private rowEnds(next: number): void {
    if (this.headerEnd < 0) {
      this.headerEnd = next;
      this.knownEnd = next;
      this.checkpoint(next);
      return;
    }
    this.rows++;
    this.knownEnd = next;
    if (this.rows % STRIDE === 0) this.checkpoint(next);
  }

  private checkpoint(offset: number): void {
    if (this.checkpointCount === this.checkpoints.length) {
      const grown = new Float64Array(this.checkpoints.length * 2);
      grown.set(this.checkpoints);
      this.checkpoints = grown;
    }
    this.checkpoints[this.checkpointCount++] = offset;
  }

  private wake(): void {
    const failed = this.error;
    this.waiters = this.waiters.filter((w) => {
      if (failed) w.reject(failed);
      else if (this.rows >= w.rows || this.done) w.resolve();
      else return true;
      return false;
    });
    if (this.done || failed) {
      for (const w of this.doneWaiters) failed ? w.reject(failed) : w.resolve();
      this.doneWaiters = [];
    }
  }

  /** Resolves once `rows` rows are known (or the whole file is, when it has fewer). */
  whenRows(rows: number): Promise<void> {
    if (this.error) return Promise.reject(this.error);
    if (this.rows >= rows || this.done) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ rows, resolve, reject }));
  }

  whenDone(): Promise<void> {
    if (this.error) return Promise.reject(this.error);
    if (this.done) return Promise.resolve();
    return new Promise((resolve, reject) => this.doneWaiters.push({ resolve, reject }));
  }

  /** The byte range holding rows [first, first + count) (clipped to the known rows), starting at a checkpoint: the rows to skip first, and the offsets. */
  span(first: number, count: number): { skip: number; start: number; end: number } {
    const k = Math.floor(first / STRIDE);
    const start = this.checkpoints[Math.min(k, this.checkpointCount - 1)];
    const last = Math.min(first + count, this.rows);
    const kEnd = Math.ceil(last / STRIDE);
    const end = kEnd < this.checkpointCount ? this.checkpoints[kEnd] : this.knownEnd;
    return { skip: first - k * STRIDE, start, end };
  }

  /** Memory the index holds (bytes). */
  get memory(): number {
    return this.checkpoints.byteLength;
  }
}

/** Reads bytes [start, end) of an open file. */
export async function readRange(handle: fs.promises.FileHandle, start: number, end: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(Math.max(0, end - start));
  let read = 0;
  while (read < buffer.length) {
    const { bytesRead } = await handle.read(buffer, read, buffer.length - read, start + read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  return buffer.subarray(0, read);
}

// Stores a download in a file. Chunks from the response are kept as they are (no copy) in a short queue
// and go to the file in one positional writev per turn, one write in flight at a time: several concurrent
// writes to one file only contend for its lock in the kernel, and a copy into a staging buffer costs a
// memcpy per byte. The response is paused while the queue holds more than HIGH_WATER bytes (4 MiB), so
// memory stays bounded whatever the disk's speed. Plain fs callbacks: no promise or stream hop per write.
// A written chunk's memory is given back at once (release.ts).
import { close, open, writev } from 'node:fs';
import { release } from './release';

/** Given to a sink: resume a paused response, or fail it (the request is aborted with that error). */
export interface SinkControl {
  resume(): void;
  fail(error: Error): void;
}

/** Queued bytes above which the response is paused until the file caught up. */
const HIGH_WATER = 4 * 1024 * 1024;
/** A write starts once this much is queued (or at the end): fewer, larger writes, fewer thread-pool hops (unless eager). */
const BATCH = 1024 * 1024;
/** Chunks per writev (well below IOV_MAX, 1024 on Linux). */
const MAX_IOV = 256;

export class FileSink {
  private queue: Buffer[] = [];
  private queued = 0;
  private position = 0;
  private writing = false;
  private paused = false;
  private closing = false;
  private control: SinkControl | undefined;
  private failure: Error | undefined;
  private idle: (() => void) | undefined;
  private fd: number | undefined;

  private constructor(
    fd: number,
    private readonly batch: number,
  ) {
    this.fd = fd;
  }

  /**
   * Creates (or truncates) `path`, readable by this user only; rejects with the file-system error. With
   * `eager`, what arrived is written at once (a reader follows the file): batches form only while a write
   * is in flight.
   */
  static open(path: string, options: { eager?: boolean } = {}): Promise<FileSink> {
    const batch = options.eager ? 1 : BATCH;
    return new Promise((resolve, reject) => open(path, 'w', 0o600, (err, fd) => (err ? reject(err) : resolve(new FileSink(fd, batch)))));
  }

  /** How the sink resumes the response after a full queue and fails it after a write error. */
  attach(control: SinkControl): this {
    this.control = control;
    return this;
  }

  /**
   * Takes `chunk` until it is written (a response's chunks are buffers Node allocated for it and never
   * reuses, so holding one is safe); false asks to pause the response. The sink owns the chunk: once
   * written, a chunk that is a whole buffer of its own has its memory released and reads as empty.
   */
  write(chunk: Buffer): boolean {
    if (this.failure) return false;
    if (chunk.length === 0) return true;
    this.queue.push(chunk);
    this.queued += chunk.length;
    if (!this.writing && this.queued >= this.batch) this.flush();
    if (this.queued > HIGH_WATER) this.paused = true;
    return !this.paused;
  }

  /** Writes what is left and closes the file; rejects with the first write or close error. */
  async close(): Promise<void> {
    this.closing = true;
    if (!this.writing && this.queue.length > 0 && !this.failure) this.flush();
    await this.settled();
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) await new Promise<void>((resolve, reject) => close(fd, (err) => (err ? reject(err) : resolve())));
    if (this.failure) throw this.failure;
  }

  /** Waits for the write in flight and closes the file, ignoring errors (the caller removes the file). */
  async discard(): Promise<void> {
    this.failure ??= new Error('discarded');
    this.queue = [];
    await this.settled();
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) await new Promise<void>((resolve) => close(fd, () => resolve()));
  }

  private settled(): Promise<void> {
    return !this.writing && (this.queued === 0 || this.failure) ? Promise.resolve() : new Promise((resolve) => (this.idle = resolve));
  }

  private flush(): void {
    const fd = this.fd;
    if (fd === undefined || this.failure) {
      this.finished(this.failure ?? new Error('file closed'));
      return;
    }
    const batch = this.queue.length <= MAX_IOV ? this.queue : this.queue.slice(0, MAX_IOV);
    this.queue = this.queue.length <= MAX_IOV ? [] : this.queue.slice(MAX_IOV);
    let length = 0;
    for (const b of batch) length += b.length;
    this.writing = true;
    this.writeAll(fd, batch, length, this.position);
    this.position += length;
  }

  /** One writev of `batch` at `position`, continued after a short write; `chunks` are released once all is written. */
  private writeAll(fd: number, batch: Buffer[], length: number, position: number, chunks = batch): void {
    writev(fd, batch, position, (err, bytes) => {
      this.queued -= err ? 0 : bytes;
      if (err) this.finished(err);
      else if (bytes < length) this.writeAll(fd, skip(batch, bytes), length - bytes, position + bytes, chunks);
      else {
        for (const chunk of chunks) release(chunk);
        this.finished();
      }
    });
  }

  private finished(err?: Error): void {
    this.writing = false;
    if (err && !this.failure) {
      this.failure = err;
      this.queue = [];
      this.queued = 0;
      this.control?.fail(err);
    }
    if (this.queue.length > 0 && !this.failure && (this.closing || this.queued >= this.batch)) this.flush();
    if (!this.writing && this.idle) {
      const idle = this.idle;
      this.idle = undefined;
      idle();
    }
    // The file caught up: let the response continue (it refills the queue while this batch is written).
    if (this.paused && this.queued <= HIGH_WATER / 2 && !this.failure) {
      this.paused = false;
      this.control?.resume();
    }
  }
}

/** The buffers of `batch` after its first `bytes` bytes. */
function skip(batch: Buffer[], bytes: number): Buffer[] {
  let i = 0;
  while (bytes >= batch[i].length) bytes -= batch[i++].length;
  return [batch[i].subarray(bytes), ...batch.slice(i + 1)];
}

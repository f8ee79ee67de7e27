// Stores a download in a file through a small ring of reused 1 MiB buffers. Each incoming socket chunk
// is copied at once and dropped, so it dies young (a cheap scavenge frees it) instead of waiting in a
// queue until it is promoted and only a full GC frees it; the file gets large positional writes, several
// in flight, from buffers allocated once. Plain fs callbacks: no promise or stream hop per write.
import { close, open, write } from 'node:fs';
import type { ChunkSink, SinkControl } from './receiver';

const SLOT = 1024 * 1024;
const SLOTS = 4;

export class FileSink implements ChunkSink {
  private readonly ring: Buffer[] = [];
  /** Per slot: whether a write from it is in flight (it cannot be refilled yet). */
  private readonly busy: boolean[] = new Array(SLOTS).fill(false);
  private slot = 0;
  private fill = 0;
  private position = 0;
  private inFlight = 0;
  /** Data that arrived when the ring was full (at most the rest of one chunk: the response is paused). */
  private pending: Buffer | undefined;
  private control: SinkControl | undefined;
  private failure: Error | undefined;
  private idle: (() => void) | undefined;
  private fd: number | undefined;

  private constructor(fd: number) {
    this.fd = fd;
    for (let i = 0; i < SLOTS; i++) this.ring.push(Buffer.allocUnsafeSlow(SLOT));
  }

  /** Creates (or truncates) `path`, readable by this user only; rejects with the file-system error. */
  static open(path: string): Promise<FileSink> {
    return new Promise((resolve, reject) => open(path, 'w', 0o600, (err, fd) => (err ? reject(err) : resolve(new FileSink(fd)))));
  }

  /** How the sink resumes the response after a full ring and fails it after a write error. */
  attach(control: SinkControl): this {
    this.control = control;
    return this;
  }

  write(chunk: Buffer): boolean {
    if (this.failure) return false;
    let offset = 0;
    while (offset < chunk.length) {
      if (this.busy[this.slot]) {
        this.pending = Buffer.from(chunk.subarray(offset));
        return false;
      }
      const copied = chunk.copy(this.ring[this.slot], this.fill, offset);
      offset += copied;
      this.fill += copied;
      if (this.fill === SLOT) this.flush();
    }
    return true;
  }

  /** Writes what is left and closes the file; rejects with the first write or close error. */
  async close(): Promise<void> {
    if (this.pending) throw new Error('FileSink closed while paused');
    if (this.fill > 0 && !this.failure) this.flush();
    await this.settled();
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) await new Promise<void>((resolve, reject) => close(fd, (err) => (err ? reject(err) : resolve())));
    if (this.failure) throw this.failure;
  }

  /** Waits for writes in flight and closes the file, ignoring errors (the caller removes the file). */
  async discard(): Promise<void> {
    this.failure ??= new Error('discarded');
    await this.settled();
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) await new Promise<void>((resolve) => close(fd, () => resolve()));
  }

  private settled(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise((resolve) => (this.idle = resolve));
  }

  private flush(): void {
    const index = this.slot;
    const length = this.fill;
    const position = this.position;
    this.position += length;
    this.fill = 0;
    this.slot = (index + 1) % SLOTS;
    this.busy[index] = true;
    this.inFlight++;
    this.writeAll(index, 0, length, position);
  }

  private writeAll(index: number, done: number, length: number, position: number): void {
    const fd = this.fd;
    if (fd === undefined || this.failure) {
      this.written(index, this.failure ?? new Error('file closed'));
      return;
    }
    write(fd, this.ring[index], done, length - done, position + done, (err, bytes) => {
      if (err) this.written(index, err);
      else if (done + bytes < length) this.writeAll(index, done + bytes, length, position);
      else this.written(index);
    });
  }

  private written(index: number, err?: Error): void {
    this.busy[index] = false;
    this.inFlight--;
    if (err && !this.failure) {
      this.failure = err;
      this.control?.fail(err);
    }
    if (this.inFlight === 0 && this.idle) {
      const idle = this.idle;
      this.idle = undefined;
      idle();
    }
    // The slot we were waiting for is free: take the held-back data and let the response continue.
    if (this.pending && !this.busy[this.slot] && !this.failure) {
      const pending = this.pending;
      this.pending = undefined;
      this.write(pending);
      if (!this.pending) this.control?.resume();
    }
  }
}

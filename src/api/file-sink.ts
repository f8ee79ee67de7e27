// A Writable that stores a download in a file through a small ring of reused 1 MiB buffers.
// Each incoming socket chunk is copied at once and dropped, so it dies young (a cheap scavenge frees
// it) instead of waiting in a write queue until it is promoted and only a full GC frees it; the file
// gets large positional writes, several in flight, from buffers allocated once.
import { type FileHandle, open } from 'node:fs/promises';
import { Writable } from 'node:stream';

const SLOT = 1024 * 1024;
const SLOTS = 4;

export class FileSink extends Writable {
  private handle: FileHandle | undefined;
  private readonly ring: Buffer[] = [];
  private readonly inFlight: (Promise<void> | undefined)[] = new Array(SLOTS).fill(undefined);
  private slot = 0;
  private fill = 0;
  private position = 0;
  private failure: Error | undefined;

  constructor(private readonly path: string) {
    // A small queue: chunks are copied at once; more queueing only keeps chunks alive longer.
    super({ highWaterMark: 64 * 1024 });
  }

  override _construct(callback: (error?: Error | null) => void): void {
    open(this.path, 'w').then(
      (handle) => {
        this.handle = handle;
        for (let i = 0; i < SLOTS; i++) this.ring.push(Buffer.allocUnsafeSlow(SLOT));
        callback();
      },
      (err: Error) => callback(err),
    );
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.store(chunk).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (this.fill > 0) this.flush();
    Promise.all(this.inFlight)
      .then(() => {
        if (this.failure) throw this.failure;
        return this.handle?.close();
      })
      .then(() => {
        this.handle = undefined;
        callback();
      }, callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = undefined;
    Promise.allSettled(this.inFlight)
      .then(() => handle?.close())
      .then(
        () => callback(error),
        () => callback(error),
      );
  }

  private async store(chunk: Buffer): Promise<void> {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.fill === 0) {
        // Reuse a slot only after its previous write finished.
        await this.inFlight[this.slot];
        if (this.failure) throw this.failure;
      }
      const copied = chunk.copy(this.ring[this.slot], this.fill, offset);
      offset += copied;
      this.fill += copied;
      if (this.fill === SLOT) this.flush();
    }
  }

  private flush(): void {
    const index = this.slot;
    const buffer = this.ring[index];
    const length = this.fill;
    const position = this.position;
    this.position += length;
    this.fill = 0;
    this.slot = (index + 1) % SLOTS;
    this.inFlight[index] = this.writeAll(buffer, length, position).catch((err: Error) => {
      this.failure ??= err;
    });
  }

  private async writeAll(buffer: Buffer, length: number, position: number): Promise<void> {
    let done = 0;
    while (done < length) {
      const handle = this.handle;
      if (!handle) throw new Error('file closed');
      const { bytesWritten } = await handle.write(buffer, done, length - done, position + done);
      done += bytesWritten;
    }
  }
}

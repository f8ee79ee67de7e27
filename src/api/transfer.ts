// Streaming helpers shared by file and table transfers: upload sources, download targets, progress.
// Nothing here holds a whole file in memory (except `collect`, which is bounded by its caller).
import { promises as fsp } from 'node:fs';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { badInput, DatagrokError } from './errors';
import type { TransferProgress, UploadSource } from './types';

/** Chunk size for reading and writing local files. */
const FILE_CHUNK = 1024 * 1024;
/** Text longer than this many UTF-16 units is encoded a chunk at a time; shorter text at once. */
const TEXT_CHUNK = 256 * 1024;
/** Progress callbacks are throttled to this interval (the final figure is always reported). */
const PROGRESS_INTERVAL_MS = 100;

/** Calls `onProgress` at most every PROGRESS_INTERVAL_MS, and always for the final figure. */
export class TransferCounter {
  bytes = 0;
  private last = 0;
  constructor(
    private readonly onProgress: ((p: TransferProgress) => void) | undefined,
    private readonly total?: number,
  ) {}

  add(n: number): void {
    this.bytes += n;
    if (!this.onProgress) return;
    const now = Date.now();
    if (now - this.last >= PROGRESS_INTERVAL_MS) {
      this.last = now;
      this.emit();
    }
  }

  /** The transfer succeeded: everything declared was sent or received. */
  done(): void {
    if (this.total !== undefined && this.bytes < this.total) this.bytes = this.total;
    if (this.onProgress) this.emit();
  }

  private emit(): void {
    try {
      this.onProgress?.(this.total === undefined ? { bytes: this.bytes } : { bytes: this.bytes, total: this.total });
    } catch {
      // a progress callback must never break a transfer
    }
  }
}

export interface PreparedUpload {
  body: Uint8Array | AsyncIterable<Uint8Array>;
  contentLength?: number;
  progress: TransferCounter;
  /** Releases the source (closes the file) whatever happened. */
  dispose(): void;
}

/**
 * Reads a file through a small ring of reused buffers. The transport asks for the next chunk only after
 * socket.write() of the previous one returned true or 'drain' fired, i.e. after a 1 MiB chunk was handed
 * to the kernel; a buffer is reused two chunks later. Reusing buffers keeps memory flat (no 1 MiB
 * allocation per chunk waiting for the garbage collector) and avoids page-faulting fresh memory.
 */
async function* readFileChunks(file: string, size: number, progress: TransferCounter, state: { closed: boolean }): AsyncGenerator<Uint8Array> {
  const handle = await fsp.open(file, 'r');
  try {
    const ring = [Buffer.allocUnsafe(FILE_CHUNK), Buffer.allocUnsafe(FILE_CHUNK), Buffer.allocUnsafe(FILE_CHUNK)];
    let position = 0;
    for (let i = 0; position < size && !state.closed; i = (i + 1) % ring.length) {
      const { bytesRead } = await handle.read(ring[i], 0, Math.min(FILE_CHUNK, size - position), position);
      if (bytesRead === 0) break; // the file shrank: the transport reports the length mismatch
      position += bytesRead;
      progress.add(bytesRead);
      yield ring[i].subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/**
 * Encodes text to UTF-8 a slice at a time into the same small ring of reused buffers as readFileChunks
 * (and for the same reason it is safe: the transport takes the next chunk only once the previous one went to
 * the kernel), so a 100 MB string goes up without a second, encoded copy of it in memory and without a
 * fresh buffer per slice: allocating those cost 4–6× the encoding itself (test/bench/pushText.ts). A
 * slice is at most a third of a buffer in UTF-16 units, so it always fits whole (a unit is at most 3
 * bytes of UTF-8; a surrogate pair, 2 units, is 4), and Buffer#write encodes it: 7–27 ms for 100 MiB of
 * CSV on Node 24 where TextEncoder#encodeInto took 124–144 ms.
 */
async function* textChunks(text: string, progress: TransferCounter, state: { closed: boolean }): AsyncGenerator<Uint8Array> {
  const ring = [Buffer.allocUnsafe(FILE_CHUNK), Buffer.allocUnsafe(FILE_CHUNK), Buffer.allocUnsafe(FILE_CHUNK)];
  const sliceUnits = Math.floor(FILE_CHUNK / 3);
  for (let start = 0, i = 0; start < text.length && !state.closed; i = (i + 1) % ring.length) {
    let end = Math.min(text.length, start + sliceUnits);
    // Never between the halves of a surrogate pair: each half alone would become U+FFFD.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    const written = ring[i].write(text.slice(start, end), 0, 'utf8');
    start = end;
    progress.add(written);
    yield ring[i].subarray(0, written);
  }
}

async function* countChunks(source: AsyncIterable<Uint8Array | string>, progress: TransferCounter): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    progress.add(bytes.length);
    yield bytes;
  }
}

/** A body read chunk by chunk from `chunks` (counted into the progress); dispose stops and closes the source. */
function streamedUpload(
  size: number,
  onProgress: ((p: TransferProgress) => void) | undefined,
  chunks: (progress: TransferCounter, state: { closed: boolean }) => AsyncGenerator<Uint8Array>,
): PreparedUpload {
  const progress = new TransferCounter(onProgress, size);
  const state = { closed: false };
  const body = chunks(progress, state);
  return {
    body,
    contentLength: size,
    progress,
    dispose: () => {
      state.closed = true;
      body.return(undefined).catch(() => undefined);
    },
  };
}

/** Opens an upload source as a request body with its length and a progress counter. */
export async function prepareUpload(source: UploadSource, what: string, onProgress?: (p: TransferProgress) => void): Promise<PreparedUpload> {
  if (source && 'data' in source && typeof source.data === 'string' && source.data.length > TEXT_CHUNK) {
    const text = source.data;
    // Buffer.byteLength counts as the encoder writes (a lone surrogate as the 3 bytes of U+FFFD).
    const size = source.byteLength ?? Buffer.byteLength(text, 'utf8');
    return streamedUpload(size, onProgress, (progress, state) => textChunks(text, progress, state));
  }
  if (source && 'data' in source) {
    const data = typeof source.data === 'string' ? Buffer.from(source.data, 'utf8') : source.data;
    if (!(data instanceof Uint8Array)) throw badInput(`${what} failed: the data must be text or bytes.`);
    const progress = new TransferCounter(onProgress, data.length);
    return { body: data, contentLength: data.length, progress, dispose: () => undefined };
  }
  if (source && 'file' in source) {
    let size: number;
    try {
      const stat = await fsp.stat(source.file);
      if (!stat.isFile()) throw new Error('not a file');
      size = stat.size;
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : 'it cannot be read';
      throw new DatagrokError('badInput', `${what} failed: the file ${source.file} cannot be uploaded because ${reason}.`, {
        cause: err,
      });
    }
    const file = source.file;
    return streamedUpload(size, onProgress, (progress, state) => readFileChunks(file, size, progress, state));
  }
  if (source && 'stream' in source && source.stream) {
    const s = source.stream;
    let size: number | undefined;
    if (source.size !== undefined) {
      if (!Number.isSafeInteger(source.size) || source.size < 0) {
        throw badInput(`${what} failed: the declared size ${source.size} is not a byte count.`);
      }
      size = source.size;
    }
    const progress = new TransferCounter(onProgress, size);
    const chunks = countChunks(s as AsyncIterable<Uint8Array | string>, progress);
    return {
      body: chunks,
      contentLength: size,
      progress,
      dispose: () => {
        chunks.return(undefined).catch(() => undefined);
        if (s instanceof Readable && !s.destroyed) s.destroy();
      },
    };
  }
  throw badInput(`${what} failed: nothing to upload (give a file, a stream or data).`);
}

/** Pipes a body into a writable (ended on success, destroyed on failure), counting progress. */
export async function writeBody(body: Readable, target: Writable, progress: TransferCounter, commit: () => void): Promise<void> {
  const done = pipeline(body, target);
  // Attached in the same tick as the pipe, so no chunk is missed; 'data' costs nothing per chunk beyond a call.
  body.on('data', (chunk: Buffer) => {
    if (progress.bytes === 0) commit();
    progress.add(chunk.length);
  });
  await done;
}

/** Collects chunks into memory, rejecting once more than `maxBytes` arrived. */
export async function collect(chunks: AsyncIterable<Uint8Array>, maxBytes: number | undefined, progress: TransferCounter, tooLarge: () => DatagrokError): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) {
    progress.add(chunk.length);
    if (maxBytes !== undefined && progress.bytes > maxBytes) throw tooLarge();
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

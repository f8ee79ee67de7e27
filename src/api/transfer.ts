// Streaming helpers shared by file and table transfers: upload sources, download targets, progress.
// Nothing here holds a whole file in memory (except `collect`, which is bounded by its caller).
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, promises as fsp, type WriteStream } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Readable, Transform, type TransformCallback, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DatagrokError } from './errors';
import type { TransferProgress, UploadSource } from './types';

/** Chunk size for reading and writing local files. */
const FILE_CHUNK = 1024 * 1024;
/** Progress callbacks are throttled to this interval (the final figure is always reported). */
const PROGRESS_INTERVAL_MS = 100;

/** Calls `onProgress` at most every PROGRESS_INTERVAL_MS, and always for the final figure. */
export class ProgressReporter {
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

  done(): void {
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

class CountingStream extends Transform {
  constructor(private readonly progress: ProgressReporter) {
    super({ highWaterMark: FILE_CHUNK });
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    this.progress.add(chunk.length);
    callback(null, chunk);
  }
}

export interface PreparedUpload {
  body: string | Uint8Array | Readable;
  contentLength?: number;
  progress: ProgressReporter;
  /** Releases the source (closes the file) whatever happened. */
  dispose(): void;
}

/** Opens an upload source as a request body with its length and a progress counter. */
export async function prepareUpload(
  source: UploadSource,
  what: string,
  onProgress?: (p: TransferProgress) => void,
): Promise<PreparedUpload> {
  if (source && 'data' in source) {
    const data = typeof source.data === 'string' ? Buffer.from(source.data, 'utf8') : source.data;
    if (!(data instanceof Uint8Array)) throw new DatagrokError('badInput', `${what} failed: the data must be text or bytes.`);
    const progress = new ProgressReporter(onProgress, data.length);
    return { body: data, contentLength: data.length, progress, dispose: () => undefined };
  }
  let stream: Readable;
  let size: number | undefined;
  if (source && 'file' in source) {
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
    stream = createReadStream(source.file, { highWaterMark: FILE_CHUNK });
  } else if (source && 'stream' in source && source.stream) {
    const s = source.stream;
    stream = s instanceof Readable ? s : Readable.from(s, { objectMode: false });
    if (source.size !== undefined) {
      if (!Number.isSafeInteger(source.size) || source.size < 0) {
        throw new DatagrokError('badInput', `${what} failed: the declared size ${source.size} is not a byte count.`);
      }
      size = source.size;
    }
  } else {
    throw new DatagrokError('badInput', `${what} failed: nothing to upload (give a file, a stream or data).`);
  }
  const progress = new ProgressReporter(onProgress, size);
  const counter = new CountingStream(progress);
  // Errors surface through the request (undici reads `counter`); this only makes sure both ends close.
  pipeline(stream, counter).catch(() => undefined);
  return {
    body: counter,
    contentLength: size,
    progress,
    dispose: () => {
      if (!stream.destroyed) stream.destroy();
      if (!counter.destroyed) counter.destroy();
    },
  };
}

/** Streams chunks into a writable (ended on success, destroyed on failure). */
export async function writeChunks(chunks: AsyncIterable<Uint8Array>, target: Writable, progress: ProgressReporter, commit: () => void): Promise<void> {
  async function* counted(): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunks) {
      commit();
      progress.add(chunk.length);
      yield chunk;
    }
  }
  await pipeline(counted, target);
}

/**
 * Streams chunks into `file` through a temporary sibling renamed into place on success; the temporary
 * file is removed on any failure, so a failed or cancelled download never leaves a partial file.
 */
export async function writeChunksToFile(
  chunks: AsyncIterable<Uint8Array>,
  file: string,
  progress: ProgressReporter,
  commit: () => void,
  what: string,
): Promise<void> {
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(4).toString('hex')}.download`);
  let localError: NodeJS.ErrnoException | undefined;
  const out: WriteStream = createWriteStream(temp, { highWaterMark: FILE_CHUNK });
  // pipeline() also destroys `out` with the *source's* error; only file-system errors (they carry a
  // syscall) are about the local file.
  out.on('error', (err: NodeJS.ErrnoException) => {
    if (err.syscall !== undefined) localError ??= err;
  });
  try {
    await writeChunks(chunks, out, progress, commit);
    await fsp.rename(temp, file);
  } catch (err) {
    if (!out.destroyed) out.destroy();
    await new Promise<void>((resolve) => (out.closed ? resolve() : out.once('close', () => resolve())));
    await fsp.rm(temp, { force: true }).catch(() => undefined);
    const local = localError ?? (isRenameError(err) ? (err as NodeJS.ErrnoException) : undefined);
    if (local) {
      throw new DatagrokError('badInput', `${what} failed: cannot write ${file} (${local.code ?? local.message}). Choose another location.`, {
        cause: local,
      });
    }
    throw err;
  }
}

function isRenameError(err: unknown): boolean {
  return (err as { syscall?: string })?.syscall === 'rename';
}

/** Collects chunks into memory, rejecting once more than `maxBytes` arrived. */
export async function collect(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number | undefined,
  progress: ProgressReporter,
  tooLarge: () => DatagrokError,
): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) {
    progress.add(chunk.length);
    if (maxBytes !== undefined && progress.bytes > maxBytes) throw tooLarge();
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

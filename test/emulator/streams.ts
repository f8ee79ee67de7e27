// Streaming bodies to and from disk with flat memory: uploads go to a temp file renamed into place only
// when complete (an aborted upload leaves the previous content), downloads carry Content-Length (unless chunked).
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface Stored {
  bytes: number;
  sha256: string;
}

/** How much of an upload may wait in memory for the disk (bytes). */
const WRITE_BUFFER = 1024 * 1024;

/** Counts and hashes what flows through it. */
class Digest extends Transform {
  readonly hash = createHash('sha256');
  bytes = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    done(null, chunk);
  }
}

/**
 * Streams the request body into `target`. Resolves once the file is in place; rejects (and deletes the
 * partial temp file) when the client aborts. `prepare` runs after the body arrived, before the rename
 * (e.g. creating parent folders), and may throw to refuse the upload (what arrived is passed to it).
 */
export async function receiveToFile(req: IncomingMessage, tmpDir: string, target: string, prepare?: (received: Stored) => Promise<void>): Promise<Stored> {
  await mkdir(tmpDir, { recursive: true });
  const tmp = path.join(tmpDir, `${randomUUID()}.part`);
  const digest = new Digest();
  try {
    // A 1 MiB write buffer: with the default 16 KiB every 64 KiB read from the socket paused it until the
    // disk write was done; a 1 GiB upload then cost the emulator 2.7 s of CPU (1.8-2.0 s now) and it, not
    // the client, set the pace.
    await pipeline(req, digest, createWriteStream(tmp, { highWaterMark: WRITE_BUFFER }));
    if (!req.complete) throw new Error('upload aborted');
    await prepare?.({ bytes: digest.bytes, sha256: '' });
    await rename(tmp, target);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  return { bytes: digest.bytes, sha256: digest.hash.digest('hex') };
}

/** Streams a file as the response body with its Content-Length, or chunked without it (`chunked`). */
export async function sendFile(res: ServerResponse, file: string, contentType: string, chunked = false): Promise<void> {
  const info = await stat(file);
  res.writeHead(200, chunked ? { 'Content-Type': contentType } : { 'Content-Type': contentType, 'Content-Length': String(info.size) });
  try {
    await pipeline(createReadStream(file), res);
  } catch {
    // the client went away or a fault cut the connection: nothing left to answer
  }
}

/** sha256 of a file on disk, streamed. */
export async function hashFile(file: string): Promise<Stored> {
  const digest = new Digest();
  await pipeline(createReadStream(file), digest, async (source: AsyncIterable<Buffer>) => {
    for await (const _ of source) {
      // drain
    }
  });
  return { bytes: digest.bytes, sha256: digest.hash.digest('hex') };
}

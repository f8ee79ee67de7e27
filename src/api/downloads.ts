// One streamed GET into a download target: a file (via a temporary sibling) or any writable.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { IncomingMessage } from 'node:http';
import { basename, dirname, join } from 'node:path';
import { badInput, DatagrokError } from './errors';
import { FileSink } from './file-sink';
import { releaseReads } from './release';
import type { Readable } from 'node:stream';
import type { RequestSpec, Transport } from './http';
import { TransferCounter, writeBody } from './transfer';
import type { DownloadTarget, TransferOptions, TransferResult } from './types';

export function download(http: Transport, spec: RequestSpec, target: DownloadTarget, options: TransferOptions): Promise<TransferResult> {
  if (!target || (!('file' in target) && !('stream' in target)) || ('file' in target && !target.file) || ('stream' in target && !target.stream)) {
    return Promise.reject(badInput(`${spec.what} failed: no file or stream to download to.`));
  }
  if ('file' in target) return downloadToFile(http, spec, target.file, target.growing === true, options);
  const committed = { value: false };
  const run = http.stream(
    spec,
    async (body, info, commit) => {
      const progress = new TransferCounter(options.onProgress, info.contentLength);
      await writeBody(body, target.stream, progress, commit);
      progress.done();
      return { bytes: progress.bytes };
    },
    committed,
  );
  // Like a pipeline: the stream is ended on success and destroyed on failure, so a reader never hangs.
  return run.catch((err: unknown) => {
    if (!target.stream.destroyed) target.stream.destroy();
    throw err;
  });
}

/**
 * Receives a body into `file` through a temporary sibling renamed into place on success (or into `file`
 * itself when it is `growing`); the partial file is removed on any failure, so a failed or cancelled
 * download never leaves one. The response's chunks go straight into the file sink's queue (no copy, no
 * stream pipe in between).
 */
async function downloadToFile(http: Transport, spec: RequestSpec, file: string, growing: boolean, options: TransferOptions): Promise<TransferResult> {
  const temp = growing ? file : join(dirname(file), `.${basename(file)}.${randomBytes(4).toString('hex')}.download`);
  const cannotWrite = (err: NodeJS.ErrnoException) =>
    new DatagrokError('badInput', `${spec.what} failed: cannot write ${file} (${err.code ?? err.message}). Choose another location.`, {
      cause: err,
    });
  let sink: FileSink;
  try {
    // Opened once: a retry happens only while nothing was written, so every attempt can use it.
    sink = await FileSink.open(temp, { eager: growing });
  } catch (err) {
    throw cannotWrite(err as NodeJS.ErrnoException);
  }
  let progress = new TransferCounter(options.onProgress);
  try {
    await http.stream(
      spec,
      (body, info, commit) => {
        progress = new TransferCounter(options.onProgress, info.contentLength);
        // A write error is about the local file, not the connection: it fails the request as such.
        sink.attach({ resume: () => body.resume(), fail: (err) => body.destroy(cannotWrite(err)) });
        // The socket's reads are released as the parser is done with them (the body is the answer itself
        // unless the peek found it ended: then there is nothing left to read).
        const stopReleasing = body instanceof IncomingMessage ? releaseReads(body) : () => undefined;
        return pour(body, sink, progress, commit).finally(stopReleasing);
      },
      { value: false },
    );
    try {
      await sink.close();
      // The partial download was private (0600); the file gets the mode it had, or a new file's default.
      const fresh = 0o666 & ~process.umask();
      const mode = growing
        ? fresh
        : await fsp.stat(file).then(
            (s) => s.mode & 0o777,
            () => fresh,
          );
      await fsp.chmod(temp, mode);
      if (temp !== file) await fsp.rename(temp, file);
    } catch (err) {
      throw cannotWrite(err as NodeJS.ErrnoException);
    }
  } catch (err) {
    await sink.discard();
    await fsp.rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
  progress.done();
  return { bytes: progress.bytes };
}

/** Hands each chunk of `body` to the sink, pausing the body while the sink is full; settles at the end. */
function pour(body: Readable, sink: FileSink, progress: TransferCounter, commit: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let first = true;
    body.on('data', (chunk: Buffer) => {
      if (first) {
        first = false;
        commit();
      }
      progress.add(chunk.length);
      if (!sink.write(chunk)) body.pause();
    });
    body.once('end', () => resolve());
    body.once('error', reject);
    body.once('close', () => {
      if (!body.readableEnded) reject(body.errored ?? Object.assign(new Error('The response was closed early'), { code: 'ECONNRESET' }));
    });
  });
}

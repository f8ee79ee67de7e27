// A part of a download held in memory: the bytes from `skip` to `skip + keep`, the download stopped as
// soon as one byte past them arrived (so a model's page of a large file does not fetch the whole file,
// and it still knows whether there is more). Used by datagrok_openTable and datagrok_readFile.
import { Writable } from 'node:stream';

export interface Part {
  data: Buffer;
  /** True when the download reached the end of the file. */
  complete: boolean;
  /** The file's size in bytes, when the download reached its end. */
  total?: number;
}

export async function downloadPart(download: (sink: Writable, signal: AbortSignal) => Promise<unknown>, skip: number, keep: number, signal?: AbortSignal): Promise<Part> {
  const chunks: Buffer[] = [];
  let seen = 0;
  const stop = new AbortController();
  const enough = () => seen > skip + keep;
  const abort = () => stop.abort();
  signal?.addEventListener('abort', abort);
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const from = Math.max(0, skip - seen);
      const to = Math.min(chunk.length, skip + keep - seen);
      if (to > from) chunks.push(chunk.subarray(from, to));
      seen += chunk.length;
      if (enough()) stop.abort();
      done();
    },
  });
  try {
    await download(sink, stop.signal);
  } catch (e) {
    // Stopped on purpose once past the part: keep what arrived. Anything else (or the caller's cancel) fails.
    if (!(stop.signal.aborted && enough() && !signal?.aborted)) throw e;
    return { data: Buffer.concat(chunks), complete: false };
  } finally {
    signal?.removeEventListener('abort', abort);
  }
  return { data: Buffer.concat(chunks), complete: true, total: seen };
}

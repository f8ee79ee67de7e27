// One upload: the source opened as a streamed body, POSTed once (an upload is never retried), progress
// completed on success, the source closed whatever happens.
import type { RequestSpec } from './http';
import { prepareUpload } from './transfer';
import type { TransferOptions, UploadSource } from './types';

/** POSTs `source` to `path`; `send` is the transport call that reads the response (empty or JSON). */
export async function upload<T>(path: string, what: string, source: UploadSource, options: TransferOptions, send: (spec: RequestSpec) => Promise<T>): Promise<T> {
  const prepared = await prepareUpload(source, what, options.onProgress);
  try {
    const result = await send({
      method: 'POST',
      path,
      what,
      signal: options.signal,
      onServerTime: options.onServerTime,
      transfer: true,
      body: prepared.body,
      contentType: 'application/octet-stream',
      contentLength: prepared.contentLength,
    });
    prepared.progress.done();
    return result;
  } finally {
    prepared.dispose();
  }
}

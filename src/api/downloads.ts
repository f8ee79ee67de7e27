// One streamed GET into a download target (a file, via a temporary sibling, or any writable).
import { DatagrokError } from './errors';
import type { RequestSpec, Transport } from './http';
import { ProgressReporter, writeBody, writeBodyToFile } from './transfer';
import type { DownloadTarget, TransferOptions, TransferResult } from './types';

export function download(http: Transport, spec: RequestSpec, target: DownloadTarget, options: TransferOptions): Promise<TransferResult> {
  if (!target || (!('file' in target) && !('stream' in target)) || ('file' in target && !target.file) || ('stream' in target && !target.stream)) {
    return Promise.reject(new DatagrokError('badInput', `${spec.what} failed: no file or stream to download to.`));
  }
  const committed = { value: false };
  const run = http.stream(
    spec,
    async (body, info, commit) => {
      const progress = new ProgressReporter(options.onProgress, info.contentLength);
      if ('file' in target) await writeBodyToFile(body, target.file, progress, commit, spec.what);
      else await writeBody(body, target.stream, progress, commit);
      progress.done();
      return { bytes: progress.bytes };
    },
    committed,
  );
  if ('file' in target) return run;
  // Like a pipeline: the stream is ended on success and destroyed on failure, so a reader never hangs.
  return run.catch((err: unknown) => {
    if (!target.stream.destroyed) target.stream.destroy();
    throw err;
  });
}

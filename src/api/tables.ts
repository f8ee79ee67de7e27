// Tables (dataframes): CSV download streamed to a target, upload from any source.
import { readCreationResult } from './creation';
import { download } from './downloads';
import type { Transport } from './http';
import { nameSegment } from './names';
import { prepareUpload } from './transfer';
import type { CreationResult, DownloadTarget, TransferOptions, TransferResult, UploadSource } from './types';

function tableRoute(name: string): string {
  return `/public/v1/tables/${nameSegment(name, 'table name')}`;
}

export function downloadTable(http: Transport, name: string, target: DownloadTarget, options: TransferOptions = {}): Promise<TransferResult> {
  const path = tableRoute(name);
  return download(http, { method: 'GET', path, what: `Downloading table ${name}`, signal: options.signal }, target, options);
}

export async function uploadTable(http: Transport, name: string, source: UploadSource, options: TransferOptions = {}): Promise<CreationResult> {
  const path = tableRoute(name);
  const what = `Uploading table ${name}`;
  const upload = await prepareUpload(source, what, options.onProgress);
  try {
    const result = await http.json<unknown>({
      method: 'POST',
      path,
      what,
      signal: options.signal,
      transfer: true,
      body: upload.body,
      contentType: 'application/octet-stream',
      contentLength: upload.contentLength,
    });
    upload.progress.done();
    return readCreationResult(result, what);
  } finally {
    upload.dispose();
  }
}

// Tables (dataframes): CSV download streamed to a target, upload from any source.
import { readCreationResult } from './creation';
import { download } from './downloads';
import type { Transport } from './http';
import { nameSegment } from './names';
import type { CreationResult, DownloadTarget, TransferOptions, TransferResult, UploadSource } from './types';
import { upload } from './uploads';

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
  const result = await upload(path, what, source, options, (spec) => http.json<unknown>(spec));
  return readCreationResult(result, what);
}

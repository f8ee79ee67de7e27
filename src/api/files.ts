// Files under connectors: download, read, upload, delete and (internal route) listing.
import { formatBytes } from './units';
import { DatagrokError } from './errors';
import { unsupportedIfMissing } from './failures';
import type { Transport } from './http';
import { filePathSegments, idSegment, nameSegment } from './names';
import { collect, TransferCounter } from './transfer';
import type { CallOptions, DownloadTarget, FileEntry, TransferOptions, TransferResult, UploadSource } from './types';
import { upload } from './uploads';
import { download } from './downloads';

function fileRoute(connector: string, path: string): string {
  return `/public/v1/files/${nameSegment(connector, 'connector')}/${filePathSegments(path)}`;
}

function label(connector: string, path: string): string {
  return `${connector}/${path.replace(/^\//, '')}`;
}

/** A web page is the answer only for a file that is one: otherwise text/html is a gateway's page. */
function isWebPage(path: string): boolean {
  return /\.(html?|xhtml)$/i.test(path);
}

export function downloadFile(http: Transport, connector: string, path: string, target: DownloadTarget, options: TransferOptions = {}): Promise<TransferResult> {
  const route = fileRoute(connector, path);
  return download(http, { method: 'GET', path: route, what: `Downloading ${label(connector, path)}`, signal: options.signal, acceptsHtml: isWebPage(path) }, target, options);
}

export async function readFile(http: Transport, connector: string, path: string, options: TransferOptions & { maxBytes?: number } = {}): Promise<Uint8Array> {
  const route = fileRoute(connector, path);
  const what = `Reading ${label(connector, path)}`;
  const maxBytes = options.maxBytes;
  const tooLarge = (size: number) =>
    new DatagrokError(
      'tooLarge',
      `${what} failed: the file is larger than ${formatBytes(maxBytes ?? 0)}${size > 0 ? ` (${formatBytes(size)})` : ''}. Download it to disk instead.`,
      { method: 'GET', path: route },
    );
  const committed = { value: false };
  return http.stream(
    { method: 'GET', path: route, what, signal: options.signal, onServerTime: options.onServerTime, acceptsHtml: isWebPage(path) },
    async (body, info) => {
      if (maxBytes !== undefined && info.contentLength !== undefined && info.contentLength > maxBytes) {
        throw tooLarge(info.contentLength);
      }
      const progress = new TransferCounter(options.onProgress, info.contentLength);
      const data = await collect(body, maxBytes, progress, () => tooLarge(0));
      progress.done();
      return data;
    },
    committed,
  );
}

export async function uploadFile(http: Transport, connector: string, path: string, source: UploadSource, options: TransferOptions = {}): Promise<void> {
  const route = fileRoute(connector, path);
  const what = `Uploading ${label(connector, path)}`;
  await upload(route, what, source, options, (spec) => http.empty(spec));
}

export async function deleteFile(http: Transport, connector: string, path: string, options: CallOptions = {}): Promise<void> {
  const route = fileRoute(connector, path);
  const what = `Deleting ${label(connector, path)}`;
  try {
    await http.empty({ method: 'DELETE', path: route, what, signal: options.signal });
  } catch (err) {
    throw unsupportedIfMissing(err, `${what} failed: this server does not support deleting files.`);
  }
}

interface RawEntry {
  path?: unknown;
  name?: unknown;
  isFile?: unknown;
  isDirectory?: unknown;
  size?: unknown;
  updatedOn?: unknown;
}

export async function listFiles(http: Transport, connector: string, dir: string, options: CallOptions = {}): Promise<FileEntry[]> {
  const connectorSegment = nameSegment(connector, 'connector');
  const dirSegments = filePathSegments(dir, true);
  const what = `Listing ${label(connector, dir)}`;
  const unsupported = `${what} failed: this server does not support listing connector folders.`;
  let connection: { id?: unknown };
  try {
    connection = await http.json<{ id?: unknown }>({
      method: 'GET',
      path: `/public/v1/connections/${connectorSegment}`,
      what,
      signal: options.signal,
    });
  } catch (err) {
    throw unsupportedIfMissing(err, unsupported);
  }
  if (!connection || typeof connection !== 'object' || typeof connection.id !== 'string' || connection.id === '') {
    throw new DatagrokError('server', `${what} failed: the server did not return the connector's ID.`);
  }
  // The trailing '/' makes it a listing rather than a download.
  const listing = `/connectors/connections/${idSegment(connection.id)}/files/${dirSegments ? `${dirSegments}/` : ''}`;
  let raw: unknown;
  try {
    raw = await http.json<unknown>({ method: 'GET', path: listing, query: { recursive: 'false' }, what, signal: options.signal });
  } catch (err) {
    throw unsupportedIfMissing(err, unsupported);
  }
  if (!Array.isArray(raw)) throw new DatagrokError('server', `${what} failed: the server's answer was not a list.`);
  const base = dir.replace(/^\/+|\/+$/g, '');
  return raw.filter((e): e is RawEntry => !!e && typeof e === 'object').map((e) => toEntry(e, base));
}

function toEntry(e: RawEntry, dir: string): FileEntry {
  const rawPath = typeof e.path === 'string' ? e.path.replace(/^\/+|\/+$/g, '') : '';
  const name = typeof e.name === 'string' && e.name !== '' ? e.name.replace(/\/+$/, '') : (rawPath.split('/').pop() ?? '');
  const path = rawPath !== '' ? rawPath : dir ? `${dir}/${name}` : name;
  const isFile = typeof e.isFile === 'boolean' ? e.isFile : e.isDirectory === true ? false : !String(e.path ?? '').endsWith('/');
  const entry: FileEntry = { path, name, isFile };
  if (typeof e.size === 'number') entry.size = e.size;
  if (typeof e.updatedOn === 'string') entry.updatedOn = e.updatedOn;
  return entry;
}

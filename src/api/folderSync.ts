// The folder sync route (not in the reference; Datagrok's Python client `sync_dir` uses it):
// POST /public/v1/files/sync/{connector}/{dir}?recursive= with the caller's `{relPath: eTag}` map. The answer is
// 204 when the folder holds nothing, else multipart: one part per file, `X-File-Status: deleted` or
// `not-modified`, or the file's new content with its `X-File-E-Tag`. Parts are parsed with a maintained
// multipart parser (@remix-run/multipart-parser), which hands over each part once it is whole.
import { DatagrokError } from './errors';
import type { Transport } from './http';
import { filePathSegments, nameSegment } from './names';
import type { CallOptions, SyncPart } from './types';

type ParserModule = typeof import('@remix-run/multipart-parser', { with: { 'resolution-mode': 'import' } });
type Parser = InstanceType<ParserModule['MultipartParser']>;
let parserModule: Promise<ParserModule> | undefined;

/** The parser is an ES module: loaded once, on the first sync (esbuild bundles it). */
function loadParser(): Promise<ParserModule> {
  parserModule ??= import('@remix-run/multipart-parser');
  return parserModule;
}

function boundaryOf(contentType: string | undefined): string | undefined {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return m ? (m[1] ?? m[2]) : undefined;
}

/**
 * Sends `known` ({relative path: eTag}) and hands each part to `onPart` in the order the server sends them;
 * resolves with the number of parts (0 for a 204). A part's content is whole when `onPart` sees it.
 */
export async function syncFolder(
  http: Transport,
  connector: string,
  dir: string,
  known: Readonly<Record<string, string>>,
  onPart: (part: SyncPart) => void | Promise<void>,
  options: CallOptions & { recursive?: boolean } = {},
): Promise<number> {
  const route = `/public/v1/files/sync/${nameSegment(connector, 'connector')}/${filePathSegments(dir, true)}`;
  const what = `Comparing ${connector}/${dir.replace(/^\/+|\/+$/g, '')} with the server`;
  const { MultipartParser } = await loadParser();
  return http.stream(
    {
      method: 'POST',
      path: route,
      query: { recursive: options.recursive === false ? 'false' : 'true' },
      what,
      signal: options.signal,
      body: JSON.stringify(known),
      contentType: 'application/json',
    },
    async (body, info) => {
      const contentType = info.contentType ?? '';
      const boundary = boundaryOf(contentType);
      let first = true;
      let parser: Parser | undefined;
      let count = 0;
      for await (const chunk of body as AsyncIterable<Buffer>) {
        if (first) {
          first = false;
          if (!boundary || !/^multipart\//i.test(contentType)) {
            throw new DatagrokError('unexpectedAnswer', `${what} failed: the server answered ${contentType || 'without a content type'}, not the multipart list of files the sync route sends.`);
          }
          parser = new MultipartParser(boundary, { maxFileSize: Number.MAX_SAFE_INTEGER, maxTotalSize: Number.MAX_SAFE_INTEGER, maxParts: Number.MAX_SAFE_INTEGER, maxHeaderSize: 64 * 1024 });
        }
        for (const part of (parser as Parser).write(chunk)) {
          count++;
          await onPart(toPart(part, what));
        }
      }
      if (parser) {
        try {
          parser.finish();
        } catch (err) {
          throw new DatagrokError('network', `${what} failed: the answer ended before its last file (${(err as Error).message}).`);
        }
      }
      return count;
    },
    { value: false },
  );
}

function toPart(part: { headers: Record<string, string | undefined>; filename?: string; content: Uint8Array[]; size: number }, what: string): SyncPart {
  const path = (part.filename ?? '').replace(/\\/g, '/').replace(/^\/+/, '');
  if (path === '' || path.split('/').some((s) => s === '' || s === '.' || s === '..')) {
    throw new DatagrokError('unexpectedAnswer', `${what} failed: the server sent a part without a usable file name (${JSON.stringify(part.filename ?? '')}).`);
  }
  const status = (part.headers['x-file-status'] ?? '').trim().toLowerCase();
  const eTag = part.headers['x-file-e-tag']?.trim();
  if (status === 'deleted') return { path, status: 'deleted' };
  if (status === 'not-modified') return { path, status: 'notModified', ...(eTag ? { eTag } : {}) };
  return { path, status: 'content', eTag: eTag ?? '', content: part.content, size: part.size };
}

// The folder sync route (not in the reference; Datagrok's Python client `sync_dir` uses it):
// POST /public/v1/files/sync/{connector}/{dir}?recursive= with the caller's `{relPath: eTag}` map. The answer is
// 204 when the folder holds nothing, else multipart: one part per file, `X-File-Status: deleted` or
// `not-modified`, or the file's new content with its `X-File-E-Tag`. Parts are parsed as they stream by a
// maintained multipart parser (multipasta); a part's content goes straight to a file of its own (or is
// dropped), so an answer costs a network chunk of memory, not the size of its files.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as multipasta from 'multipasta';
import { DatagrokError } from './errors';
import type { Transport } from './http';
import { filePathSegments, nameSegment } from './names';
import type { CallOptions, SyncPart } from './types';

export interface SyncFolderOptions extends CallOptions {
  recursive?: boolean;
  /**
   * Where the content of new and changed files goes: each part to a new file of its own in this folder (made
   * if missing), handed over in `file` once whole. Without it, content is read and dropped (size and sha256
   * are still given).
   */
  contentDir?: string;
}

type Event = { kind: 'start'; info: multipasta.PartInfo } | { kind: 'data'; chunk: Uint8Array } | { kind: 'end' };

/** The part's file name: the parser's reading of Content-Disposition, or `filename=` as the Python client reads it. */
function fileName(info: multipasta.PartInfo): string {
  if (info.filename !== undefined) return info.filename;
  const raw = info.headers['content-disposition'];
  const m = /filename="?([^";]+)"?/.exec(Array.isArray(raw) ? raw.join(';') : (raw ?? ''));
  return m ? m[1] : '';
}

function headerText(info: multipasta.PartInfo, name: string): string | undefined {
  const v = info.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** One part being received: its head, and for content its file (or nothing, when dropped) and hash. */
class Receiving {
  readonly path: string;
  readonly status: 'deleted' | 'notModified' | 'content';
  readonly eTag: string | undefined;
  private readonly hash = createHash('sha256');
  private size = 0;
  private handle: fsp.FileHandle | undefined;
  private file: string | undefined;

  constructor(info: multipasta.PartInfo, what: string) {
    const name = fileName(info);
    this.path = name.replace(/\\/g, '/').replace(/^\/+/, '');
    // A part with no name at all cannot be told apart from the others. Any other name is handed over as the
    // server sent it ('..' parts included): whoever writes it checks it (a skip with a reason, not a failed run).
    if (this.path === '') throw new DatagrokError('unexpectedAnswer', `${what} failed: the server sent a part without a file name (${JSON.stringify(name)}).`);
    const status = (headerText(info, 'x-file-status') ?? '').trim().toLowerCase();
    this.status = status === 'deleted' ? 'deleted' : status === 'not-modified' ? 'notModified' : 'content';
    this.eTag = headerText(info, 'x-file-e-tag')?.trim();
  }

  async open(contentDir: string | undefined): Promise<void> {
    if (this.status !== 'content' || contentDir === undefined) return;
    await fsp.mkdir(contentDir, { recursive: true });
    this.file = path.join(contentDir, `${randomBytes(8).toString('hex')}.part`);
    this.handle = await fsp.open(this.file, 'wx', 0o600);
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (this.status !== 'content') return;
    this.hash.update(chunk);
    this.size += chunk.length;
    if (this.handle) await this.handle.write(chunk);
  }

  async finish(): Promise<SyncPart> {
    await this.handle?.close();
    this.handle = undefined;
    if (this.status === 'deleted') return { path: this.path, status: 'deleted' };
    if (this.status === 'notModified') return { path: this.path, status: 'notModified', ...(this.eTag ? { eTag: this.eTag } : {}) };
    return { path: this.path, status: 'content', eTag: this.eTag ?? '', size: this.size, sha256: this.hash.digest('hex'), ...(this.file ? { file: this.file } : {}) };
  }

  /** A part cut short: its file goes (nothing half-written stays behind). */
  async abandon(): Promise<void> {
    await this.handle?.close().catch(() => undefined);
    if (this.file) await fsp.rm(this.file, { force: true });
  }
}

/**
 * Sends `known` ({relative path: eTag}) and hands each part to `onPart` in the order the server sends them,
 * once it is whole; resolves with the number of parts (0 for a 204). A failure removes the file of a part
 * not yet handed over; files already handed over are the caller's.
 */
export async function syncFolder(
  http: Transport,
  connector: string,
  dir: string,
  known: Readonly<Record<string, string>>,
  onPart: (part: SyncPart) => void | Promise<void>,
  options: SyncFolderOptions = {},
): Promise<number> {
  const route = `/public/v1/files/sync/${nameSegment(connector, 'connector')}/${filePathSegments(dir, true)}`;
  const what = `Comparing ${connector}/${dir.replace(/^\/+|\/+$/g, '')} with the server`;
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
      let parser: multipasta.Parser | undefined;
      const events: Event[] = [];
      let failure: string | undefined;
      let done = false;
      let current: Receiving | undefined;
      let count = 0;
      const handle = async () => {
        for (const e of events.splice(0)) {
          if (e.kind === 'start') {
            current = new Receiving(e.info, what);
            await current.open(options.contentDir);
          } else if (e.kind === 'data') await current?.write(e.chunk);
          else if (current) {
            const part = await current.finish();
            current = undefined;
            count++;
            await onPart(part);
          }
        }
      };
      try {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          if (!parser) {
            if (!/^multipart\//i.test(contentType) || !/boundary=/i.test(contentType)) {
              throw new DatagrokError(
                'unexpectedAnswer',
                `${what} failed: the server answered ${contentType || 'without a content type'}, not the multipart list of files the sync route sends.`,
              );
            }
            parser = multipasta.make({
              headers: { 'content-type': contentType },
              isFile: () => true,
              onField: () => undefined,
              onFile: (partInfo) => {
                events.push({ kind: 'start', info: partInfo });
                return (data) => events.push(data ? { kind: 'data', chunk: data } : { kind: 'end' });
              },
              onError: (e) => {
                failure ??= e._tag === 'ReachedLimit' ? `${e._tag} ${e.limit}` : e._tag;
              },
              onDone: () => {
                done = true;
              },
            });
          }
          parser.write(chunk);
          if (failure) throw new DatagrokError('unexpectedAnswer', `${what} failed: the server's answer is not a readable multipart list of files (${failure}).`);
          await handle();
        }
        if (parser && !done) {
          throw new DatagrokError('network', `${what} failed: the answer ended before its last file.`);
        }
        return count;
      } catch (err) {
        await current?.abandon();
        throw err;
      }
    },
    { value: false },
  );
}

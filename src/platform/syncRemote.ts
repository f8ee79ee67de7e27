// Folder sync, the server side: what the sync route says of the linked folder, against the base's ETags.
// Content the server sends (files new or changed since the base) is kept in `.datagrok/incoming/` so that
// the pull that follows a preview moves it into place without downloading it again.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { isDatagrokError } from '../api/errors';
import type { DatagrokApi, SyncPart } from '../api/types';
import type { IgnoreRules } from './syncLocal';
import type { BaseEntry, RemoteEntry } from './syncPlan';
import { STATE_DIR, type SyncLink } from './syncStore';

export const INCOMING_DIR = 'incoming';

export interface StagedRemote extends RemoteEntry {
  /** The received content, in `.datagrok/incoming/`, when it came with the answer. */
  staged?: string;
}

export interface RemoteView {
  files: Map<string, StagedRemote>;
  /** ETags of the ignored files the server has (kept so their content is not sent again). */
  ignored: Map<string, string>;
}

function join(dir: string, rel: string): string {
  return dir ? `${dir.replace(/\/+$/, '')}/${rel}` : rel;
}

/** Writes a part's chunks to a new file in `dir` and returns its path and sha256. */
async function stage(dir: string, n: number, part: Extract<SyncPart, { status: 'content' }>): Promise<{ file: string; hash: string }> {
  const file = path.join(dir, `${n}.part`);
  const hash = createHash('sha256');
  const handle = await fsp.open(file, 'w', 0o600);
  try {
    for (const chunk of part.content) hash.update(chunk);
    await handle.writev(part.content);
  } finally {
    await handle.close();
  }
  return { file, hash: hash.digest('hex') };
}

/**
 * Asks the server for the linked folder against `base` (and the ignored files' ETags); stages what it sends.
 * A folder the server does not have is empty when nothing was synced yet, and an error otherwise (a
 * connector renamed or unshared must not read as "every file deleted").
 */
export async function fetchRemote(
  api: DatagrokApi,
  folder: string,
  link: SyncLink,
  base: ReadonlyMap<string, BaseEntry>,
  ignoredKnown: ReadonlyMap<string, string>,
  rules: IgnoreRules,
  signal?: AbortSignal,
): Promise<RemoteView> {
  const known: Record<string, string> = {};
  for (const [p, e] of base) known[p] = e.etag;
  for (const [p, etag] of ignoredKnown) known[p] = etag;
  const incoming = path.join(folder, STATE_DIR, INCOMING_DIR);
  await fsp.rm(incoming, { recursive: true, force: true });
  await fsp.mkdir(incoming, { recursive: true });
  const view: RemoteView = { files: new Map(), ignored: new Map() };
  let n = 0;
  try {
    await api.syncFolder(
      link.connector,
      link.path,
      known,
      async (part) => {
        if (rules.ignores(part.path) || part.path.split('/').slice(0, -1).some((_, i, all) => rules.ignores(`${all.slice(0, i + 1).join('/')}/`))) {
          if (part.status !== 'deleted') view.ignored.set(part.path, part.status === 'content' ? part.eTag : (part.eTag ?? known[part.path] ?? ''));
          return;
        }
        if (part.status === 'deleted') return;
        if (part.status === 'notModified') {
          const etag = part.eTag ?? known[part.path];
          if (etag !== undefined) view.files.set(part.path, { etag });
          return;
        }
        const { file, hash } = await stage(incoming, n++, part);
        view.files.set(part.path, { etag: part.eTag, hash, size: part.size, staged: file });
      },
      { signal },
    );
  } catch (err) {
    if (isDatagrokError(err, 'notFound') && base.size === 0) return view;
    if (isDatagrokError(err, 'notFound')) {
      throw new Error(
        `${link.connector}/${link.path} is not on the server any more (${(err as Error).message}). Nothing was changed here; check the connector's name and your access, or link the folder again.`,
      );
    }
    throw err;
  }
  return view;
}

function split(rel: string): [string, string] {
  const cut = rel.lastIndexOf('/');
  return cut < 0 ? ['', rel] : [rel.slice(0, cut), rel.slice(cut + 1)];
}

/** The server ETags known during a run, by folder: what a recheck of one file sends for its folder. */
export class RemoteEtags {
  private readonly dirs = new Map<string, Map<string, string>>();

  constructor(entries: Iterable<[string, string]>) {
    for (const [p, etag] of entries) this.set(p, etag);
  }

  set(rel: string, etag: string): void {
    const [dir, name] = split(rel);
    const names = this.dirs.get(dir) ?? new Map<string, string>();
    this.dirs.set(dir, names);
    names.set(name, etag);
  }

  delete(rel: string): void {
    const [dir, name] = split(rel);
    this.dirs.get(dir)?.delete(name);
  }

  folder(dir: string): ReadonlyMap<string, string> {
    return this.dirs.get(dir) ?? new Map();
  }
}

/**
 * The server's ETag of one file now (undefined when it has none), through the sync route on the file's
 * folder alone (not recursive). The ETags known for the other files of that folder go with it, so only what
 * changed since comes with content. `guess` stands in for the file's own ETag (after an upload: its sha256).
 */
export async function etagNow(api: DatagrokApi, link: SyncLink, rel: string, etags: RemoteEtags, guess: string | undefined, signal?: AbortSignal): Promise<string | undefined> {
  const [dir, name] = split(rel);
  const known: Record<string, string> = Object.fromEntries(etags.folder(dir));
  delete known[name];
  if (guess !== undefined) known[name] = guess;
  let etag: string | undefined;
  try {
    await api.syncFolder(
      link.connector,
      join(link.path, dir),
      known,
      (part) => {
        if (part.path !== name) return;
        if (part.status === 'notModified') etag = part.eTag ?? guess;
        else if (part.status === 'content') etag = part.eTag;
      },
      { signal, recursive: false },
    );
  } catch (err) {
    if (isDatagrokError(err, 'notFound')) return undefined;
    throw err;
  }
  return etag;
}

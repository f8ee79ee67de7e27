// Folder sync, the server side: what the sync route says of the linked folder, against the base's ETags.
// Content the server sends (files new or changed since the base) streams into `.datagrok/incoming/` (in the
// linked folder, so on its disk) so that the pull that follows a preview moves it into place without
// downloading it again.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { isDatagrokError } from '../../api/errors';
import type { DatagrokApi } from '../../api/datagrokApi';
import { nameProblem } from '../confinement';
import type { IgnoreRules } from './local';
import type { BaseEntry, RemoteEntry } from './plan';
import { STATE_DIR, type SyncLink } from './store';

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
  // A path is left alone when it or one of its folders is ignored; each folder is asked once.
  const folders = new Map<string, boolean>();
  const folderIgnored = (dir: string): boolean => {
    let answer = folders.get(dir);
    if (answer === undefined) {
      const cut = dir.lastIndexOf('/');
      answer = (cut > 0 && folderIgnored(dir.slice(0, cut))) || rules.ignores(`${dir}/`);
      folders.set(dir, answer);
    }
    return answer;
  };
  const ignored = (rel: string): boolean => {
    const cut = rel.lastIndexOf('/');
    return (cut > 0 && folderIgnored(rel.slice(0, cut))) || rules.ignores(rel);
  };
  try {
    await api.syncFolder(
      link.connector,
      link.path,
      known,
      async (part) => {
        // A name no local file can have ('..' parts, too long…) is not matched against the rules: the plan makes it a skip.
        if (nameProblem(part.path) === undefined && ignored(part.path)) {
          if (part.status === 'content' && part.file) await fsp.rm(part.file, { force: true });
          if (part.status !== 'deleted') view.ignored.set(part.path, part.status === 'content' ? part.eTag : (part.eTag ?? known[part.path] ?? ''));
          return;
        }
        if (part.status === 'deleted') return;
        if (part.status === 'notModified') {
          const etag = part.eTag ?? known[part.path];
          if (etag !== undefined) view.files.set(part.path, { etag });
          return;
        }
        view.files.set(part.path, { etag: part.eTag, hash: part.sha256, size: part.size, staged: part.file });
      },
      { signal, contentDir: incoming },
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

/** Uploads whose server copies are checked with one request per folder: at most this many files … */
const CHECK_FILES = 32;
/** … or this many bytes to upload (the longer a batch takes, the older its check when its last file goes). */
const CHECK_BYTES = 64 * 1024 * 1024;

/**
 * Before the uploads of a run: the server's ETag of each file right before it is uploaded, asked for a batch of
 * consecutive uploads at a time (one sync-route request per folder of the batch, when the batch's first upload
 * starts) instead of one request per file, which would list the whole folder again for every file.
 */
export class UploadChecks {
  private readonly batchOf = new Map<number, string[]>();
  private readonly answers = new Map<string[], Promise<Map<string, string>>>();

  constructor(
    private readonly api: DatagrokApi,
    private readonly link: SyncLink,
    private readonly etags: RemoteEtags,
    actions: readonly { path: string; action: string; bytes: number }[],
    private readonly signal?: AbortSignal,
  ) {
    let batch: string[] = [];
    let bytes = 0;
    actions.forEach((a, i) => {
      if (a.action !== 'upload') return;
      if (batch.length >= CHECK_FILES || (batch.length > 0 && bytes + a.bytes > CHECK_BYTES)) {
        batch = [];
        bytes = 0;
      }
      batch.push(a.path);
      bytes += a.bytes;
      this.batchOf.set(i, batch);
    });
  }

  /** The server's ETag now of the file the upload at `index` (in the run's actions) writes; undefined: none. */
  async before(index: number, rel: string): Promise<string | undefined> {
    const batch = this.batchOf.get(index);
    if (!batch) return undefined;
    let answer = this.answers.get(batch);
    if (!answer) {
      answer = this.ask(batch);
      this.answers.set(batch, answer);
    }
    return (await answer).get(rel);
  }

  private async ask(batch: readonly string[]): Promise<Map<string, string>> {
    const byFolder = new Map<string, Set<string>>();
    for (const rel of batch) {
      const [dir, name] = split(rel);
      byFolder.set(dir, (byFolder.get(dir) ?? new Set()).add(name));
    }
    const out = new Map<string, string>();
    await Promise.all(
      [...byFolder].map(async ([dir, names]) => {
        const known: Record<string, string> = Object.fromEntries(this.etags.folder(dir));
        try {
          await this.api.syncFolder(
            this.link.connector,
            join(this.link.path, dir),
            known,
            (part) => {
              if (!names.has(part.path)) return;
              const etag = part.status === 'content' ? part.eTag : part.status === 'notModified' ? (part.eTag ?? known[part.path]) : undefined;
              if (etag !== undefined) out.set(join(dir, part.path), etag);
            },
            { signal: this.signal, recursive: false },
          );
        } catch (err) {
          if (!isDatagrokError(err, 'notFound')) throw err; // no such folder: none of its files is there
        }
      }),
    );
    return out;
  }
}

// Folder sync, what is kept in the linked folder's `.datagrok/`: the link (`sync.json`, no key in it), the base
// of the last sync (`sync-state.json` plus a journal of the files synced since it was written, so a cancelled
// or failed sync resumes from the last file it finished), and the local content hashes already computed.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { BaseEntry } from './plan';

export const STATE_DIR = '.datagrok';
const LINK_FILE = 'sync.json';
const STATE_FILE = 'sync-state.json';
const JOURNAL_FILE = 'sync-journal.jsonl';
const HASHES_FILE = 'sync-hashes.json';

export interface SyncLink {
  /** The connector in platform form (`demo:Home`) or REST form (`demo.Home`). */
  connector: string;
  /** The folder within the connector, '' for its root, with '/'. */
  path: string;
}

/** Writes `text` to `file` through a temporary sibling renamed into place: never a half-written file. */
export async function writeAtomic(file: string, text: string): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fsp.writeFile(temp, text);
    await fsp.rename(temp, file);
  } catch (err) {
    await fsp.rm(temp, { force: true });
    throw err;
  }
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await fsp.readFile(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`Cannot read ${file}: ${(err as Error).message}. Fix or delete the file, then try again.`);
  }
}

export async function readLink(folder: string): Promise<SyncLink | undefined> {
  const raw = (await readJson(path.join(folder, STATE_DIR, LINK_FILE))) as Partial<SyncLink> | undefined;
  if (raw === undefined) return undefined;
  if (typeof raw?.connector !== 'string' || raw.connector === '' || typeof raw.path !== 'string') {
    throw new Error(`${path.join(folder, STATE_DIR, LINK_FILE)} does not name a connector and a path. Link the folder again.`);
  }
  return { connector: raw.connector, path: raw.path };
}

export async function writeLink(folder: string, link: SyncLink): Promise<void> {
  await writeAtomic(path.join(folder, STATE_DIR, LINK_FILE), `${JSON.stringify(link, null, 2)}\n`);
}

/** The base of the last sync, updated file by file (journal) and written whole at the end of a run. */
export class SyncBase {
  readonly entries = new Map<string, BaseEntry>();
  /** ETags of server files the ignore rules leave alone: sent back so their content is not sent again. */
  readonly ignoredRemote = new Map<string, string>();
  private journal: Promise<fsp.FileHandle> | undefined;

  private constructor(private readonly dir: string) {}

  static async load(folder: string): Promise<SyncBase> {
    const base = new SyncBase(path.join(folder, STATE_DIR));
    const raw = (await readJson(path.join(base.dir, STATE_FILE))) as { base?: Record<string, [string, string, number]>; ignoredRemote?: Record<string, string> } | undefined;
    for (const [p, [etag, hash, size]] of Object.entries(raw?.base ?? {})) base.entries.set(p, { etag, hash, size });
    for (const [p, etag] of Object.entries(raw?.ignoredRemote ?? {})) base.ignoredRemote.set(p, etag);
    const journal = await fsp.readFile(path.join(base.dir, JOURNAL_FILE), 'utf8').catch(() => '');
    for (const line of journal.split('\n')) {
      if (!line.trim()) continue;
      try {
        const { p, b } = JSON.parse(line) as { p: string; b: [string, string, number] | null };
        if (b) base.entries.set(p, { etag: b[0], hash: b[1], size: b[2] });
        else base.entries.delete(p);
      } catch {
        // a line cut short by a crash: the file it names is compared again
      }
    }
    return base;
  }

  /**
   * Records one file's new base (undefined: no longer tracked), so a cancelled run resumes here. Resolves once
   * the line is in the journal; lines recorded while a write is under way go together in the next write (a
   * run of 10,000 files costs tens of writes, not 10,000).
   */
  record(p: string, entry: BaseEntry | undefined): Promise<void> {
    if (entry) this.entries.set(p, entry);
    else this.entries.delete(p);
    this.pending.push(`${JSON.stringify({ p, b: entry ? [entry.etag, entry.hash, entry.size] : null })}\n`);
    if (!this.batch) {
      this.batch = this.writing.then(() => this.writeBatch());
      this.writing = this.batch.catch(() => undefined);
    }
    return this.batch;
  }

  /** Lines not yet written, and the write that will take them (after the one under way). */
  private pending: string[] = [];
  private batch: Promise<void> | undefined;
  private writing: Promise<void> = Promise.resolve();

  private async writeBatch(): Promise<void> {
    const lines = this.pending;
    this.pending = [];
    this.batch = undefined;
    this.journal ??= fsp.mkdir(this.dir, { recursive: true }).then(() => fsp.open(path.join(this.dir, JOURNAL_FILE), 'a'));
    await (await this.journal).write(lines.join(''));
  }

  /** Writes the whole base and empties the journal. */
  async save(): Promise<void> {
    await this.close();
    const base: Record<string, [string, string, number]> = {};
    for (const [p, e] of [...this.entries].sort(([a], [b]) => (a < b ? -1 : 1))) base[p] = [e.etag, e.hash, e.size];
    await writeAtomic(path.join(this.dir, STATE_FILE), JSON.stringify({ version: 1, base, ignoredRemote: Object.fromEntries(this.ignoredRemote) }));
    await fsp.rm(path.join(this.dir, JOURNAL_FILE), { force: true });
  }

  async close(): Promise<void> {
    await this.writing;
    const journal = this.journal;
    this.journal = undefined;
    await (await journal?.catch(() => undefined))?.close();
  }
}

/** sha256 of local files already read, valid while size and mtime stay the same (as git's index). */
export interface HashCache {
  /** path → [size, mtimeMs, sha256, when hashed (ms)] */
  entries: Map<string, [number, number, string, number]>;
  /** Whether entries changed since it was loaded or saved (an unchanged cache is not written again). */
  dirty?: boolean;
}

export async function loadHashes(folder: string): Promise<HashCache> {
  const raw = (await readJson(path.join(folder, STATE_DIR, HASHES_FILE)).catch(() => undefined)) as Record<string, [number, number, string, number]> | undefined;
  return { entries: new Map(Object.entries(raw ?? {})), dirty: false };
}

export async function saveHashes(folder: string, cache: HashCache): Promise<void> {
  if (cache.dirty === false) return;
  cache.dirty = false;
  await writeAtomic(path.join(folder, STATE_DIR, HASHES_FILE), JSON.stringify(Object.fromEntries(cache.entries)));
}

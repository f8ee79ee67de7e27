// Folder sync, the local side: the ignore rules (`.datagrokignore`, gitignore syntax, through the `ignore`
// package) and a scan of the linked folder that gives each file's content hash (sha256), reading only the
// files whose size or modification time changed since they were last hashed.
import { createHash } from 'node:crypto';
import { createReadStream, promises as fsp, statSync } from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { IGNORE_FILE } from './plan';
import { type HashCache, STATE_DIR } from './store';

export { IGNORE_FILE };
/** Left alone unless `.datagrokignore` says otherwise (with `!`); `.datagrok/` (the sync's own state) always. */
export const DEFAULT_IGNORES = ['.git/', '.venv/', 'node_modules/', '__pycache__/', `${STATE_DIR}/`];

export interface IgnoreRules {
  /** Whether a relative path ('/'-separated) is left alone; a folder's path ends with '/'. */
  ignores(rel: string): boolean;
}

export async function loadIgnoreRules(folder: string): Promise<IgnoreRules> {
  const text = await fsp.readFile(path.join(folder, IGNORE_FILE), 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return '';
    throw new Error(`Cannot read ${IGNORE_FILE} in ${folder}: ${err.message}.`);
  });
  const rules: Ignore = ignore().add(DEFAULT_IGNORES).add(text);
  return {
    // The sync's own state, whatever the case of its name: never compared, sent or written over.
    ignores: (rel) => {
      const lower = rel.toLowerCase();
      return lower === STATE_DIR || lower.startsWith(`${STATE_DIR}/`) || rules.ignores(rel);
    },
  };
}

export interface LocalFile {
  hash: string;
  size: number;
}

export function sha256File(file: string, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    const stream = createReadStream(file, { highWaterMark: 1024 * 1024, signal });
    stream.on('data', (chunk) => hash.update(chunk));
    stream.on('error', reject);
    stream.on('end', () => resolve(hash.digest('hex')));
  });
}

/** A hash computed less than this long after the file's last change may miss a change in the same tick. */
const RACY_MS = 2000;
/** Files stat'ed in one go before the event loop gets a turn (about a millisecond of work). */
const STAT_BATCH = 256;
/** Files read for their hash at once. */
const HASHING = 4;

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Every file of the folder the rules do not ignore, with its sha256 and size. Symbolic links are not followed
 * (a link may point outside the folder). `cache` is read and updated; `cache.dirty` tells whether it changed.
 * Like git's index: a file whose size and modification time are those of its last hash is not read again.
 * The stats are synchronous, in batches with a turn of the event loop between them: 10,000 stats cost tens of
 * milliseconds that way, against several hundred through the thread pool's promises.
 */
export async function scanLocal(folder: string, rules: IgnoreRules, cache: HashCache, signal?: AbortSignal): Promise<Map<string, LocalFile>> {
  const found: { rel: string; full: string }[] = [];
  const dirs: { dir: string; prefix: string }[] = [{ dir: folder, prefix: '' }];
  // Folders read a few at a time (each readdir is one system call; the list stays in order per folder).
  while (dirs.length > 0) {
    signal?.throwIfAborted();
    const batch = dirs.splice(0, 16);
    const listed = await Promise.all(batch.map((d) => fsp.readdir(d.dir, { withFileTypes: true }).then((entries) => ({ ...d, entries }))));
    for (const { dir, prefix, entries } of listed) {
      for (const e of entries) {
        const rel = prefix + e.name;
        if (e.isDirectory()) {
          if (!rules.ignores(`${rel}/`)) dirs.push({ dir: path.join(dir, e.name), prefix: `${rel}/` });
        } else if (e.isFile() && !rules.ignores(rel)) found.push({ rel, full: path.join(dir, e.name) });
      }
    }
  }
  const out = new Map<string, LocalFile>();
  const seen = new Set<string>();
  const toHash: { rel: string; full: string; size: number; mtimeMs: number }[] = [];
  for (let i = 0; i < found.length; i++) {
    if (i % STAT_BATCH === STAT_BATCH - 1) {
      signal?.throwIfAborted();
      await nextTurn();
    }
    const { rel, full } = found[i];
    const info = statSync(full, { throwIfNoEntry: false });
    if (!info?.isFile()) continue;
    seen.add(rel);
    const known = cache.entries.get(rel);
    if (known && known[0] === info.size && known[1] === info.mtimeMs && known[3] - info.mtimeMs > RACY_MS) out.set(rel, { hash: known[2], size: info.size });
    else toHash.push({ rel, full, size: info.size, mtimeMs: info.mtimeMs });
  }
  let next = 0;
  const worker = async () => {
    while (next < toHash.length) {
      signal?.throwIfAborted();
      const { rel, full, size, mtimeMs } = toHash[next++];
      const at = Date.now();
      const hash = await sha256File(full, signal).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return undefined; // deleted since the stat: not there
        throw err;
      });
      if (hash === undefined) {
        seen.delete(rel);
        continue;
      }
      cache.entries.set(rel, [size, mtimeMs, hash, at]);
      cache.dirty = true;
      out.set(rel, { hash, size });
    }
  };
  await Promise.all(Array.from({ length: HASHING }, worker));
  for (const rel of cache.entries.keys()) {
    if (!seen.has(rel)) {
      cache.entries.delete(rel);
      cache.dirty = true;
    }
  }
  return out;
}

/**
 * The hash and size of one local file now (undefined when it is gone). With `cache`, a file whose size and
 * time are those of its last hash is not read again.
 */
export async function localNow(folder: string, rel: string, cache?: HashCache): Promise<LocalFile | undefined> {
  const full = path.join(folder, ...rel.split('/'));
  const info = await fsp.stat(full).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  const known = cache?.entries.get(rel);
  if (known && known[0] === info.size && known[1] === info.mtimeMs && known[3] - info.mtimeMs > RACY_MS) return { hash: known[2], size: info.size };
  return { hash: await sha256File(full), size: info.size };
}

/**
 * Whether the folder's file system tells `A.txt` from `a.txt`: a probe file in `.datagrok/` (the sync's own),
 * asked for under its name in upper case. macOS and Windows folders usually answer true, Linux ones false.
 */
export async function isCaseInsensitive(folder: string): Promise<boolean> {
  const dir = path.join(folder, STATE_DIR);
  await fsp.mkdir(dir, { recursive: true });
  const name = `case-probe-${process.pid}-${Date.now().toString(36)}`;
  await fsp.writeFile(path.join(dir, name), '');
  try {
    return (await fsp.stat(path.join(dir, name.toUpperCase())).catch(() => undefined)) !== undefined;
  } finally {
    await fsp.rm(path.join(dir, name), { force: true });
  }
}

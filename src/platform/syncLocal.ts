// Folder sync, the local side: the ignore rules (`.datagrokignore`, gitignore syntax, through the `ignore`
// package) and a scan of the linked folder that gives each file's content hash (sha256), reading only the
// files whose size or modification time changed since they were last hashed.
import { createHash } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { type HashCache, STATE_DIR } from './syncStore';

export const IGNORE_FILE = '.datagrokignore';
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
    ignores: (rel) => rel === STATE_DIR || rel.startsWith(`${STATE_DIR}/`) || rules.ignores(rel),
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

/**
 * Every file of the folder the rules do not ignore, with its sha256 and size. Symbolic links are not followed
 * (a link may point outside the folder). `cache` is read and updated.
 */
export async function scanLocal(folder: string, rules: IgnoreRules, cache: HashCache, signal?: AbortSignal): Promise<Map<string, LocalFile>> {
  const found: { rel: string; full: string }[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = await fsp.readdir(dir, { withFileTypes: true });
    for (const e of entries) {
      const rel = prefix + e.name;
      if (e.isDirectory()) {
        if (!rules.ignores(`${rel}/`)) await walk(path.join(dir, e.name), `${rel}/`);
      } else if (e.isFile() && !rules.ignores(rel)) found.push({ rel, full: path.join(dir, e.name) });
    }
  };
  await walk(folder, '');
  const out = new Map<string, LocalFile>();
  const seen = new Set<string>();
  let next = 0;
  const worker = async () => {
    while (next < found.length) {
      signal?.throwIfAborted();
      const { rel, full } = found[next++];
      const info = await fsp.stat(full).catch(() => undefined);
      if (!info?.isFile()) continue;
      seen.add(rel);
      const known = cache.entries.get(rel);
      if (known && known[0] === info.size && known[1] === info.mtimeMs && known[3] - info.mtimeMs > RACY_MS) {
        out.set(rel, { hash: known[2], size: info.size });
        continue;
      }
      const at = Date.now();
      const hash = await sha256File(full, signal);
      cache.entries.set(rel, [info.size, info.mtimeMs, hash, at]);
      out.set(rel, { hash, size: info.size });
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  for (const rel of cache.entries.keys()) if (!seen.has(rel)) cache.entries.delete(rel);
  return out;
}

/** The hash and size of one local file now (undefined when it is gone). */
export async function localNow(folder: string, rel: string): Promise<LocalFile | undefined> {
  const full = path.join(folder, ...rel.split('/'));
  const info = await fsp.stat(full).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  return { hash: await sha256File(full), size: info.size };
}

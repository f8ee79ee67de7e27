// Files that hold the user's API key (.datagrok/.env, the grok CLI's ~/.grok/config.yaml) are the user's
// alone: mode 0600 on POSIX. vscode.workspace.fs cannot set a mode (a file it creates is 0644 under the
// usual umask: anyone on the machine could read the key), so the file is written here with node:fs: a
// temporary sibling created 0600, then renamed over the target, so the key is never in a file others
// can read, not even for a moment, and a reader never sees half a file. No vscode here.
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { access, mkdir, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import * as path from 'node:path';
import { badInput } from '../api/errors';

/** Read and write for the owner, nothing for anyone else. */
export const PRIVATE_MODE = 0o600;

export interface PrivateFileWrite {
  /** The file written: the path given, or the file its symlink leads to. */
  path: string;
  /**
   * The permission bits the file had when others could read or write it (e.g. 0o644): it was tightened
   * to 0600, which the caller tells the user. Undefined for a new file, one already private, or on Windows.
   */
  tightenedFrom?: number;
}

function code(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException)?.code;
}

/**
 * The file a path names, through symlinks (a dotfile kept as a link stays a link): its own, or, when it
 * does not exist yet, its nearest existing folder's.
 */
async function resolved(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch (e) {
    if (code(e) === 'ENOTDIR') throw badInput(`Could not write ${file}: a part of its path is a file, not a folder. Move that file away, then try again.`);
    if (code(e) !== 'ENOENT') throw e;
    const parent = path.dirname(path.resolve(file));
    return parent === path.resolve(file) ? parent : path.join(await resolved(parent), path.basename(file));
  }
}

function inside(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Where `file` would be written, links followed; refused (nothing written) when that is outside `root`:
 * a link in a workspace folder (a repository can hold one) does not carry the key, or anything, out.
 */
export async function confinedTarget(file: string, root: string): Promise<string> {
  const target = await resolved(file);
  if (!inside(target, await resolved(root))) {
    throw badInput(`Refused to write ${file}: a link leads it to ${target}, outside ${root}. Remove the link, then try again.`);
  }
  return target;
}

async function statOf(file: string): Promise<Stats | undefined> {
  try {
    return await stat(file);
  } catch (e) {
    if (code(e) === 'ENOENT') return undefined;
    throw e;
  }
}

/** A system error while writing, as a sentence that names the file and what to do. */
function writeFailure(file: string, e: unknown): Error {
  const c = code(e);
  if (c === 'EACCES' || c === 'EPERM' || c === 'EROFS') {
    return badInput(`Could not write ${file}: its folder is not writable (${c}). Make ${path.dirname(file)} writable, then try again.`);
  }
  return e instanceof Error ? e : new Error(String(e));
}

/**
 * Writes `data` to `file` readable and writable by the owner only (0600 on POSIX), creating its folder.
 * A file that was looser (0644, 0640…) becomes 0600 (`tightenedFrom` says what it was); a symlink is
 * written through, unless it leads outside `inside`. A file the user made read-only is refused, as any
 * editor would, not replaced.
 */
export async function writePrivateFile(file: string, data: string | Uint8Array, options: { inside?: string } = {}): Promise<PrivateFileWrite> {
  const target = options.inside === undefined ? await resolved(file) : await confinedTarget(file, options.inside);
  const before = await statOf(target);
  if (before && !before.isFile()) throw badInput(`Could not write ${target}: it is not a file. Move it away, then try again.`);
  if (before) {
    try {
      await access(target, constants.W_OK);
    } catch {
      throw badInput(`Could not write ${target}: the file is read-only. Make it writable (chmod u+w), then try again.`);
    }
  }
  const dir = path.dirname(target);
  const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await mkdir(dir, { recursive: true });
    // 'wx': a new file only (never through a link someone put at the name); the mode before a byte is written.
    const handle = await open(temp, 'wx', PRIVATE_MODE);
    try {
      await handle.chmod(PRIVATE_MODE); // the umask can only have removed bits; this makes it exactly 0600
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (e) {
    await unlink(temp).catch(() => undefined);
    throw writeFailure(target, e);
  }
  const loose = before !== undefined && process.platform !== 'win32' && (before.mode & 0o077) !== 0;
  return { path: target, tightenedFrom: loose ? before.mode & 0o777 : undefined };
}

/** Whether only its owner can read or write the file (always on Windows, where modes do not apply); absent: true. */
export async function isPrivateFile(file: string): Promise<boolean> {
  if (process.platform === 'win32') return true;
  const s = await statOf(file);
  return s === undefined || (s.mode & 0o077) === 0;
}

/** "0644": permission bits as `ls -l` users and chmod write them. */
export function modeText(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, '0')}`;
}

/**
 * Writes a file holding the key (the .env, the grok config) readable by the user alone, links followed only
 * inside `inside` when given; a tightened mode is logged.
 */
export async function writeKeyFile(file: string, text: string, log: { info(message: string): void }, inside?: string): Promise<PrivateFileWrite> {
  const written = await writePrivateFile(file, text, { inside });
  if (written.tightenedFrom !== undefined) log.info(`${written.path} was readable by others (mode ${modeText(written.tightenedFrom)}): rewritten readable only by you (0600)`);
  return written;
}

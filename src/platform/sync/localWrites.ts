// Writes into the linked folder that replace or keep a user's file: a "keep both" copy beside it, and
// content received with the comparison moved into place whole.
import { randomBytes } from 'node:crypto';
import { constants, promises as fsp } from 'node:fs';
import * as path from 'node:path';

/** Copies `rel` to a free name beside it, `report (local copy).csv`, then `… 2`: what a "keep both" keeps. */
export async function keepLocalCopy(folder: string, rel: string): Promise<string> {
  const dir = path.posix.dirname(rel);
  const ext = path.posix.extname(rel);
  const stem = path.posix.basename(rel, ext);
  for (let n = 1; ; n++) {
    // A long name is cut so that the copy's name stays within what file systems take (255 bytes).
    const suffix = ` (local copy${n > 1 ? ` ${n}` : ''})${ext}`;
    let kept = stem;
    while (kept.length > 1 && Buffer.byteLength(kept + suffix) > 255) kept = kept.slice(0, -1);
    const name = `${kept}${suffix}`;
    const candidate = dir === '.' ? name : `${dir}/${name}`;
    try {
      await fsp.copyFile(path.join(folder, ...rel.split('/')), path.join(folder, ...candidate.split('/')), constants.COPYFILE_EXCL);
      return candidate;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/**
 * Moves content received with the comparison into place, if it is still whole (its size as received): a rename,
 * so the target is either the old file or the new one, never half of it. On another disk than the linked
 * folder's root it is copied to a temporary name beside the target first. False when it is gone or cut short
 * (it is then downloaded again).
 */
export async function placeStaged(staged: string, size: number | undefined, full: string, exists: boolean): Promise<boolean> {
  const info = await fsp.stat(staged).catch(() => undefined);
  if (!info?.isFile() || info.size !== size) return false;
  const mode = exists ? (await fsp.stat(full)).mode & 0o777 : 0o666 & ~process.umask();
  await fsp.chmod(staged, mode);
  try {
    await fsp.rename(staged, full);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    const temp = `${full}.${randomBytes(4).toString('hex')}.dgtmp`;
    try {
      await fsp.copyFile(staged, temp);
      await fsp.rename(temp, full);
    } finally {
      await fsp.rm(temp, { force: true });
      await fsp.rm(staged, { force: true });
    }
  }
  return true;
}

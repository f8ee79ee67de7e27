// The folders a tool acting for a model (the language-model tools, the MCP server) may read local files
// from: the workspace folders it was given, nothing else. A path is judged twice: as written (so a path
// outside is refused without touching the disk, and nothing tells whether it exists), then with every
// symlink resolved (so a link inside the workspace cannot lead out of it). No vscode here.
import { lstat, mkdir, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { badInput } from '../api/errors';

function inside(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The message a refused path gets: it names the folders that are allowed. */
export function outsideMessage(p: string, roots: readonly string[]): string {
  if (roots.length === 0) {
    return `Refused to read "${p}": no workspace folder was given, so no local file can be read. Open a folder in VS Code (or start the MCP server with DATAGROK_WORKSPACE_FOLDERS) and put the file there.`;
  }
  return `Refused to read "${p}": it is outside the workspace. Only files inside ${roots.map((r) => `"${r}"`).join(', ')} can be read; copy the file there first.`;
}

async function real(p: string): Promise<string | undefined> {
  try {
    return await realpath(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw e;
  }
}

/**
 * The absolute path `p` (relative to `base`, or to the first root) names, when it lies inside one of
 * `roots` both as written and with symlinks resolved; otherwise a badInput error naming the roots. A
 * path inside that does not exist is returned as is: reading it then says "no such file".
 */
export async function confine(p: string, roots: readonly string[], base?: string): Promise<string> {
  const start = base ?? roots[0];
  if (roots.length === 0 || (!start && !path.isAbsolute(p))) throw badInput(outsideMessage(p, roots));
  const file = path.resolve(start ?? '', p);
  if (!roots.some((r) => inside(file, path.resolve(r)))) throw badInput(outsideMessage(p, roots));
  const resolved = await real(file);
  if (resolved === undefined) return file;
  const realRoots = await Promise.all(roots.map(async (r) => (await real(r)) ?? path.resolve(r)));
  if (!realRoots.some((r) => inside(resolved, r))) throw badInput(outsideMessage(p, roots));
  return resolved;
}

/** Where a file named by someone else may be written, or why not (in words a user can act on). */
export type WriteTarget = { full: string; reason?: undefined } | { full?: undefined; reason: string };

/** Longest file name (one path part) ext4, APFS and NTFS take, in bytes. */
const MAX_NAME_BYTES = 255;
const WINDOWS_DEVICE = /^(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³])(\..*)?$/i;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what Windows refuses in names
const WINDOWS_FORBIDDEN = /[<>:"|?*\\\u0000-\u001f]/;

/**
 * Why `rel` ('/'-separated, as a server names a file) cannot be a file's path here, or undefined. Checked
 * before the disk is touched: empty, '.' and '..' parts; a part longer than file systems allow; and on
 * Windows, device names (`CON`, `nul.txt`), characters it refuses and parts ending in a dot or a space.
 */
export function nameProblem(rel: string, platform: NodeJS.Platform = process.platform): string | undefined {
  if (rel.includes('\0')) return 'its name holds a NUL character, which no file system takes';
  for (const part of rel.split('/')) {
    if (part === '' || part === '.' || part === '..') return `"${shorten(rel)}" is not a usable file name here (an empty, "." or ".." part would leave its folder)`;
    const bytes = Buffer.byteLength(part);
    if (bytes > MAX_NAME_BYTES) return `its name "${shorten(part)}" is ${bytes} bytes long; file systems take at most ${MAX_NAME_BYTES} (rename it on the server)`;
    if (platform === 'win32') {
      if (WINDOWS_DEVICE.test(part)) return `"${part}" is a device name on Windows (like CON or NUL), so no file can have it here (rename it on the server)`;
      if (WINDOWS_FORBIDDEN.test(part)) return `"${shorten(part)}" holds a character Windows does not allow in file names (< > : " | ? * \\) (rename it on the server)`;
      if (/[. ]$/.test(part)) return `"${shorten(part)}" ends in a dot or a space, which Windows drops from file names (rename it on the server)`;
    }
  }
  return undefined;
}

function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 40)}…${text.slice(-12)}` : text;
}

async function lstatOrNone(p: string) {
  try {
    return await lstat(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * Makes `rel`'s folders under `root` and returns where the file goes, when the real path of its folder (links
 * resolved) lies inside the real `root` and the name itself is neither a link nor a folder; otherwise the reason,
 * and nothing outside `root` was made. A link inside `root` to a folder inside it is followed; one that leads
 * out is not. With `create: false` no folder is made (a missing one is then fine: nothing is there to reach).
 */
export async function writeTarget(root: string, rel: string, options: { create?: boolean } = {}): Promise<WriteTarget> {
  const problem = nameProblem(rel);
  if (problem) return { reason: problem };
  try {
    const realRoot = await realpath(root);
    const parts = rel.split('/');
    let dir = path.resolve(root);
    for (let i = 0; i < parts.length - 1; i++) {
      dir = path.join(dir, parts[i]);
      const shown = parts.slice(0, i + 1).join('/');
      const info = await lstatOrNone(dir);
      if (!info) {
        if (options.create === false) return { full: path.join(dir, ...parts.slice(i + 1)) };
        await mkdir(dir).catch((e: NodeJS.ErrnoException) => {
          if (e.code !== 'EEXIST') throw e;
        });
        continue;
      }
      if (info.isSymbolicLink()) {
        const to = await real(dir);
        if (to === undefined || !inside(to, realRoot)) return { reason: `${shown} is a link to ${to ?? 'nothing'}, outside ${root}; links out of the folder are not followed` };
      }
      if (!(await stat(dir)).isDirectory()) return { reason: `${shown} is a file here, not a folder` };
    }
    const full = path.join(dir, parts[parts.length - 1]);
    // The folder's real path once more, now that it exists: a link swapped in meanwhile is caught here.
    const parent = await realpath(dir);
    if (!inside(parent, realRoot)) return { reason: `${parts.slice(0, -1).join('/')} leads to ${parent}, outside ${root}; nothing was written there` };
    const info = await lstatOrNone(full);
    if (info?.isSymbolicLink()) return { reason: `${rel} is a link here; it is not written through (remove the link to take the server's file)` };
    if (info?.isDirectory()) return { reason: `${rel} is a folder here, so a file of that name cannot be written` };
    return { full };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENAMETOOLONG') return { reason: `its path is longer than this file system takes (${Buffer.byteLength(rel)} bytes)` };
    if (code === 'ENOTDIR' || code === 'EEXIST') return { reason: `a file here stands where ${rel} needs a folder` };
    if (code === 'EACCES' || code === 'EPERM') return { reason: `no permission to write ${rel} here (${code})` };
    throw e;
  }
}

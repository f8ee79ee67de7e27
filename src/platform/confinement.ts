// The folders a tool acting for a model (the language-model tools, the MCP server) may read local files
// from: the workspace folders it was given, nothing else. A path is judged twice: as written (so a path
// outside is refused without touching the disk, and nothing tells whether it exists), then with every
// symlink resolved (so a link inside the workspace cannot lead out of it). No vscode here.
import { realpath } from 'node:fs/promises';
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

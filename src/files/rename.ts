// Renaming a connector file: the server has no move, so the file is copied (downloaded to a private
// temporary file, uploaded under the new name), the copy is verified, and only then the old one is
// deleted. A rename that names the same server file is refused; a case-only rename goes through a
// temporary name, since on a case-insensitive store the upload would land on the source itself.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { isDatagrokError } from '../api/errors';
import { baseName, compareFiles, displayPath, parentPath } from './connectorPaths';
import type { Target } from './fileCache';
import { toFileSystemError } from './fileErrors';

/** What was downloaded: the bytes to put back, their size and hash. */
interface Copy {
  file: string;
  size: number;
  hash: string;
}

/** Refuses a rename onto the same server file (the connector written differently): it would delete the only copy. */
export function refuseSameFile(from: Target, to: Target): void {
  if (compareFiles(from, to) === 'same') {
    throw vscode.FileSystemError.NoPermissions(
      `${displayPath(from)} and ${displayPath(to)} are the same file on ${from.authority} (connector names are not case-sensitive): nothing was changed.`,
    );
  }
}

/**
 * Copies `from` to `to` on their server, verifies the copy, then deletes `from`; `targetExisted` says
 * whether `to` is overwritten. The caller has refused the same file (refuseSameFile).
 */
export async function moveOnServer(from: Target, to: Target, targetExisted: boolean): Promise<void> {
  const relation = compareFiles(from, to);
  await checkCanDelete(from);
  // The copy passes through a private folder (0700, the file 0600): other local users never see it.
  const folder = await mkdtemp(join(tmpdir(), 'datagrok-rename-'));
  try {
    const copy = await download(from, join(folder, 'copy'));
    if (relation === 'caseOnly') await renameCase(from, to, copy);
    else await copyThenDelete(from, to, copy, targetExisted);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function download(from: Target, file: string): Promise<Copy> {
  try {
    await from.client.downloadFile(from.connector, from.path, { file });
  } catch (error) {
    throw toFileSystemError(error);
  }
  const size = (await stat(file)).size;
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return { file, size, hash: hash.digest('hex') };
}

async function upload(to: Target, path: string, copy: Copy): Promise<void> {
  try {
    await to.client.uploadFile(to.connector, path, { file: copy.file });
  } catch (error) {
    throw toFileSystemError(error);
  }
  await verify(to, path, copy);
}

/**
 * The copy is on the server as it was read: its size in the folder listing, or (a server that cannot
 * list, or gives no size) its content read back and compared.
 */
async function verify(t: Target, path: string, copy: Copy): Promise<void> {
  const name = baseName(path);
  let size: number | undefined;
  try {
    size = (await t.client.listFiles(t.connector, parentPath(path))).find((e) => e.isFile && e.name === name)?.size;
  } catch {
    size = undefined;
  }
  let same: boolean;
  if (size !== undefined) same = size === copy.size;
  else {
    try {
      const data = await t.client.readFile(t.connector, path, { maxBytes: copy.size + 1 });
      same = createHash('sha256').update(data).digest('hex') === copy.hash;
    } catch {
      same = false;
    }
  }
  if (!same) {
    throw new vscode.FileSystemError(
      `Renaming failed: the copy ${displayPath({ connector: t.connector, path })} could not be verified on ${t.authority}` +
        `${size !== undefined ? ` (${size} bytes where ${copy.size} were written)` : ''}. The original was kept.`,
    );
  }
}

async function copyThenDelete(from: Target, to: Target, copy: Copy, targetExisted: boolean): Promise<void> {
  await upload(to, to.path, copy);
  try {
    await from.client.deleteFile(from.connector, from.path);
  } catch (error) {
    // Undo the copy so that nothing is half-done (an overwritten file cannot be brought back).
    const undone =
      !targetExisted &&
      (await to.client.deleteFile(to.connector, to.path).then(
        () => true,
        () => false,
      ));
    const why = error instanceof Error ? error.message : String(error);
    throw new vscode.FileSystemError(
      `Renaming ${displayPath(from)} failed: ${why}${undone ? ` The copy ${displayPath(to)} was removed again.` : ` ${displayPath(to)} was written; ${displayPath(from)} is still there.`}`,
    );
  }
}

/**
 * `report.csv` → `Report.csv`: on a case-insensitive store both names are one file, so uploading the
 * new name first would write onto the source and the delete would then remove the only copy. The
 * content goes to a temporary name first, then the old name is deleted and the new one written.
 */
async function renameCase(from: Target, to: Target, copy: Copy): Promise<void> {
  const dir = parentPath(from.path);
  const holding = `${dir ? `${dir}/` : ''}.${baseName(from.path)}.datagrok-rename-${randomUUID().slice(0, 8)}`;
  await upload(from, holding, copy);
  try {
    await from.client.deleteFile(from.connector, from.path);
  } catch (error) {
    await from.client.deleteFile(from.connector, holding).catch(() => undefined);
    throw toFileSystemError(error);
  }
  try {
    await upload(to, to.path, copy);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new vscode.FileSystemError(
      `Renaming ${displayPath(from)} to ${displayPath(to)} failed: ${why} The content is kept as ${displayPath({ connector: from.connector, path: holding })}.`,
    );
  }
  await from.client.deleteFile(from.connector, holding).catch(() => undefined);
}

/**
 * Asks the server to delete a file that does not exist: a server with the DELETE route answers
 * "not found", one without it says the route is missing. Nothing is changed either way.
 */
async function checkCanDelete(t: Target): Promise<void> {
  const dir = parentPath(t.path);
  const probe = `${dir ? `${dir}/` : ''}.datagrok-vscode-probe-${randomUUID()}`;
  try {
    await t.client.deleteFile(t.connector, probe);
  } catch (error) {
    if (isDatagrokError(error, 'notFound')) return;
    if (isDatagrokError(error, 'unsupported')) {
      throw vscode.FileSystemError.NoPermissions(`Renaming ${displayPath(t)} is not supported by this server (${t.authority}): it cannot delete files. Nothing was changed.`);
    }
    throw toFileSystemError(error);
  }
}

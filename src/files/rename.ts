// Renaming a connector file: the server has no move, so the file is copied (downloaded to a temporary
// file, uploaded under the new name) and the old one deleted; refused up front when the server cannot
// delete, and undone when the delete fails.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { isDatagrokError } from '../api/errors';
import type { Target } from './fileCache';
import { toFileSystemError } from './fileErrors';
import { displayPath, parentPath } from './connectorPaths';

/** Copies `from` to `to` on their server, then deletes `from`; `targetExisted` says whether `to` was overwritten. */
export async function moveOnServer(from: Target, to: Target, targetExisted: boolean): Promise<void> {
  await checkCanDelete(from);
  const temp = join(tmpdir(), `datagrok-rename-${randomUUID()}`);
  try {
    try {
      await from.client.downloadFile(from.connector, from.path, { file: temp });
      await to.client.uploadFile(to.connector, to.path, { file: temp });
    } catch (error) {
      throw toFileSystemError(error);
    }
    try {
      await from.client.deleteFile(from.connector, from.path);
    } catch (error) {
      // Undo the copy so that nothing is half-done (an overwritten file cannot be brought back).
      const undone = !targetExisted && (await to.client.deleteFile(to.connector, to.path).then(() => true, () => false));
      const why = error instanceof Error ? error.message : String(error);
      throw new vscode.FileSystemError(
        `Renaming ${displayPath(from)} failed: ${why}${undone ? ` The copy ${displayPath(to)} was removed again.` : ` ${displayPath(to)} was written; ${displayPath(from)} is still there.`}`,
      );
    }
  } finally {
    await rm(temp, { force: true });
  }
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
      throw vscode.FileSystemError.NoPermissions(
        `Renaming ${displayPath(t)} is not supported by this server (${t.authority}): it cannot delete files. Nothing was changed.`,
      );
    }
    throw toFileSystemError(error);
  }
}

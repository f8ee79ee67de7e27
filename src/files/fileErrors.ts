// How connector-file failures reach VS Code: FileSystemErrors of the right code, and the message for a
// file too large for an editor.
import * as vscode from 'vscode';
import { DatagrokError, isDatagrokError } from '../api/errors';
import { maxEditorBytes } from '../core/limits';
import { type ConnectorPath, displayPath } from './connectorPaths';

/** The error VS Code shows (FileNotFound, NoPermissions, Unavailable or a plain one) for a client failure. */
export function toFileSystemError(error: unknown): Error {
  if (error instanceof vscode.FileSystemError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof DatagrokError)) return new vscode.FileSystemError(message);
  switch (error.kind) {
    case 'notFound':
      return vscode.FileSystemError.FileNotFound(message);
    case 'unauthorized':
    case 'forbidden':
    case 'unsupported':
      return vscode.FileSystemError.NoPermissions(message);
    case 'unavailable':
    case 'network':
    case 'timeout':
      return vscode.FileSystemError.Unavailable(message);
    default:
      return new vscode.FileSystemError(message);
  }
}

/** A failed read as VS Code shows it. A missing file is forgotten first (`forget`): known files only ever name files that exist. */
export async function readFailure(t: ConnectorPath, error: unknown, forget: () => Promise<void>): Promise<Error> {
  if (!isDatagrokError(error, 'notFound')) return toFileSystemError(error);
  await forget();
  return vscode.FileSystemError.FileNotFound(`${displayPath(t)} was not found on ${t.authority}.`);
}

/** The stat of a folder (connectors keep no folder times). */
export function directory(): vscode.FileStat {
  return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
}

export function tooLargeMessage(t: ConnectorPath, size: number | undefined): string {
  const limitMb = maxEditorBytes() / (1024 * 1024);
  const actual = size === undefined ? 'larger than' : `${(size / (1024 * 1024)).toFixed(1)} MB, larger than`;
  return (
    `${displayPath(t)} is ${actual} ${limitMb} MB, the largest file opened in an editor ` +
    '(setting datagrok.files.maxEditorFileSizeMB). Download it to disk instead: "Datagrok: Download Connector File".'
  );
}

/**
 * A save over a file someone else changed on the server since it was read here, keeping its size (VS
 * Code's own "file is newer" check compares sizes and cannot see it). The editor stays dirty.
 */
export function changedOnServer(t: ConnectorPath): vscode.FileSystemError {
  return new vscode.FileSystemError(
    `${displayPath(t)} was changed on ${t.authority} after you opened it (someone else saved it), so it was not overwritten and your edit is kept. ` +
      'To keep both: copy your text, run "File: Revert File" to load theirs, then merge and save.',
  );
}

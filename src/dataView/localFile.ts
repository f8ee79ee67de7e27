// The file a data view reads: a local CSV in place; anything else (a function's result, a connector
// file) copied once to a temporary file, since the reader needs random access to a file on disk.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';

export async function localFileOf(uri: vscode.Uri): Promise<string> {
  if (uri.scheme === 'file') return uri.fsPath;
  const folder = path.join(os.tmpdir(), 'datagrok-data-view', createHash('sha256').update(uri.toString()).digest('hex').slice(0, 16));
  await fs.promises.mkdir(folder, { recursive: true });
  const file = path.join(folder, path.posix.basename(uri.path).replace(/[^\w.\- ]+/g, '_') || 'data.csv');
  await fs.promises.writeFile(file, await vscode.workspace.fs.readFile(uri));
  return file;
}

// What the runs suites share: a temporary folder for parameter files, commands run, result documents.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';

let dir = '';

/** A fresh temporary folder for the suite's files (removed by `removeRunsDir`). */
export function makeRunsDir(): void {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-runs-'));
}

/** A path in the suite's temporary folder. */
export function inRunsDir(name: string): string {
  return path.join(dir, name);
}

export function removeRunsDir(): void {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}

export function write(name: string, text: string): vscode.Uri {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return vscode.Uri.file(file);
}

export function run<T = unknown>(command: string, arg?: unknown): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, arg));
}

export function resultDocument(name: string): vscode.TextDocument {
  const found = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'datagrok-result' && path.posix.basename(d.uri.path) === name);
  assert.ok(found.length > 0, `no result document "${name}" is open: ${vscode.workspace.textDocuments.map((d) => d.uri.toString()).join(', ')}`);
  return found[found.length - 1];
}

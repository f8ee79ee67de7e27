// What the connector-file suites share: URIs of the emulator's files, what the emulator stores, and
// waiting for the editor to catch up.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { control, emulator } from './support';

export interface StateFile {
  connector: string;
  path: string;
  bytes: number;
  sha256: string;
}

export const DEMO = 'System:DemoFiles';
export const APPDATA = 'System:AppData';
export const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

export function run<T = unknown>(command: string, options?: unknown): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, options));
}

export async function filesOnServer(): Promise<StateFile[]> {
  return (await control<{ files: StateFile[] }>('GET', 'state')).files;
}

export async function fileOnServer(connector: string, filePath: string): Promise<StateFile | undefined> {
  return (await filesOnServer()).find((f) => f.connector === connector && f.path === filePath);
}

/** The URI the extension uses: datagrok://<host[:port]>/<Connector.Rest>/<path>. */
export function fileUri(connector: string, filePath = ''): vscode.Uri {
  const rest = connector.replaceAll(':', '.');
  return vscode.Uri.from({ scheme: 'datagrok', authority: new URL(emulator.url).host, path: `/${rest}${filePath ? `/${filePath}` : ''}` });
}

export async function rejectsWith(promise: Thenable<unknown>, pattern: RegExp): Promise<string> {
  let message = '';
  await assert.rejects(Promise.resolve(promise), (error: unknown) => {
    message = error instanceof Error ? error.message : String(error);
    return true;
  });
  assert.match(message, pattern);
  return message;
}

export async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

/** Drops the file system's content cache (kept 5 s), as changing the editor size limit does: no waiting in tests. */
export async function dropCachedContents(): Promise<void> {
  const files = vscode.workspace.getConfiguration('datagrok.files');
  await files.update('maxEditorFileSizeMB', 49, vscode.ConfigurationTarget.Global);
  await files.update('maxEditorFileSizeMB', undefined, vscode.ConfigurationTarget.Global);
}

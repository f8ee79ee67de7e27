// Shared by the integration test files: the emulator the launcher started, and signing in to it.
// Runs inside the real VS Code extension host (Node 24, global fetch).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { DatagrokExtensionApi } from '../../src/extension';

function required(name: string): string {
  const value = process.env[name];
  assert.ok(value, `${name} is not set: run the suite through the test host (npm run test:integration)`);
  return value;
}

export const emulator = {
  /** Base URL ending in /api. */
  get url(): string {
    return required('DATAGROK_TEST_URL');
  },
  get key(): string {
    return required('DATAGROK_TEST_KEY');
  },
  /** Origin for the /__emulator control routes. */
  get control(): string {
    return required('DATAGROK_TEST_CONTROL');
  },
};

/** Calls an emulator control route (see test/emulator/README.md) and returns its JSON, if any. */
export async function control<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${emulator.control}/__emulator/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.strictEqual(response.status, 200, `emulator control ${method} ${path} answered ${response.status}`);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Reseeds the emulator's demo data and clears its config, faults and request log. */
export function resetEmulator(): Promise<void> {
  return control('POST', 'reset');
}

/** Signs in to the emulator with the test key through the real command. */
export async function signIn(): Promise<void> {
  await vscode.commands.executeCommand('datagrok.signIn', { url: emulator.url, apiKey: emulator.key });
}

export interface EmulatorRequest {
  method: string;
  path: string;
  status: number;
  authorized: boolean;
}

export async function emulatorRequests(): Promise<EmulatorRequest[]> {
  return control<EmulatorRequest[]>('GET', 'requests');
}

export async function clearEmulatorRequests(): Promise<void> {
  await control('DELETE', 'requests');
}

/** A trusted workspace's suite, started: the emulator reset, signed in; the extension's API and the first workspace folder's path. */
export async function startSignedIn(context: Mocha.Context): Promise<{ api: DatagrokExtensionApi; folder: string }> {
  requireWorkspaceTrust(context, true);
  await resetEmulator();
  await signIn();
  const api = await vscode.extensions.getExtension<DatagrokExtensionApi>('datagrok-community.datagrok-vscode')!.activate();
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(folder, 'a workspace folder is open');
  return { api, folder };
}

/** Polls `read` every 100 ms until it gives a value (not undefined or false), for `ms` at the most. */
export async function until<T>(what: string, read: () => T | undefined | false, ms = 30000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * For a suite that needs a trusted (or an untrusted) workspace. The launcher sets the trust mode: a
 * suite made for the other mode is skipped, and a workspace whose trust is not what the launcher set up
 * fails the suite instead of silently skipping it.
 */
export function requireWorkspaceTrust(context: Mocha.Context, trusted: boolean): void {
  const expectTrusted = process.env['DATAGROK_TEST_TRUST'] !== 'on';
  assert.strictEqual(
    vscode.workspace.isTrusted,
    expectTrusted,
    `the workspace is ${vscode.workspace.isTrusted ? 'trusted' : 'untrusted'}, but the launcher set it up ${expectTrusted ? 'trusted' : 'untrusted'}`,
  );
  if (trusted !== expectTrusted) context.skip();
}

/**
 * The raw text of a MarkdownString as the reader sees it: `appendText` escapes Markdown's punctuation,
 * and VS Code 1.103 escapes more of it than 1.139 does (`-` in an id becomes `\-`).
 */
export function unescapeMarkdown(value: string): string {
  return value.replace(/\\([\\`*_{}[\]()#+\-.!~|<>])/g, '$1');
}

/** The web workbench asks before opening a page: seen in 1.103, not in 1.139, the two releases the suite runs on (groups.test.ts). */
export function webWorkbenchAsksBeforeOpening(): boolean {
  const [major, minor] = vscode.version.split('.').map(Number);
  return vscode.env.uiKind === vscode.UIKind.Web && major === 1 && minor < 139;
}

/** Writes `text` to `dir/name` and shows it in an editor. */
export async function writeAndShow(dir: string, name: string, text: string): Promise<vscode.TextDocument> {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  await vscode.window.showTextDocument(document);
  return document;
}

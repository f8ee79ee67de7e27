// What the table suites share (tables.test.ts: push and open; tableTransfers.test.ts: large tables): the
// emulator's tables, the signed-in user's login, and the suite's setup.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { control, resetEmulator, signIn } from './support';

export interface StateTable {
  ID: string;
  name: string;
  project: string;
  bytes: number;
  sha256: string;
}

/** The emulator's signed-in user: every table it pushes is named `demo:<project>:<table>`. */
export const LOGIN = 'demo';

export const tablesOnServer = async () => (await control<{ tables: StateTable[] }>('GET', 'state')).tables;

export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

export function run<T = unknown>(command: string, arg?: unknown): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, arg));
}

/**
 * Registers a table suite's setup (the emulator's demo data, signed in, a temporary folder) and cleanup;
 * its `dir` is there once the suite's `before` has run.
 */
export function tablesSuite(): { readonly dir: string } {
  let dir: string;

  before(async () => {
    await resetEmulator();
    await signIn();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-tables-'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  return {
    get dir() {
      return dir;
    },
  };
}

// The setup the connector-file suites share (files.test.ts, fileTransfers.test.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createClient } from '../../src/api';
import type { DatagrokApi } from '../../src/api/datagrokApi';
import { control, emulator, resetEmulator, signIn } from './support';

/**
 * Registers the setup and cleanup of a connector-file suite: the emulator's demo data, signed in, a
 * client of its own and a temporary folder; after each test the listing and DELETE routes are on again.
 * Its `api` and `dir` are there once the suite's `before` has run.
 */
export function connectorFilesSuite(): { readonly api: DatagrokApi; readonly dir: string } {
  let api: DatagrokApi;
  let dir: string;

  before(async () => {
    await resetEmulator();
    await signIn();
    api = createClient({ baseUrl: emulator.url, apiKey: emulator.key });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-files-'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('datagrok.files').update('maxEditorFileSizeMB', undefined, vscode.ConfigurationTarget.Global);
    await control('DELETE', 'faults');
    await api.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  afterEach(async () => {
    await control('POST', 'config', { listing: true, deleteFiles: true });
  });

  return {
    get api() {
      return api;
    },
    get dir() {
      return dir;
    },
  };
}

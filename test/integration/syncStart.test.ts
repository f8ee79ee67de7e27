// Folder sync in the real VS Code host: a workspace folder holding a link (.datagrok/sync.json) gets its Source
// Control entry, compared with the server, without any sync command: the workspaceContains activation event
// (when the extension was not active yet), the light start loading the features for it, and the feature
// giving each linked folder its entry.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createClient } from '../../src/api';
import type { DatagrokExtensionApi } from '../../src/extension';
import { eventually } from './fileSupport';
import { log } from './index';
import { emulator, emulatorRequests, clearEmulatorRequests, resetEmulator, signIn } from './support';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';
const CONNECTOR = 'demo:Home';

describe('folder sync (a linked folder at start)', () => {
  let folder: string;

  before(async () => {
    await resetEmulator();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-sync-start-'));
    fs.mkdirSync(path.join(folder, '.datagrok'));
    fs.writeFileSync(path.join(folder, '.datagrok', 'sync.json'), JSON.stringify({ connector: CONNECTOR, path: 'atstart' }));
    fs.writeFileSync(path.join(folder, 'mine.txt'), 'mine');
    const colleague = createClient({ baseUrl: emulator.url, apiKey: emulator.key });
    await colleague.uploadFile(CONNECTOR, 'atstart/theirs.csv', { data: 'a\n1\n' });
    await colleague.close();
  });
  after(async () => {
    const index = vscode.workspace.workspaceFolders?.findIndex((f) => f.uri.fsPath === folder) ?? -1;
    if (index >= 0) {
      const removed = new Promise<void>((resolve) => {
        const d = vscode.workspace.onDidChangeWorkspaceFolders(() => {
          d.dispose();
          resolve();
        });
      });
      vscode.workspace.updateWorkspaceFolders(index, 1);
      await removed;
    }
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('shows the linked folder in Source Control, compared, without a sync command', async () => {
    const extension = vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID);
    assert.ok(extension);
    const wasActive = extension.isActive;
    await clearEmulatorRequests();
    const count = vscode.workspace.workspaceFolders?.length ?? 0;
    assert.ok(vscode.workspace.updateWorkspaceFolders(count, 0, { uri: vscode.Uri.file(folder), name: 'linked' }), 'VS Code adds the folder');
    // Not active before: the folder's link activates the extension (workspaceContains), no call of ours does.
    if (!wasActive) await eventually(() => extension.isActive, 'activation by workspaceContains:**/.datagrok/sync.json', 20_000);
    log(`  (the extension was ${wasActive ? 'already active' : 'activated by the linked folder'})`);
    const api = extension.exports;
    // The features load for the link (nothing of ours read a view or ran a command)...
    await eventually(() => api.lightStart.featuresLoaded, 'the features loaded for the linked folder', 20_000);
    // ...and the folder has its entry.
    await eventually(() => api.syncView.linked.includes(folder), 'a Source Control entry for the linked folder', 20_000);
    // Signed in (from an earlier suite, or now): compared with the server, no sync command run.
    await signIn();
    const badge = (rel: string) => api.syncView.provideFileDecoration(vscode.Uri.file(path.join(folder, rel)))?.badge;
    await eventually(() => badge('mine.txt') === 'A' && badge('theirs.csv') === 'S', 'the comparison shown as badges', 20_000);
    assert.ok(api.syncView.wasCompared(folder));
    const syncCalls = (await emulatorRequests()).filter((r) => r.path.includes('/files/sync/'));
    assert.ok(syncCalls.length >= 1, 'compared through the sync route');
  });
});

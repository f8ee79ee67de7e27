// Folder sync in the real VS Code host against the emulator: datagrok.sync.link / status / run called with
// options (they never ask), bad options rejected with nothing written, deletes only when confirmed, a
// conflict reported and not resolved, and the explorer's badges for what changed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createClient } from '../../src/api';
import type { DatagrokApi } from '../../src/api/datagrokApi';
import type { DatagrokExtensionApi } from '../../src/extension';
import { rejectsWith, run } from './fileSupport';
import { emulator, emulatorRequests, clearEmulatorRequests, resetEmulator, signIn } from './support';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';
const CONNECTOR = 'demo:Home';

type Action = { path: string; action: string; bytes: number; reason?: string };

describe('folder sync (commands)', () => {
  let folder: string;
  let uri: vscode.Uri;
  let colleague: DatagrokApi;
  let api: DatagrokExtensionApi;
  const local = (rel: string) => path.join(folder, ...rel.split('/'));
  const serverText = async (rel: string) => Buffer.from(await colleague.readFile(CONNECTOR, `team/${rel}`)).toString();

  before(async () => {
    await resetEmulator();
    await signIn();
    api = (await vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.activate()) as DatagrokExtensionApi;
    colleague = createClient({ baseUrl: emulator.url, apiKey: emulator.key });
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-sync-host-'));
    uri = vscode.Uri.file(folder);
  });
  after(async () => {
    await colleague.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('links with options, moving nothing; bad options are rejected and write nothing', async () => {
    await rejectsWith(run('datagrok.sync.link', { folder: uri, path: 'team' }), /connector/);
    await rejectsWith(run('datagrok.sync.link', { folder: uri, connector: CONNECTOR, path: '../up' }), /"\.\."/);
    assert.equal(fs.existsSync(path.join(folder, '.datagrok')), false);
    await clearEmulatorRequests();
    const link = await run<{ folder: vscode.Uri; connector: string; path: string }>('datagrok.sync.link', { folder: uri, connector: CONNECTOR, path: 'team' });
    assert.equal(link.folder.fsPath, folder);
    assert.deepEqual([link.connector, link.path], [CONNECTOR, 'team']);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(folder, '.datagrok', 'sync.json'), 'utf8')), { connector: CONNECTOR, path: 'team' });
    // The folder's requests (files and sync routes); another feature's background reads (a notebook's checks
    // reading function signatures after the sign-in) are not this test's subject.
    const folderRequests = async () => (await emulatorRequests()).filter((r) => !r.path.includes('/public/v1/functions'));
    assert.deepEqual(await folderRequests(), [], 'linking sends nothing');
    await rejectsWith(run('datagrok.sync.run', { folder: uri, direction: 'sideways' }), /direction must be one of 'pull', 'push', 'both'/);
    await rejectsWith(run('datagrok.sync.run', { folder: uri, direction: 'both', onConflict: 'merge' }), /onConflict/);
    assert.deepEqual(await folderRequests(), [], 'a rejected run sends nothing');
  });

  it('status lists both sides; a dry run writes nothing; a run moves only what changed and shows badges', async () => {
    await colleague.uploadFile(CONNECTOR, 'team/theirs.csv', { data: 'a,b\n1,2\n' });
    fs.writeFileSync(local('mine.txt'), 'mine');
    const status = await run<{ path: string; state: string }[]>('datagrok.sync.status', { folder: uri });
    assert.deepEqual(status, [
      { path: 'mine.txt', state: 'localNew' },
      { path: 'theirs.csv', state: 'remoteNew' },
    ]);
    const decoration = api.syncView.provideFileDecoration(vscode.Uri.file(local('mine.txt')));
    assert.equal((decoration as vscode.FileDecoration | undefined)?.badge, 'A');
    const dry = await run<Action[]>('datagrok.sync.run', { folder: uri, direction: 'both', dryRun: true });
    assert.deepEqual(
      dry.map((a) => [a.path, a.action, a.bytes]),
      [
        ['mine.txt', 'upload', 4],
        ['theirs.csv', 'download', 8],
      ],
    );
    assert.equal(fs.existsSync(local('theirs.csv')), false);
    await assert.rejects(serverText('mine.txt'));
    const done = await run<Action[]>('datagrok.sync.run', { folder: uri, direction: 'both' });
    assert.deepEqual(done.map((a) => [a.path, a.action, a.bytes]).sort(), [
      ['mine.txt', 'upload', 4],
      ['theirs.csv', 'download', 8],
    ]);
    assert.equal(fs.readFileSync(local('theirs.csv'), 'utf8'), 'a,b\n1,2\n');
    assert.equal(await serverText('mine.txt'), 'mine');
    const after = await run<{ path: string; state: string }[]>('datagrok.sync.status', { folder: uri });
    assert.ok(
      after.every((s) => s.state === 'same'),
      JSON.stringify(after),
    );
    assert.equal(api.syncView.provideFileDecoration(vscode.Uri.file(local('mine.txt'))), undefined);
  });

  it('a delete is a skip until confirmed; a conflict with ask is reported and neither copy changes', async () => {
    fs.rmSync(local('mine.txt'));
    const skipped = await run<Action[]>('datagrok.sync.run', { folder: uri, direction: 'push' });
    assert.deepEqual(
      skipped.map((a) => [a.path, a.action]),
      [['mine.txt', 'skip']],
    );
    assert.match(skipped[0].reason ?? '', /propagateDeletes/);
    assert.equal(await serverText('mine.txt'), 'mine');
    const deleted = await run<Action[]>('datagrok.sync.run', { folder: uri, direction: 'push', propagateDeletes: true });
    assert.deepEqual(
      deleted.map((a) => [a.path, a.action]),
      [['mine.txt', 'deleteRemote']],
    );
    await assert.rejects(serverText('mine.txt'));

    fs.writeFileSync(local('theirs.csv'), 'a,b\n1,2\nmine\n');
    await colleague.uploadFile(CONNECTOR, 'team/theirs.csv', { data: 'a,b\n1,2\ntheirs\n' });
    const reported = await run<Action[]>('datagrok.sync.run', { folder: uri, direction: 'both' });
    assert.deepEqual(
      reported.map((a) => [a.path, a.action]),
      [['theirs.csv', 'conflict']],
    );
    assert.equal(fs.readFileSync(local('theirs.csv'), 'utf8'), 'a,b\n1,2\nmine\n');
    assert.equal(await serverText('theirs.csv'), 'a,b\n1,2\ntheirs\n');
    const badge = api.syncView.provideFileDecoration(vscode.Uri.file(local('theirs.csv'))) as vscode.FileDecoration | undefined;
    assert.equal(badge?.badge, '!');
    const mine = await run<Action[]>('datagrok.sync.run', { folder: uri, direction: 'both', onConflict: 'mine' });
    assert.deepEqual(
      mine.map((a) => [a.path, a.action]),
      [['theirs.csv', 'upload']],
    );
    assert.equal(await serverText('theirs.csv'), 'a,b\n1,2\nmine\n');
  });
});

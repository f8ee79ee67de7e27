// Signed out means signed out: after Sign Out, nothing the last session loaded (groups, functions,
// tables, dashboards, files) is given again, and every command that needs the server rejects with the
// sign-in message, whatever it had cached, even a search that was still running when the user signed
// out. Through the real commands, views and file system against the emulator.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Group } from '../../src/api/types';
import type { DatagrokExtensionApi } from '../../src/extension';
import { DEMO, eventually, fileUri, rejectsWith, run } from './fileSupport';
import { clearEmulatorRequests, control, emulatorRequests, resetEmulator, signIn } from './support';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';
/** The connection's one answer while signed out (src/connection/signInFailure.ts notSignedIn). */
const SIGN_IN = /^You are not signed in to 127\.0\.0\.1:\d+\. Run "Datagrok: Sign In" and paste your API key\.$/;

describe('Signed out means signed out', function () {
  this.timeout(60_000);
  let api: DatagrokExtensionApi;
  const target = () => vscode.Uri.file(path.join(os.tmpdir(), `dg-signed-out-${process.pid}.md`));

  before(async () => {
    await resetEmulator();
    await signIn();
    api = (await vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.activate()) as DatagrokExtensionApi;
  });

  afterEach(async () => {
    await control('DELETE', 'faults');
    await signIn();
  });

  it('after Sign Out, every command that needs the server rejects with the sign-in message, whatever the last session loaded', async () => {
    // What a session loads and keeps: a group search, the functions catalog, the tables and dashboards
    // lists, a connector file and a download.
    assert.deepEqual(
      (await run<Group[]>('datagrok.groups.search', { text: 'Chemists' })).map((g) => g.name),
      ['Chemists'],
    );
    assert.ok((await run<unknown[]>('datagrok.functions.search', { text: 'Add' })).length > 0);
    assert.ok((await api.tablesTree.getChildren()).length > 0, 'the Tables view lists tables');
    assert.ok((await api.dashboardsTree.getChildren()).length > 0, 'the Dashboards view lists dashboards');
    assert.ok((await vscode.workspace.fs.readFile(fileUri(DEMO, 'readme.md'))).byteLength > 0);
    await run('datagrok.files.download', { connector: DEMO, path: 'readme.md', target: target() });

    await run('datagrok.signOut', {});
    await clearEmulatorRequests();
    const refused: [string, unknown][] = [
      ['datagrok.groups.search', { text: 'Chemists' }],
      ['datagrok.groups.requestMembership', { groupId: 'c0000000-0000-4000-8000-000000000001' }],
      ['datagrok.functions.search', { text: 'Add' }],
      ['datagrok.functions.run', { function: 'Demo:Add', params: { a: 1, b: 1 } }],
      ['datagrok.tables.open', { name: 'Demo:demog' }],
      ['datagrok.dashboards.share', { id: 'd0000000-0000-4000-8000-000000000001', groups: ['Chemists'] }],
      ['datagrok.files.download', { connector: DEMO, path: 'readme.md', target: target() }],
    ];
    for (const [command, options] of refused) {
      const message = await rejectsWith(run(command, options), SIGN_IN);
      assert.match(message, SIGN_IN, command);
    }
    assert.deepEqual(await emulatorRequests(), [], 'signed out, nothing was sent');
    assert.deepEqual(await api.groupsTree.getChildren(), []);
    assert.deepEqual(await api.tablesTree.getChildren(), []);
    assert.deepEqual(await api.dashboardsTree.getChildren(), []);

    // Signed in again, the same commands answer from the server.
    await signIn();
    assert.deepEqual(
      (await run<Group[]>('datagrok.groups.search', { text: 'Chemists' })).map((g) => g.name),
      ['Chemists'],
    );
    assert.ok(
      (await emulatorRequests()).some((r) => r.path.endsWith('/groups/lookup')),
      'asked the server again',
    );
  });

  it('a search still running at Sign Out rejects with the sign-in message instead of answering, and is not kept', async () => {
    // Answers held far longer than the test runs (Sign Out ends them at once), and for every such request:
    // a background read of the same route must not take the delay from the search, nor a loaded machine outlast it.
    await control('POST', 'faults', [
      { match: 'GET /api/public/v1/groups/lookup', delayMs: 60_000, count: 20 },
      { match: 'GET /api/public/v1/functions', delayMs: 60_000, count: 20 },
    ]);
    await clearEmulatorRequests();
    const groups = run<Group[]>('datagrok.groups.search', { text: 'Biologists' });
    const functions = run<unknown[]>('datagrok.functions.search', { text: 'Filter' });
    // Both requests have reached the server (with the key) before the user signs out.
    const arrived = async () => {
      const paths = (await emulatorRequests()).map((r) => r.path);
      return paths.some((p) => p.endsWith('/groups/lookup')) && paths.some((p) => p.endsWith('/public/v1/functions'));
    };
    await eventually(arrived, 'both searches to reach the server');
    await run('datagrok.signOut', {});
    await rejectsWith(groups, SIGN_IN);
    await rejectsWith(functions, SIGN_IN);
    await rejectsWith(run('datagrok.groups.search', { text: 'Biologists' }), SIGN_IN);
    await control('DELETE', 'faults');

    await signIn();
    await clearEmulatorRequests();
    assert.deepEqual(
      (await run<Group[]>('datagrok.groups.search', { text: 'Biologists' })).map((g) => g.name),
      ['Biologists'],
    );
    assert.ok(
      (await emulatorRequests()).some((r) => r.path.endsWith('/groups/lookup')),
      'the answer of the ended session was not kept',
    );
  });
});

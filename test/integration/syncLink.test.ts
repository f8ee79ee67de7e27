// Link Folder as a user runs it from the explorer, in the real host against the emulator: the connector
// and the folder within it are quick picks that show at once and fill as the server answers; the folder
// step offers the connector's folders, the local folder's name first ("Create '<name>'" when the server has
// none); a failed listing shows in the pick with Retry. The picks are answered with VS Code's own
// quick-input commands (the first choice, or the next line), as the keyboard would.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { control, emulatorRequests, clearEmulatorRequests, resetEmulator, signIn } from './support';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs Link Folder on `folder` from the explorer's menu (a Uri and the selection: it asks), pressing Enter on each pick until it ends. */
async function linkFromExplorer(folder: vscode.Uri, before?: () => Promise<void>): Promise<{ connector: string; path: string } | undefined> {
  const linking = vscode.commands.executeCommand<{ connector: string; path: string } | undefined>('datagrok.sync.link', folder, [folder]);
  let settled = false;
  void Promise.resolve(linking).finally(() => {
    settled = true;
  });
  await before?.();
  for (let i = 0; i < 150 && !settled; i++) {
    await pause(200);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }
  return linking;
}

const linkFile = (folder: string) => JSON.parse(fs.readFileSync(path.join(folder, '.datagrok', 'sync.json'), 'utf8'));

describe('Link Folder from the explorer: the connector and its folders as picks', () => {
  let root: string;
  before(async () => {
    await resetEmulator();
    await signIn();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-link-'));
  });
  after(async () => {
    await control('DELETE', 'faults');
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("offers the server's folder named like the local one, or to create it; Enter links it and moves nothing", async () => {
    // System:DemoFiles (the server's first connector) has a folder "geo" and none named "reports".
    for (const name of ['geo', 'reports']) {
      const folder = path.join(root, name);
      fs.mkdirSync(folder);
      await clearEmulatorRequests();
      const link = await linkFromExplorer(vscode.Uri.file(folder));
      assert.ok(link, `the link of ${name} was made`);
      assert.deepEqual([link.connector, link.path], ['System:DemoFiles', name]);
      assert.deepEqual(linkFile(folder), { connector: 'System:DemoFiles', path: name });
      const asked = (await emulatorRequests()).map((r) => `${r.method} ${r.path}`);
      assert.ok(
        asked.some((r) => /^GET .*\/public\/v1\/connections\/System\.DemoFiles/.test(r)),
        `the folder step asked for the connector's folders: ${asked.join(', ')}`,
      );
      // (The comparison after linking reads through the sync route, a POST that changes nothing.)
      const writes = asked.filter((r) => /^(POST|PUT|DELETE) /.test(r) && !r.includes('/public/v1/files/sync/'));
      assert.deepEqual(writes, [], 'linking writes nothing on the server');
    }
  });

  it('a failed list of connectors shows in the pick with Retry; Retry lists them and the link goes on', async () => {
    const folder = path.join(root, 'retry');
    fs.mkdirSync(folder);
    await control('POST', 'faults', { match: '/public/v1/connections', status: 403, count: 1 });
    await clearEmulatorRequests();
    const link = await linkFromExplorer(vscode.Uri.file(folder), async () => {
      // The pick shows the error first, then Retry: once the refusal is in, the next line (Retry) is taken.
      for (let i = 0; i < 100; i++) {
        if ((await emulatorRequests()).some((r) => r.path.includes('/public/v1/connections') && r.status === 403)) break;
        await pause(100);
      }
      await pause(500);
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await pause(200);
    });
    assert.ok(link, 'the link was made after Retry');
    assert.deepEqual([link.connector, link.path], ['System:DemoFiles', 'retry']);
    const listings = (await emulatorRequests()).filter((r) => r.method === 'GET' && /\/public\/v1\/connections(\?|$)/.test(r.path));
    assert.deepEqual(
      listings.map((r) => r.status),
      [403, 200],
      'the connectors were asked for again',
    );
  });
});

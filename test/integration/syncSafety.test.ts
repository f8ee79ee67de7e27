// Folder sync against a server that names hostile things, in the real VS Code host: a link inside the linked
// folder is not a door out, the ignore rules stay the user's (a server copy never replaces them, so an ignored
// key is never uploaded), and names no file here can have (a folder's name, 300 and 5,000 bytes, `..`, `.`) are
// skips with a reason, not system errors. The hostile listing is the sync route's own multipart format, served
// once by the emulator's fault queue.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createClient } from '../../src/api';
import type { DatagrokApi } from '../../src/api/datagrokApi';
import { run } from './fileSupport';
import { control, emulator, resetEmulator, signIn } from './support';

const CONNECTOR = 'demo:Home';

type Action = { path: string; action: string; bytes: number; reason?: string };

/** A sync answer in the route's format: each name with content `x` and an ETag of its own. */
function hostileListing(names: string[]): { text: string; contentType: string } {
  const boundary = 'hostile-boundary';
  const parts = names.map(
    (name, i) => `--${boundary}\r\nContent-Disposition: attachment; filename="${name}"\r\nX-File-E-Tag: e${i}\r\nContent-Type: application/octet-stream\r\n\r\nx\r\n`,
  );
  return { text: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/mixed; boundary=${boundary}` };
}

describe('folder sync (hostile names, links and rules)', () => {
  let top: string;
  let folder: string;
  let elsewhere: string;
  let colleague: DatagrokApi;
  const local = (rel: string) => path.join(folder, ...rel.split('/'));
  const sync = (options: Record<string, unknown>) => run<Action[]>('datagrok.sync.run', { folder: vscode.Uri.file(folder), ...options });
  const byPath = (actions: Action[]) => Object.fromEntries(actions.map((a) => [a.path, a]));

  before(async () => {
    await resetEmulator();
    await signIn();
    colleague = createClient({ baseUrl: emulator.url, apiKey: emulator.key });
  });
  beforeEach(async () => {
    top = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-sync-hostile-'));
    folder = path.join(top, 'linked');
    elsewhere = path.join(top, 'elsewhere');
    fs.mkdirSync(folder);
    fs.mkdirSync(elsewhere);
  });
  afterEach(() => fs.rmSync(top, { recursive: true, force: true }));
  after(() => colleague.close());

  it('does not follow a link in the linked folder out of it: the file is a skip and nothing is written there', async () => {
    await run('datagrok.sync.link', { folder: vscode.Uri.file(folder), connector: CONNECTOR, path: 'links' });
    fs.symlinkSync(elsewhere, local('outlink'));
    await colleague.uploadFile(CONNECTOR, 'links/outlink/pwned.txt', { data: 'pwned' });
    await colleague.uploadFile(CONNECTOR, 'links/plain.txt', { data: 'fine' });
    const done = byPath(await sync({ direction: 'pull' }));
    assert.equal(done['outlink/pwned.txt']?.action, 'skip', JSON.stringify(done));
    assert.match(done['outlink/pwned.txt']?.reason ?? '', /outlink is a link to .*elsewhere.*not followed/);
    assert.deepEqual(fs.readdirSync(elsewhere), [], 'nothing written outside the linked folder');
    assert.equal(fs.readFileSync(local('plain.txt'), 'utf8'), 'fine');
  });

  it("keeps the user's ignore rules: the server's copy is a conflict, and an ignored key is never uploaded", async () => {
    await run('datagrok.sync.link', { folder: vscode.Uri.file(folder), connector: CONNECTOR, path: 'rules' });
    fs.writeFileSync(local('.datagrokignore'), 'app.key\n');
    fs.writeFileSync(local('app.key'), 'secret');
    fs.writeFileSync(local('notes.txt'), 'notes');
    // The rules go up only when the user takes them.
    const first = byPath(await sync({ direction: 'push' }));
    assert.equal(first['.datagrokignore']?.action, 'conflict', JSON.stringify(first));
    assert.equal(first['app.key'], undefined);
    assert.equal(byPath(await sync({ direction: 'push', onConflict: 'mine' }))['.datagrokignore']?.action, 'upload');
    // A colleague empties the server's copy of the rules.
    await colleague.uploadFile(CONNECTOR, 'rules/.datagrokignore', { data: '' });
    const pulled = byPath(await sync({ direction: 'pull', propagateDeletes: true }));
    assert.equal(pulled['.datagrokignore']?.action, 'conflict');
    assert.match(pulled['.datagrokignore']?.reason ?? '', /ignore rules changed/);
    assert.equal(fs.readFileSync(local('.datagrokignore'), 'utf8'), 'app.key\n', 'the local rules are kept');
    fs.writeFileSync(local('notes.txt'), 'notes, edited');
    const pushed = byPath(await sync({ direction: 'both' }));
    assert.equal(pushed['notes.txt']?.action, 'upload');
    assert.equal(pushed['app.key'], undefined, JSON.stringify(pushed));
    await assert.rejects(colleague.readFile(CONNECTOR, 'rules/app.key'), 'the ignored key never left the machine');
  });

  it('gives names no file here can have a reason, and never writes over a folder', async () => {
    await run('datagrok.sync.link', { folder: vscode.Uri.file(folder), connector: CONNECTOR, path: 'names' });
    fs.mkdirSync(local('data'));
    const long300 = 'n'.repeat(300);
    const long5000 = 'm'.repeat(5000);
    const listing = hostileListing(['ok.txt', 'data', long300, long5000, '../escape.txt', 'a/../../up.txt', '.']);
    await control('POST', 'faults', { match: 'POST /api/public/v1/files/sync/', ...listing });
    const done = byPath(await sync({ direction: 'pull' }));
    assert.equal(done['ok.txt']?.action, 'download', JSON.stringify(done));
    assert.equal(fs.readFileSync(local('ok.txt'), 'utf8'), 'x');
    assert.equal(done.data?.action, 'skip');
    assert.match(done.data?.reason ?? '', /data is a folder here/);
    assert.match(done[long300]?.reason ?? '', /300 bytes long; file systems take at most 255/);
    assert.match(done[long5000]?.reason ?? '', /5000 bytes long/);
    for (const name of ['../escape.txt', 'a/../../up.txt', '.']) {
      assert.equal(done[name]?.action, 'skip', name);
      assert.match(done[name]?.reason ?? '', /not a usable file name/, name);
    }
    assert.ok(fs.statSync(local('data')).isDirectory(), 'the folder is still a folder');
    assert.deepEqual(fs.readdirSync(top).sort(), ['elsewhere', 'linked'], 'nothing written beside the linked folder');
  });
});

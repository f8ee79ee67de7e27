// Folder sync (src/platform/sync*.ts) against the emulator over real HTTP: the sync route, status from ETags and
// content hashes, previews that propagate no delete unless confirmed, a colleague's edit between preview and
// upload, ignore rules, a cancelled run that resumes, case-only renames on a case-insensitive store.
import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rename, rm, writeFile, mkdir, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { SyncPart } from '../../src/api/types';
import { execute, openSession, runSync } from '../../src/platform/sync/session';
import { plan } from '../../src/platform/sync/plan';
import { writeLink } from '../../src/platform/sync/store';
import { sha256, useEmulator } from './harness';

const CONNECTOR = 'demo:Home';
const DIR = 'proj';

describe('folder sync against the emulator', () => {
  const h = useEmulator();
  let folder: string;

  const put = (rel: string, text: string) => h.newClient().uploadFile(CONNECTOR, `${DIR}/${rel}`, { data: text });
  const serverText = async (rel: string) => Buffer.from(await h.client.readFile(CONNECTOR, `${DIR}/${rel}`)).toString();
  const local = (rel: string) => path.join(folder, ...rel.split('/'));
  const write = async (rel: string, text: string) => {
    await mkdir(path.dirname(local(rel)), { recursive: true });
    await writeFile(local(rel), text);
  };
  const read = (rel: string) => readFile(local(rel), 'utf8');
  const states = async () => Object.fromEntries((await openSession(h.client, folder)).statuses.map((s) => [s.path, s.state]));
  const serverPaths = async () =>
    (await h.state()).files
      .filter((f) => f.connector === CONNECTOR && f.path.startsWith(`${DIR}/`))
      .map((f) => f.path.slice(DIR.length + 1))
      .sort();

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'dg-sync-'));
    await writeLink(folder, { connector: CONNECTOR, path: DIR });
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('the sync route answers parts with ETags that change with content, deletions, and 204 for an empty folder', async () => {
    await put('a.txt', 'one');
    await put('sub/b.txt', 'two');
    const parts: SyncPart[] = [];
    const contentDir = path.join(folder, 'received');
    await h.client.syncFolder(CONNECTOR, DIR, {}, (p) => void parts.push(p), { contentDir });
    assert.deepEqual(
      parts.map((p) => [p.path, p.status]),
      [
        ['a.txt', 'content'],
        ['sub/b.txt', 'content'],
      ],
    );
    const a = parts[0] as Extract<SyncPart, { status: 'content' }>;
    assert.equal(await readFile(a.file ?? '', 'utf8'), 'one');
    assert.deepEqual([a.size, a.sha256], [3, sha256('one')]);
    assert.equal(path.dirname(a.file ?? ''), contentDir);
    await put('a.txt', 'one, edited');
    await h.client.deleteFile(CONNECTOR, `${DIR}/sub/b.txt`);
    const again: SyncPart[] = [];
    await h.client.syncFolder(CONNECTOR, DIR, { 'a.txt': a.eTag, 'sub/b.txt': 'x' }, (p) => void again.push(p));
    const edited = again.find((p) => p.path === 'a.txt') as Extract<SyncPart, { status: 'content' }>;
    assert.notEqual(edited.eTag, a.eTag);
    assert.equal(again.find((p) => p.path === 'sub/b.txt')?.status, 'deleted');
    await h.client.deleteFile(CONNECTOR, `${DIR}/a.txt`);
    assert.equal(await h.client.syncFolder(CONNECTOR, DIR, { 'a.txt': edited.eTag }, () => undefined), 0);
  });

  it('pulls, then reports each side’s changes from ETags and content hashes (not times), and pushes', async () => {
    await put('a.csv', 'x,y\n1,2\n');
    await put('deep/b.txt', 'b');
    const pulled = await runSync(h.client, folder, { direction: 'pull' });
    assert.deepEqual(
      pulled.map((r) => [r.path, r.action, r.bytes]),
      [
        ['a.csv', 'download', 8],
        ['deep/b.txt', 'download', 1],
      ],
    );
    assert.equal(await read('deep/b.txt'), 'b');
    assert.deepEqual(await states(), { 'a.csv': 'same', 'deep/b.txt': 'same' });
    // Rewritten with the same content: still the same (a hash, not a time).
    await write('a.csv', 'x,y\n1,2\n');
    await write('deep/b.txt', 'b2');
    await write('new.txt', 'n');
    await put('a.csv', 'x,y\n3,4\n');
    await put('theirs.txt', 't');
    assert.deepEqual(await states(), { 'a.csv': 'remoteChanged', 'deep/b.txt': 'localChanged', 'new.txt': 'localNew', 'theirs.txt': 'remoteNew' });
    const both = await runSync(h.client, folder, { direction: 'both' });
    assert.deepEqual(both.map((r) => [r.path, r.action]).sort(), [
      ['a.csv', 'download'],
      ['deep/b.txt', 'upload'],
      ['new.txt', 'upload'],
      ['theirs.txt', 'download'],
    ]);
    assert.equal(await serverText('deep/b.txt'), 'b2');
    assert.equal(await read('a.csv'), 'x,y\n3,4\n');
    assert.ok(Object.values(await states()).every((s) => s === 'same'));
    // Nothing changed: nothing moves.
    assert.deepEqual(await runSync(h.client, folder, { direction: 'both' }), []);
  });

  it('a colleague’s edit between the preview and the upload becomes a conflict, not an overwrite', async () => {
    await put('report.txt', 'v1');
    await runSync(h.client, folder, { direction: 'pull' });
    await write('report.txt', 'mine');
    const session = await openSession(h.client, folder);
    const actions = plan(session.statuses, { direction: 'push', onConflict: 'ask', propagateDeletes: false });
    assert.deepEqual(
      actions.map((a) => [a.path, a.action]),
      [['report.txt', 'upload']],
    );
    await put('report.txt', 'colleague'); // after the preview, before the upload
    const done = await execute(h.client, session, actions);
    assert.deepEqual(
      done.map((r) => [r.path, r.action]),
      [['report.txt', 'conflict']],
    );
    assert.match(done[0].reason ?? '', /changed on the server since the preview/);
    assert.equal(await serverText('report.txt'), 'colleague');
    assert.equal(await read('report.txt'), 'mine');
    assert.deepEqual(await states(), { 'report.txt': 'conflict' });
    // Asked: reported, neither copy changes.
    const asked = await runSync(h.client, folder, { direction: 'both' });
    assert.deepEqual(
      asked.map((r) => r.action),
      ['conflict'],
    );
    // Keep both: theirs in place, mine beside it.
    await runSync(h.client, folder, { direction: 'both', onConflict: 'keepBoth' });
    assert.equal(await read('report.txt'), 'colleague');
    assert.equal(await read('report (local copy).txt'), 'mine');
  });

  it('keep both with a long name: the local copy is named within 255 bytes, not a failed run', async () => {
    const long = `${'r'.repeat(246)}.txt`;
    await put(long, 'theirs 1');
    await runSync(h.client, folder, { direction: 'pull' });
    await put(long, 'theirs 2');
    await write(long, 'mine');
    const done = await runSync(h.client, folder, { direction: 'both', onConflict: 'keepBoth' });
    assert.deepEqual(
      done.map((r) => r.action),
      ['download'],
    );
    const copy = `${'r'.repeat(238)} (local copy).txt`;
    assert.equal(Buffer.byteLength(copy), 255);
    assert.equal(await read(copy), 'mine');
    assert.equal(await read(long), 'theirs 2');
  });

  it('a push of many files checks the server copies a batch at a time, and an edit before a later batch is still a conflict', async () => {
    for (let i = 0; i < 70; i++) await write(`many/f${String(i).padStart(2, '0')}.txt`, `file ${i}`);
    const session = await openSession(h.client, folder);
    const actions = plan(session.statuses, { direction: 'push', onConflict: 'ask', propagateDeletes: false });
    const before = (await h.requests()).length;
    // A colleague writes f50 once the first uploads have started (its batch is checked after that).
    const done = await execute(h.client, session, actions, { onFile: (i) => void (i === 5 && put('many/f50.txt', 'colleague')) });
    const byAction = (what: string) => done.filter((r) => r.action === what).map((r) => r.path);
    assert.deepEqual(byAction('conflict'), ['many/f50.txt']);
    assert.equal(byAction('upload').length, 69);
    assert.equal(await serverText('many/f50.txt'), 'colleague');
    const checks = (await h.requests()).slice(before).filter((r) => r.path.includes('/files/sync/'));
    // 70 uploads in batches of 32: 3 checks, and one request for the first upload's ETag (not one per file).
    assert.ok(checks.length <= 4, `${checks.length} sync-route requests for 70 uploads`);
  });

  it('a delete on either side is shown and not propagated until confirmed', async () => {
    await put('keep.txt', 'k');
    await put('gone-there.txt', 'g');
    await put('gone-here.txt', 'h');
    await runSync(h.client, folder, { direction: 'pull' });
    await h.client.deleteFile(CONNECTOR, `${DIR}/gone-there.txt`);
    await rm(local('gone-here.txt'));
    assert.deepEqual(await states(), { 'gone-here.txt': 'localDeleted', 'gone-there.txt': 'remoteDeleted', 'keep.txt': 'same' });
    const shown = await runSync(h.client, folder, { direction: 'both' });
    assert.deepEqual(
      shown.map((r) => [r.path, r.action]),
      [
        ['gone-here.txt', 'skip'],
        ['gone-there.txt', 'skip'],
      ],
    );
    assert.match(shown[0].reason ?? '', /propagateDeletes/);
    assert.equal(await read('gone-there.txt'), 'g');
    assert.deepEqual(await serverPaths(), ['gone-here.txt', 'keep.txt']);
    const confirmed = await runSync(h.client, folder, { direction: 'both', propagateDeletes: true });
    assert.deepEqual(
      confirmed.map((r) => [r.path, r.action]),
      [
        ['gone-here.txt', 'deleteRemote'],
        ['gone-there.txt', 'deleteLocal'],
      ],
    );
    assert.deepEqual(await serverPaths(), ['keep.txt']);
    assert.deepEqual(
      (await readdir(folder)).filter((n) => !n.startsWith('.')),
      ['keep.txt'],
    );
  });

  it('an ignore pattern matching everything pushes nothing and deletes nothing, on either side', async () => {
    await put('data.csv', 'd');
    await runSync(h.client, folder, { direction: 'pull' });
    await write('local.txt', 'l');
    await writeFile(path.join(folder, '.datagrokignore'), '*\n');
    const done = await runSync(h.client, folder, { direction: 'both', propagateDeletes: true });
    assert.deepEqual(done, []);
    assert.deepEqual(await serverPaths(), ['data.csv']);
    assert.equal(await read('data.csv'), 'd');
    assert.deepEqual(await states(), {});
    // The defaults: .git, .venv, node_modules, __pycache__ never go up.
    await writeFile(path.join(folder, '.datagrokignore'), '');
    for (const rel of ['.git/HEAD', '.venv/x.py', 'node_modules/m/index.js', 'src/__pycache__/a.pyc', 'src/a.py']) await write(rel, rel);
    const pushed = await runSync(h.client, folder, { direction: 'push' });
    assert.deepEqual(
      pushed.map((r) => r.path),
      ['.datagrokignore', 'local.txt', 'src/a.py'],
    );
  });

  it('a cancelled sync of many files leaves no partial file and the next run resumes where it stopped', async () => {
    for (let i = 0; i < 60; i++) await write(`f${String(i).padStart(2, '0')}.txt`, `file ${i}`);
    const stop = new AbortController();
    await assert.rejects(runSync(h.client, folder, { direction: 'push' }, { signal: stop.signal, onFile: (i) => i === 25 && stop.abort() }), (err: Error) =>
      /abort|cancel/i.test(`${err.name} ${err.message}`),
    );
    const partly = await serverPaths();
    assert.ok(partly.length >= 20 && partly.length <= 26, `${partly.length} uploaded before the cancel`);
    const before = (await h.requests()).length;
    const resumed = await runSync(h.client, folder, { direction: 'push' });
    assert.equal(resumed.length, 60 - partly.length, 'only what was not done moves');
    assert.equal((await serverPaths()).length, 60);
    const uploads = (await h.requests()).slice(before).filter((r) => r.method === 'POST' && !r.path.includes('/sync/'));
    assert.equal(uploads.length, 60 - partly.length);
    for (const f of (await h.state()).files.filter((x) => x.path.startsWith(`${DIR}/f`))) {
      assert.equal(f.sha256, sha256(`file ${Number(f.path.slice(DIR.length + 2, -4))}`));
    }
  });

  it('a case-only rename on a case-insensitive store: the old name is deleted first, or the new one waits', async () => {
    await h.config({ caseInsensitivePaths: true });
    await put('Data.csv', 'old');
    await runSync(h.client, folder, { direction: 'pull' });
    await rename(local('Data.csv'), local('tmp'));
    await rename(local('tmp'), local('data.csv'));
    await writeFile(local('data.csv'), 'renamed');
    const waiting = await runSync(h.client, folder, { direction: 'push' });
    assert.deepEqual(waiting.map((r) => [r.path, r.action]).sort(), [
      ['Data.csv', 'skip'],
      ['data.csv', 'skip'],
    ]);
    assert.deepEqual(await serverPaths(), ['Data.csv']);
    assert.equal(await serverText('Data.csv'), 'old');
    const done = await runSync(h.client, folder, { direction: 'push', propagateDeletes: true });
    assert.deepEqual(
      done.map((r) => [r.path, r.action]),
      [
        ['Data.csv', 'deleteRemote'],
        ['data.csv', 'upload'],
      ],
    );
    assert.deepEqual(await serverPaths(), ['data.csv']);
    assert.equal(await serverText('data.csv'), 'renamed');
  });
});

// Folder sync's local side (src/platform/sync/local.ts, store.ts) on a temporary folder: a file whose size
// and modification time are those of its last hash is not read again (as git's index), the hash cache is
// not rewritten when nothing changed, and records made at once reach the journal together, each resolved
// only once written.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadIgnoreRules, scanLocal } from '../../src/platform/sync/local';
import { loadHashes, saveHashes, SyncBase } from '../../src/platform/sync/store';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('sync: local scan and journal', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'dg-sync-local-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('hashes a file again only when its size or time changed, and saves the cache only when it changed', async () => {
    await mkdir(path.join(folder, 'sub'));
    await writeFile(path.join(folder, 'sub', 'a.txt'), 'one');
    await writeFile(path.join(folder, 'b.txt'), 'two');
    // Times well in the past: a hash taken now is not "racy" (same tick as the change).
    const past = new Date(Date.now() - 60_000);
    for (const f of ['sub/a.txt', 'b.txt']) await utimes(path.join(folder, f), past, past);
    const rules = await loadIgnoreRules(folder);
    const cache = await loadHashes(folder);
    const first = await scanLocal(folder, rules, cache);
    assert.deepEqual(Object.fromEntries([...first].map(([p, f]) => [p, f.hash])), { 'b.txt': sha('two'), 'sub/a.txt': sha('one') });
    assert.equal(cache.dirty, true);
    await saveHashes(folder, cache);
    const saved = await stat(path.join(folder, '.datagrok', 'sync-hashes.json'));

    // Same size and time, other bytes: not read again (the cache answers), and nothing to save.
    await writeFile(path.join(folder, 'sub', 'a.txt'), 'ONE');
    await utimes(path.join(folder, 'sub', 'a.txt'), past, past);
    const again = await loadHashes(folder);
    assert.equal((await scanLocal(folder, rules, again)).get('sub/a.txt')?.hash, sha('one'));
    assert.equal(again.dirty, false);
    await saveHashes(folder, again);
    assert.equal((await stat(path.join(folder, '.datagrok', 'sync-hashes.json'))).mtimeMs, saved.mtimeMs);

    // A new time: read again.
    await utimes(path.join(folder, 'sub', 'a.txt'), new Date(past.getTime() + 1000), new Date(past.getTime() + 1000));
    const third = await loadHashes(folder);
    assert.equal((await scanLocal(folder, rules, third)).get('sub/a.txt')?.hash, sha('ONE'));
    assert.equal(third.dirty, true);
  });

  it('records made at once reach the journal together, and a new base reads every one of them', async () => {
    const base = await SyncBase.load(folder);
    const done = await Promise.all(Array.from({ length: 500 }, (_, i) => base.record(`f${i}`, { etag: `e${i}`, hash: `h${i}`, size: i }).then(() => i)));
    assert.equal(done.length, 500);
    const lines = (await readFile(path.join(folder, '.datagrok', 'sync-journal.jsonl'), 'utf8')).trim().split('\n');
    assert.equal(lines.length, 500, 'every record resolved only once its line was written');
    await base.record('f0', undefined);
    await base.close();
    const resumed = await SyncBase.load(folder);
    assert.equal(resumed.entries.size, 499);
    assert.deepEqual(resumed.entries.get('f7'), { etag: 'e7', hash: 'h7', size: 7 });
  });
});

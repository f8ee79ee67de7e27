// Contract: what our folder sync pushes, the Python client's `sync_dir` request sequence pulls byte for byte
// (test/contract/sync_dir.py: python3 and the standard library, since datagrok-api cannot be installed
// offline), and its later runs see our changes and deletes through the same ETags.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { runSync } from '../../src/platform/sync/session';
import { writeLink } from '../../src/platform/sync/store';
import { useEmulator } from '../api/harness';

const SCRIPT = path.join(__dirname, '..', '..', '..', 'test', 'contract', 'sync_dir.py');

async function files(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.name === '.datagrok') continue;
    if (e.isDirectory()) out.push(...(await files(path.join(dir, e.name), `${prefix}${e.name}/`)));
    else out.push(prefix + e.name);
  }
  return out.sort();
}

describe('contract: the Python client’s sync_dir pulls what the folder sync pushed', () => {
  const h = useEmulator();
  let ours: string;
  let theirs: string;

  beforeEach(async () => {
    ours = await mkdtemp(path.join(tmpdir(), 'dg-ours-'));
    theirs = await mkdtemp(path.join(tmpdir(), 'dg-py-'));
  });
  afterEach(async () => {
    await rm(ours, { recursive: true, force: true });
    await rm(theirs, { recursive: true, force: true });
  });

  const syncDir = async () => {
    const { stdout } = await promisify(execFile)('python3', [
      SCRIPT,
      h.emulator.baseUrl,
      `Bearer ${h.emulator.key}`,
      'demo:Home',
      'shared',
      path.join(theirs, 'copy'),
      path.join(theirs, 'state.json'),
    ]);
    return JSON.parse(stdout) as { new: number; notModified: number; deleted: number; bytes: number };
  };

  it('pulls every file byte for byte, then only what changed, and removes what we deleted', async () => {
    await writeLink(ours, { connector: 'demo:Home', path: 'shared' });
    const content: Record<string, Buffer> = {
      'data.csv': Buffer.from('id,name\n1,ä\n'),
      'deep/er/blob.bin': randomBytes(300_000),
      'with space.txt': Buffer.from('spaced\r\nlines\r\n'),
    };
    for (const [rel, bytes] of Object.entries(content)) {
      await mkdir(path.dirname(path.join(ours, rel)), { recursive: true });
      await writeFile(path.join(ours, rel), bytes);
    }
    assert.equal((await runSync(h.client, ours, { direction: 'push' })).length, 3);
    await mkdir(path.join(theirs, 'copy'));
    assert.deepEqual(await syncDir(), { new: 3, notModified: 0, deleted: 0, bytes: 300_000 + 13 + 15 });
    assert.deepEqual(await files(path.join(theirs, 'copy')), Object.keys(content).sort());
    for (const [rel, bytes] of Object.entries(content)) assert.ok((await readFile(path.join(theirs, 'copy', rel))).equals(bytes), rel);

    await writeFile(path.join(ours, 'data.csv'), 'id,name\n1,ä\n2,b\n');
    await rm(path.join(ours, 'with space.txt'));
    const pushed = await runSync(h.client, ours, { direction: 'push', propagateDeletes: true });
    assert.deepEqual(
      pushed.map((r) => [r.path, r.action]),
      [
        ['with space.txt', 'deleteRemote'],
        ['data.csv', 'upload'],
      ],
    );
    const second = await syncDir();
    assert.deepEqual([second.new, second.notModified, second.deleted], [1, 1, 1]);
    assert.equal(await readFile(path.join(theirs, 'copy', 'data.csv'), 'utf8'), 'id,name\n1,ä\n2,b\n');
    assert.deepEqual(await files(path.join(theirs, 'copy')), ['data.csv', 'deep/er/blob.bin']);
    // And the other way: what sync_dir's run left in place is "same" for us (the ETags agree).
    assert.deepEqual(await runSync(h.client, ours, { direction: 'both' }), []);
  });
});

// Where a file a server names may be written (src/platform/confinement.ts writeTarget, nameProblem), on a
// temporary folder with real links: a link to a folder outside is never a door out, a link or a folder with the
// file's name is not written through, and hostile names get a reason instead of a system error.
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { nameProblem, writeTarget } from '../../src/platform/confinement';

describe('write targets: what a server names stays inside the folder', () => {
  let top: string;
  let root: string;
  let outside: string;
  beforeEach(async () => {
    top = await mkdtemp(path.join(tmpdir(), 'dg-target-'));
    root = path.join(top, 'linked');
    outside = path.join(top, 'elsewhere');
    await mkdir(root);
    await mkdir(outside);
  });
  afterEach(() => rm(top, { recursive: true, force: true }));

  it('makes the folders of a plain name and answers its path inside', async () => {
    const t = await writeTarget(root, 'a/b/c.txt');
    assert.equal(t.full, path.join(root, 'a', 'b', 'c.txt'));
    assert.deepEqual(await readdir(path.join(root, 'a')), ['b']);
  });

  it('refuses a folder that is a link out of the folder, and makes nothing there', async () => {
    await symlink(outside, path.join(root, 'outlink'));
    const t = await writeTarget(root, 'outlink/sub/pwned.txt');
    assert.equal(t.full, undefined);
    assert.match(t.reason ?? '', /outlink is a link to .*elsewhere, outside .*not followed/);
    assert.deepEqual(await readdir(outside), []);
  });

  it('follows a link that stays inside the folder', async () => {
    await mkdir(path.join(root, 'real'));
    await symlink(path.join(root, 'real'), path.join(root, 'alias'));
    assert.equal((await writeTarget(root, 'alias/x.txt')).full, path.join(root, 'alias', 'x.txt'));
  });

  it('does not write through a file link or over a folder, nor through a file where a folder is needed', async () => {
    await writeFile(path.join(outside, 'secret.txt'), 'x');
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'note.txt'));
    assert.match((await writeTarget(root, 'note.txt')).reason ?? '', /is a link here/);
    await mkdir(path.join(root, 'data'));
    assert.match((await writeTarget(root, 'data')).reason ?? '', /is a folder here/);
    await writeFile(path.join(root, 'plain'), 'x');
    assert.match((await writeTarget(root, 'plain/inner.txt')).reason ?? '', /plain is a file here, not a folder/);
  });

  it('gives hostile names a reason, not a system error', async () => {
    for (const rel of ['.', '..', '../x', 'a//b', '', 'a/./b']) assert.match((await writeTarget(root, rel)).reason ?? '', /not a usable file name/, rel);
    assert.match((await writeTarget(root, 'x'.repeat(300))).reason ?? '', /300 bytes long; file systems take at most 255/);
    assert.match((await writeTarget(root, 'y'.repeat(5000))).reason ?? '', /5000 bytes long/);
    const deep = Array.from({ length: 40 }, () => 'z'.repeat(200)).join('/');
    assert.match((await writeTarget(root, deep)).reason ?? '', /longer than this file system takes/);
  });

  it('names what Windows refuses when the platform is Windows, and lets POSIX have them', () => {
    for (const name of ['CON', 'nul.txt', 'com1.log', 'a/LPT9', 'what?.csv', 'dots.', 'space ']) assert.ok(nameProblem(name, 'win32'), name);
    for (const name of ['CON', 'nul.txt', 'what?.csv']) assert.equal(nameProblem(name, 'linux'), undefined, name);
    assert.equal(nameProblem('console.txt', 'win32'), undefined);
  });
});

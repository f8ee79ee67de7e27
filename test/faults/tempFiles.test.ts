// A download in progress lives in a temporary file only this user can read; the finished file gets the
// mode a file normally has there (or the one it had).
import * as assert from 'node:assert/strict';
import { chmod, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FaultKit, startKit } from './kit';

describe('faults: temporary files', () => {
  if (process.platform === 'win32') return;
  let kit: FaultKit;
  let dir: string;
  before(async () => {
    kit = await startKit();
    dir = await mkdtemp(join(tmpdir(), 'dg-temp-'));
  });
  after(async () => {
    await kit.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Sends half the body, lets the test look at the disk, then the rest. */
  function halfThenRest(): { seenHalf: Promise<void>; finish: () => void } {
    let finish!: () => void;
    let seen!: () => void;
    const seenHalf = new Promise<void>((r) => {
      seen = r;
    });
    const rest = new Promise<void>((r) => {
      finish = r;
    });
    kit.answer(async (_req, res) => {
      const half = Buffer.alloc(4 * 1024 * 1024, 97);
      res.writeHead(200, { 'content-length': String(half.length * 2) });
      res.write(half);
      setTimeout(seen, 300);
      await rest;
      res.end(half);
    });
    return { seenHalf, finish };
  }

  it('the partial download is 0600 and the finished file has the default mode', async () => {
    const { seenHalf, finish } = halfThenRest();
    const target = join(dir, 'big.bin');
    const done = kit.client().downloadFile('System:DemoFiles', 'big.bin', { file: target });
    await seenHalf;
    const partial = (await readdir(dir)).filter((n) => n.endsWith('.download'));
    assert.equal(partial.length, 1, String(await readdir(dir)));
    assert.equal((await stat(join(dir, partial[0]))).mode & 0o777, 0o600);
    finish();
    await done;
    assert.equal((await stat(target)).mode & 0o777, 0o666 & ~process.umask());
    await rm(target);
  });

  it('a file downloaded over an existing one keeps that file’s mode', async () => {
    const target = join(dir, 'kept.bin');
    await writeFile(target, 'old');
    await chmod(target, 0o640);
    const { finish } = halfThenRest();
    finish();
    await kit.client().downloadFile('System:DemoFiles', 'kept.bin', { file: target });
    assert.equal((await stat(target)).mode & 0o777, 0o640);
    assert.equal((await stat(target)).size, 8 * 1024 * 1024);
  });

  it('a growing download is written into the file itself as it arrives, and gets the default mode', async () => {
    // 100 kB, then the answer is held: what arrived must be on disk for a reader following the file.
    let finish!: () => void;
    const rest = new Promise<void>((r) => {
      finish = r;
    });
    kit.answer(async (_req, res) => {
      res.writeHead(200, { 'content-length': String(200_000) });
      res.write(Buffer.alloc(100_000, 97));
      await rest;
      res.end(Buffer.alloc(100_000, 98));
    });
    const target = join(dir, 'growing.bin');
    const done = kit.client().downloadFile('System:DemoFiles', 'growing.bin', { file: target, growing: true });
    try {
      const deadline = Date.now() + 10_000;
      while ((await stat(target).catch(() => undefined))?.size !== 100_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal((await stat(target)).size, 100_000, 'what arrived is in the file while the rest is held');
      assert.deepEqual(
        (await readdir(dir)).filter((n) => n.endsWith('.download')),
        [],
        'no temporary sibling',
      );
    } finally {
      finish();
      await done;
    }
    assert.equal((await stat(target)).size, 200_000);
    assert.equal((await stat(target)).mode & 0o777, 0o666 & ~process.umask());
    await rm(target);
  });

  it('a growing download that fails midway removes the partial file', async () => {
    kit.answer((_req, res) => {
      res.writeHead(200, { 'content-length': String(8 * 1024 * 1024) });
      res.write(Buffer.alloc(4 * 1024 * 1024, 98), () => setTimeout(() => res.destroy(), 100));
    });
    const target = join(dir, 'cut.bin');
    await assert.rejects(kit.client({ retries: 0 }).downloadFile('System:DemoFiles', 'cut.bin', { file: target, growing: true }));
    assert.deepEqual(
      (await readdir(dir)).filter((n) => n.includes('cut')),
      [],
      'nothing left behind',
    );
  });
});

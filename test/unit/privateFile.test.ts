// Files holding the API key, on the real file system: created 0600 whatever the umask, a looser file
// tightened (and said so), a private one left private, a link written through (but not out of a
// workspace folder), a read-only file or a folder refused untouched, no temporary file left behind.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { confinedTarget, isPrivateFile, modeText, writePrivateFile } from '../../src/core/privateFile';

const posix = process.platform !== 'win32';
const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('Files holding the key: readable by the user alone', () => {
  let dir = '';
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-private-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates the file (and its folder) with mode 0600, even under a permissive umask, leaving no temporary file', async function () {
    if (!posix) this.skip();
    const old = process.umask(0o000);
    try {
      const file = path.join(dir, '.grok', 'config.yaml');
      const written = await writePrivateFile(file, 'key: k\n');
      assert.deepEqual(written, { path: file, tightenedFrom: undefined });
      assert.equal(fs.readFileSync(file, 'utf8'), 'key: k\n');
      assert.equal(modeText(mode(file)), '0600');
      assert.deepEqual(fs.readdirSync(path.dirname(file)), ['config.yaml']);
    } finally {
      process.umask(old);
    }
  });

  it('tightens a file others could read to 0600 and says what it was; a private one stays as it is', async function () {
    if (!posix) this.skip();
    const file = path.join(dir, '.env');
    fs.writeFileSync(file, 'old\n', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    assert.equal(await isPrivateFile(file), false);
    const written = await writePrivateFile(file, 'new\n');
    assert.equal(written.tightenedFrom, 0o644);
    assert.equal(modeText(written.tightenedFrom ?? 0), '0644');
    assert.equal(mode(file), 0o600);
    assert.equal(fs.readFileSync(file, 'utf8'), 'new\n');
    assert.equal(await isPrivateFile(file), true);
    const again = await writePrivateFile(file, 'newer\n');
    assert.equal(again.tightenedFrom, undefined);
    assert.equal(mode(file), 0o600);
    assert.deepEqual(fs.readdirSync(dir), ['.env']);
  });

  it('writes through a symlink: the link stays, the file it leads to becomes 0600', async function () {
    if (!posix) this.skip();
    const real = path.join(dir, 'dotfiles', 'config.yaml');
    fs.mkdirSync(path.dirname(real));
    fs.writeFileSync(real, 'a: 1\n', { mode: 0o644 });
    const link = path.join(dir, 'config.yaml');
    fs.symlinkSync(real, link);
    const written = await writePrivateFile(link, 'a: 2\n');
    assert.equal(written.path, fs.realpathSync(real));
    assert.ok(fs.lstatSync(link).isSymbolicLink(), 'still a link');
    assert.equal(fs.readFileSync(real, 'utf8'), 'a: 2\n');
    assert.equal(mode(real), 0o600);
  });

  it('inside a workspace folder, follows no link out of it (the file or its folder a link), writing nothing', async function () {
    if (!posix) this.skip();
    const ws = path.join(dir, 'ws');
    const elsewhere = path.join(dir, 'elsewhere');
    fs.mkdirSync(path.join(ws, '.datagrok'), { recursive: true });
    fs.mkdirSync(elsewhere);
    fs.writeFileSync(path.join(elsewhere, 'bashrc'), 'mine\n');
    fs.symlinkSync(path.join(elsewhere, 'bashrc'), path.join(ws, '.datagrok', '.env'));
    await assert.rejects(
      writePrivateFile(path.join(ws, '.datagrok', '.env'), 'KEY=k\n', { inside: ws }),
      /Refused to write .*\.env: a link leads it to .*elsewhere.bashrc, outside .*ws\. Remove the link/,
    );
    assert.equal(fs.readFileSync(path.join(elsewhere, 'bashrc'), 'utf8'), 'mine\n');
    const linked = path.join(dir, 'ws2');
    fs.mkdirSync(linked);
    fs.symlinkSync(elsewhere, path.join(linked, '.datagrok'));
    await assert.rejects(confinedTarget(path.join(linked, '.datagrok', '.env'), linked), /a link leads it to .*elsewhere.\.env, outside/);
    assert.deepEqual(fs.readdirSync(elsewhere), ['bashrc']);
    // A link that stays inside is followed; a path through a file is a reason, not ENOTDIR.
    fs.writeFileSync(path.join(ws, 'real.env'), '');
    fs.rmSync(path.join(ws, '.datagrok', '.env'));
    fs.symlinkSync(path.join(ws, 'real.env'), path.join(ws, '.datagrok', '.env'));
    const written = await writePrivateFile(path.join(ws, '.datagrok', '.env'), 'KEY=k\n', { inside: ws });
    assert.equal(written.path, fs.realpathSync(path.join(ws, 'real.env')));
    assert.equal(fs.readFileSync(path.join(ws, 'real.env'), 'utf8'), 'KEY=k\n');
    fs.writeFileSync(path.join(dir, 'plain'), '');
    await assert.rejects(writePrivateFile(path.join(dir, 'plain', '.env'), 'x'), /a part of its path is a file, not a folder/);
  });

  it('refuses a folder at the name, with the reason', async () => {
    fs.mkdirSync(path.join(dir, '.env'));
    await assert.rejects(writePrivateFile(path.join(dir, '.env'), 'x'), /\.env: it is not a file\. Move it away/);
    assert.deepEqual(fs.readdirSync(dir), ['.env']);
  });

  it('refuses a read-only file and a folder it cannot write to, with the reason, changing nothing', async function () {
    if (!posix || process.getuid?.() === 0) this.skip(); // root may write anything
    const file = path.join(dir, 'config.yaml');
    fs.writeFileSync(file, 'mine\n', { mode: 0o400 });
    await assert.rejects(writePrivateFile(file, 'x'), /config\.yaml: the file is read-only\. Make it writable \(chmod u\+w\)/);
    assert.equal(fs.readFileSync(file, 'utf8'), 'mine\n');
    assert.equal(mode(file), 0o400);
    const locked = path.join(dir, 'locked');
    fs.mkdirSync(locked, { mode: 0o500 });
    await assert.rejects(writePrivateFile(path.join(locked, 'config.yaml'), 'x'), /Could not write .*locked.config\.yaml: its folder is not writable \(EACCES\)/);
    assert.deepEqual(fs.readdirSync(locked), []);
    fs.chmodSync(locked, 0o700);
  });
});

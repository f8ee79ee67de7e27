// A bundle is written and read only inside its folder, under names every file system takes, and remembers
// what the server held at the pull (the base) so a push tells a colleague's change from one made here.
// Real files and real links in a temporary folder; no server.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BASE_FILE, basesFor, readBase, recordBase, sidesChanged } from '../../src/platform/bundles/base';
import { readBundle, readManifest, writeBundle } from '../../src/platform/bundles/bundleFolder';
import { hashOf, normalize } from '../../src/platform/bundles/normalize';
import { fileNameFor } from '../../src/platform/bundles/registry';

const source = { url: 'http://x/api', version: '1.26.0', userNamespace: 'demo:' };
const id = (n: number) => `${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`;
const script = (n: number, name: string) => ({ '#type': 'Script', id: id(n), name, script: `//name: ${name.slice(0, 20)}\n` });
const scripts = (...rows: Array<ReturnType<typeof script>>) => new Map(rows.map((r) => [r.id, { type: 'Script', json: r }]));

describe('bundle files stay inside the bundle folder', () => {
  let root: string;
  let dir: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'bundle-safety-'));
    dir = path.join(root, 'a', 'b', 'bundle');
    await mkdir(dir, { recursive: true });
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('hostile names (".", "..", 300 and 5,000 bytes, CON, control characters) become usable files, each its own', async () => {
    const rows = [script(1, '.'), script(2, '..'), script(3, 'x'.repeat(300)), script(4, 'y'.repeat(5000)), script(5, 'CON'), script(6, 'a\u0000b\nc')];
    const m = await writeBundle(dir, scripts(...rows), { source, args: [] }, new Map());
    assert.deepEqual(m.notes, []);
    const files = m.order.map((e) => e.file);
    assert.equal(new Set(files.map((f) => f.toLowerCase())).size, rows.length, files.join(', '));
    for (const f of files) {
      assert.match(f, /^Script\/[^/]+\.json$/);
      assert.ok(Buffer.byteLength(path.basename(f)) <= 255, f);
      assert.ok(!path.basename(f).startsWith('.') && [...path.basename(f)].every((c) => c.charCodeAt(0) >= 0x20), f);
    }
    assert.equal(fileNameFor(script(1, '.')), id(1), 'a name of dots is its id');
    assert.equal((await readBundle(dir)).entities.size, rows.length);
  });

  it('names that differ only in case get different files (one file on macOS and Windows), on every pull', async () => {
    const m = await writeBundle(dir, scripts(script(1, 'Case'), script(2, 'case')), { source, args: [] }, new Map());
    const files = m.order.map((e) => e.file);
    assert.equal(new Set(files.map((f) => f.toLowerCase())).size, 2, files.join(', '));
    const again = await writeBundle(dir, scripts(script(2, 'case'), script(1, 'Case')), { source, args: [] }, new Map());
    assert.deepEqual(again.order.map((e) => e.file).sort(), files.sort(), 'stable');
    assert.equal((await readdir(path.join(dir, 'Script'))).length, 2);
  });

  it('a bundle whose two files differ only in case (grok s pull on Linux) is split on the next pull, losing neither', async () => {
    await mkdir(path.join(dir, 'Script'));
    await writeFile(path.join(dir, 'Script/Case.json'), JSON.stringify(script(1, 'Case')));
    await writeFile(path.join(dir, 'Script/case.json'), JSON.stringify(script(2, 'case')));
    const order = [
      { type: 'Script', id: id(1), file: 'Script/Case.json' },
      { type: 'Script', id: id(2), file: 'Script/case.json' },
    ];
    await writeFile(path.join(dir, 'manifest.json'), JSON.stringify({ formatVersion: 1, source, pulls: [{ at: 'then', args: [], ids: [id(1), id(2)] }], order, packages: [] }));
    const m = await writeBundle(dir, scripts(script(1, 'Case'), script(2, 'case')), { source, args: [] }, new Map());
    const files = m.order.map((e) => e.file);
    assert.equal(new Set(files.map((f) => f.toLowerCase())).size, 2, files.join(', '));
    const read = await readBundle(dir);
    assert.deepEqual([...read.entities.values()].map((e) => e.json.name).sort(), ['Case', 'case']);
  });

  it('a type folder that links out is not written through: a note with the reason, nothing outside', async () => {
    const elsewhere = path.join(root, 'elsewhere');
    await mkdir(elsewhere);
    await symlink(elsewhere, path.join(dir, 'Script'));
    const m = await writeBundle(dir, scripts(script(1, 'Hello')), { source, args: [] }, new Map());
    assert.deepEqual(await readdir(elsewhere), []);
    assert.equal(m.notes.length, 1);
    assert.match(m.notes[0].detail, /Script\/Hello\.json: Script is a link to .*elsewhere, outside .*; links out of the folder are not followed/);
    assert.deepEqual(m.order, [], 'not listed: it was not written');
  });

  it('a table id never leaves tables/: bytes of a hostile id are not written', async () => {
    const bad = '../../../x';
    const m = await writeBundle(
      dir,
      new Map([[bad, { type: 'TableInfo', json: { id: bad, name: 'T' } }]]),
      { source, args: [] },
      new Map([[bad, new TextEncoder().encode('pwned')]]),
    );
    assert.ok(!existsSync(path.join(root, 'a', 'x.d42')));
    assert.ok(
      m.notes.some((n) => /not a usable file name/.test(n.detail)),
      JSON.stringify(m.notes),
    );
  });

  it('a manifest naming a file outside the folder (../, absolute, through a link) is refused before reading it', async () => {
    await writeFile(path.join(root, 'secret.json'), '{"key": "s3cret"}');
    const entry = (file: string) => ({ formatVersion: 1, source, pulls: [], order: [{ type: 'Script', id: id(1), file }] });
    for (const file of ['../../../secret.json', path.join(root, 'secret.json')]) {
      await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(entry(file)));
      await assert.rejects(readBundle(dir), /lists the file .*which is not a path inside the bundle folder; nothing was read from it or sent to a server/);
    }
    await symlink(root, path.join(dir, 'up'));
    await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(entry('up/secret.json')));
    await assert.rejects(readBundle(dir), /leads outside the bundle folder \(through a link\)/);
    await writeFile(path.join(dir, 'manifest.json'), JSON.stringify({ ...entry('Script/x.json'), order: [{ type: 'Script', id: '../x', file: 'Script/x.json' }] }));
    await assert.rejects(readManifest(dir), /id "\.\.\/x" is not a server id/);
  });
});

describe('the base: what the server held at the pull', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'bundle-base-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("a pull records each entity's hash beside the manifest; a file written by normalize hashes the same", async () => {
    const row = { ...script(1, 'Hello'), updatedOn: 'now', entityTags: [{ id: 't', tag: 'demo' }] };
    const m = await writeBundle(dir, scripts(row), { source, args: [] }, new Map());
    const bases = basesFor(await readBase(dir), m, source.url);
    assert.equal(bases?.get(id(1)), hashOf('Script', row));
    const file = JSON.parse(await readFile(path.join(dir, 'Script/Hello.json'), 'utf8'));
    assert.equal(hashOf('Script', file), hashOf('Script', row), 'an unchanged file is not a change here');
    assert.deepEqual(normalize('Script', file), file, 'normalising twice changes nothing');
    assert.equal(basesFor(await readBase(dir), m, 'http://other/api'), undefined, 'no base on another server');
  });

  it('an entity a later pull by another tool (grok s pull) wrote has no base; an unreadable record is no record', async () => {
    await writeBundle(dir, scripts(script(1, 'One')), { source, args: [] }, new Map());
    const manifest = await readManifest(dir);
    manifest.pulls.push({ at: 'later', args: ['pull'], ids: [id(2)] });
    await recordBase(dir, source.url, new Map([[id(2), 'f'.repeat(64)]]), 1);
    const bases = basesFor(await readBase(dir), manifest, source.url);
    assert.equal(bases?.has(id(1)), true);
    assert.equal(bases?.has(id(2)), false);
    await writeFile(path.join(dir, BASE_FILE), '{not json');
    assert.deepEqual((await readBase(dir)).servers, {});
  });

  it('sides: only here → update; only on the server → left there; both → a conflict', () => {
    assert.equal(sidesChanged('b', 'b', 'l'), 'here');
    assert.equal(sidesChanged('b', 's', 'b'), 'server');
    assert.equal(sidesChanged('b', 's', 'l'), 'both');
    assert.equal(sidesChanged('b', 'b', 'b'), undefined);
    assert.equal(sidesChanged(undefined, 's', 'l'), undefined, 'no base: compared as grok compares');
  });
});

// grok's bundle format (datagrok-tools GROK_S.md "Bundle layout"): file names and normalisation, against the
// cases it documents — `:/\?*"<>|` → `.`, Windows device names, long names, clashes, volatile keys, `_` keys.
import * as assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { readBundle, readManifest, writeBundle } from '../../src/platform/bundles/bundleFolder';
import { changedKeys, hashOf, normalize } from '../../src/platform/bundles/normalize';
import { checkSelection } from '../../src/platform/bundles/pull';
import { fileNameFor, resolveType } from '../../src/platform/bundles/registry';

const ID = '0c1d2e3f-0000-4000-8000-00000000abcd';

describe('bundle file names (grok format)', () => {
  it('writes the qualified name with ":" and "/" as "."', () => {
    assert.equal(fileNameFor({ id: ID, name: 'Chembl', namespace: 'Chem:' }), 'Chem.Chembl');
    assert.equal(fileNameFor({ id: ID, name: 'b.csv', path: 'Admin:Data/a/b.csv' }), 'Admin.Data.a.b.csv');
    assert.equal(fileNameFor({ id: ID, name: 'What? "Now" <x>|y*' }), 'What. .Now. .x.y');
    assert.equal(fileNameFor({ id: ID, name: ':Lead:' }), 'Lead', 'no dots at either end');
  });

  it('gives a Windows device name its id, whatever follows it', () => {
    assert.equal(fileNameFor({ id: ID, name: 'NUL' }), `NUL-${ID}`);
    assert.equal(fileNameFor({ id: ID, name: 'com1', namespace: '' }), `com1-${ID}`);
    assert.equal(fileNameFor({ id: ID, name: 'x', namespace: 'LPT9:' }), `LPT9-${ID}.x`);
    assert.equal(fileNameFor({ id: ID, name: 'Console' }), 'Console', 'only the device names themselves');
  });

  it('caps a long name at 200 bytes with a stable digest; a nameless row is its id', () => {
    const long = 'é'.repeat(150);
    const name = fileNameFor({ id: ID, name: long });
    assert.ok(Buffer.byteLength(name) <= 200, `${Buffer.byteLength(name)} bytes`);
    assert.match(name, /-[0-9a-f]{8}$/);
    assert.equal(fileNameFor({ id: ID, name: long }), name, 'stable');
    assert.notEqual(fileNameFor({ id: ID, name: `${long}x` }), name, 'unique');
    assert.equal(fileNameFor({ id: ID }), ID);
  });

  it('a clash keeps the plain name for the first owner and gives the other its id prefix; a rename moves the file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'bundle-'));
    try {
      const source = { url: 'http://x/api', version: '1.26.0', userNamespace: 'demo:' };
      const one = { id: '11111111-0000-4000-8000-000000000001', name: 'Sales', namespace: 'A:' };
      const two = { id: '22222222-0000-4000-8000-000000000002', name: 'Sales', namespace: 'A/' };
      const m = await writeBundle(
        dir,
        new Map([
          [one.id, { type: 'Script', json: one }],
          [two.id, { type: 'Script', json: two }],
        ]),
        { source, args: [] },
        new Map(),
      );
      assert.deepEqual(
        m.order.map((e) => e.file),
        ['Script/A.Sales-22222222.json', 'Script/A.Sales.json'].sort(),
      );
      const again = await writeBundle(dir, new Map([[one.id, { type: 'Script', json: { ...one, name: 'Revenue' } }]]), { source, args: [] }, new Map());
      assert.deepEqual(again.order.map((e) => e.file).sort(), ['Script/A.Revenue.json', 'Script/A.Sales-22222222.json']);
      assert.deepEqual((await readdir(path.join(dir, 'Script'))).sort(), ['A.Revenue.json', 'A.Sales-22222222.json']);
      await assert.rejects(writeBundle(dir, new Map(), { source: { ...source, url: 'http://other/api' }, args: [] }, new Map()), /was pulled from http:\/\/x\/api/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('bundle normalisation (grok format)', () => {
  const script = {
    '#type': 'Script',
    id: ID,
    name: 'Hello',
    namespace: 'demo:',
    script: '#name: Hello',
    createdOn: '2024-01-01',
    updatedOn: '2025-01-01',
    author: { id: 'x' },
    entityTags: [
      { id: 'a', tag: 'demo' },
      { id: 'b', tag: 'ai' },
      { id: 'c', tag: 'demo' },
    ],
    package: { id: 'p', name: 'Pkg', version: '1' },
    metaParams: { sync_id: 's', keep: 'k' },
    zeta: 1,
  };

  it('sorts keys, drops volatile keys, keeps tags by name as _tags, a package as its id, no push stamps', () => {
    const n = normalize('Script', script);
    assert.deepEqual(Object.keys(n), ['#type', '_tags', 'id', 'metaParams', 'name', 'namespace', 'package', 'script', 'zeta']);
    assert.deepEqual(n._tags, ['ai', 'demo']);
    assert.deepEqual(n.package, { id: 'p' });
    assert.deepEqual(n.metaParams, { keep: 'k' });
  });

  it('a connection loses its credentials; masked parameters are listed by name', () => {
    const n = normalize('DataConnection', { id: ID, name: 'Db', credentials: { id: 'c' }, parameters: { server: 's', password: '_____________', token: 'not—changed' } });
    assert.equal(n.credentials, undefined);
    assert.deepEqual(n.parameters, { server: 's' });
    assert.deepEqual(n._credentials, ['password', 'token']);
  });

  it('a query keeps only its connection id; a group travels without relations; a project relations compacted and sorted', () => {
    assert.deepEqual(normalize('DataQuery', { id: ID, name: 'Q', connection: { id: 'c1', name: 'Db', parameters: {} } }).connection, { id: 'c1' });
    const g = normalize('UserGroup', { id: ID, name: 'G', parents: [{ id: 1 }], children: [{ id: 2 }] });
    assert.deepEqual([g.parents, g.children], [[], []]);
    const p = normalize('Project', {
      id: ID,
      name: 'P',
      storage: { x: 1 },
      relations: [
        { id: 'r2', entity: { '#type': 'TableInfo', id: 'b', name: 'T' }, isLink: true },
        { id: 'r1', entity: { '#type': 'ViewLayout', id: 'a', name: 'L' } },
        { id: 'r3', entity: { id: 'f', parameters: { isProject: true } } },
      ],
    });
    assert.equal(p.storage, undefined);
    assert.deepEqual(p.relations, [
      { entity: { '#type': 'EntityRecord', id: 'a' }, id: 'r1', isLink: false },
      { entity: { '#type': 'EntityRecord', id: 'b' }, id: 'r2', isLink: true },
    ]);
  });

  it('compares without _ keys, namespace and relations; changed keys name what differs', () => {
    const other = { ...script, namespace: 'admin:', _grants: [{ group: 'x', permission: 'View' }], updatedOn: 'later' };
    assert.equal(hashOf('Script', script), hashOf('Script', other));
    assert.deepEqual(changedKeys('Script', script, { ...script, script: '#name: Hello\n1', zeta: 2 }), ['script', 'zeta']);
  });
});

describe('bundle input checks (refused before any request)', () => {
  it('a folder without manifest.json, a newer formatVersion, a missing entity file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'bundle-'));
    try {
      await assert.rejects(readManifest(dir), /is not a bundle folder: it has no manifest\.json/);
      await writeFile(path.join(dir, 'manifest.json'), JSON.stringify({ formatVersion: 2, order: [] }));
      await assert.rejects(readManifest(dir), /formatVersion 2; this extension reads bundles of formatVersion 1/);
      await writeFile(path.join(dir, 'manifest.json'), JSON.stringify({ formatVersion: 1, source: {}, pulls: [], order: [{ type: 'Script', id: ID, file: 'Script/x.json' }] }));
      await assert.rejects(readBundle(dir), /missing Script\/x\.json/);
      assert.equal(JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')).formatVersion, 1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a selection: names, or text and types; the whole server, an unknown type refused', () => {
    assert.deepEqual(checkSelection(['Samples:TopCustomers']), ['Samples:TopCustomers']);
    assert.deepEqual(checkSelection({ text: 'sales', types: ['query'] }), { text: 'sales', types: ['query'] });
    assert.throws(() => checkSelection([]), /at least one entity/);
    assert.throws(() => checkSelection({}), /Refusing to pull the whole server/);
    assert.throws(() => checkSelection({ types: ['notebookz'] }), /not supported in a bundle/);
    assert.equal(resolveType('dashboard'), 'Project');
  });
});

describe('bundle writing: nothing left behind on failure', () => {
  it('a pull whose write fails removes the folders it made (the bundle folder and its new parents), not the ones that were there', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'bundle-fail-'));
    try {
      const dir = path.join(root, 'new', 'bundle');
      // A value JSON cannot write stands for any failure part-way (a full disk, a file in the way).
      const entities = new Map([[ID, { type: 'Script', json: { id: ID, name: 'x', big: 1n } as Record<string, unknown> }]]);
      await assert.rejects(writeBundle(dir, entities, { source: { url: 'http://x/api', version: '1', userNamespace: '' }, args: [] }, new Map()), /BigInt/);
      assert.deepEqual(await readdir(root), [], 'no empty bundle/ folder, no new parent');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

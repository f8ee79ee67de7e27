// Publishing a package (src/platform/packages/publish/) through the API client against the emulator over
// real HTTP: check → build → pack → upload → verify, and each bad input: a clear message, nothing uploaded,
// nothing claimed.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PublishError } from '../../src/platform/packages/publish/errors';
import { packList } from '../../src/platform/packages/publish/packFiles';
import { publishPackageFolder } from '../../src/platform/packages/publish/publish';
import { edit, FAULTS } from '../fixtures/packages/faults';
import { makePublishablePackage, PUBLISHED_FUNCTIONS } from '../fixtures/packages/publishable';
import { useEmulator } from './harness';

describe('packages: publish through the API client', function () {
  this.timeout(60_000);
  const h = useEmulator();
  let root: string;
  let dir: string;

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'publish-'));
    dir = makePublishablePackage(path.join(root, 'hello'), { version: '0.2.0' });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const uploads = async () => (await h.requests()).filter((r) => r.method === 'POST' && r.path.includes('/packages/dev/'));
  const rejects = async (p: Promise<unknown>, step: string, message: RegExp): Promise<PublishError> => {
    const e = await p.then(
      () => assert.fail('the publish succeeded'),
      (x: unknown) => x,
    );
    assert.ok(e instanceof PublishError, `a PublishError, got ${e}`);
    assert.equal(e.step, step);
    assert.match(e.message, message);
    return e;
  };

  it('packs what grok publish packs: dist/, src/package* only, no dot files', async () => {
    writeFileSync(path.join(dir, '.env'), 'SECRET=1');
    edit(dir, 'src/other.ts', () => 'export const x = 1;\n');
    const names = (await packList(dir)).entries.map((e) => e.name).sort();
    assert.deepEqual(names, [
      'CHANGELOG.md',
      'README.md',
      'detectors.js',
      'dist/package-test.js',
      'dist/package.js',
      'dist/package.js.map',
      'package.json',
      'src/package-test.ts',
      'src/package.g.ts',
      'src/package.ts',
      'tsconfig.json',
    ]);
  });

  it('a release: uploaded, then verified: the version and the functions the server lists', async () => {
    const stages: string[] = [];
    let sent = 0;
    const r = await publishPackageFolder(h.client, { folder: dir, release: true, onStage: (s) => stages.push(s), onProgress: (p) => (sent = p.bytes) });
    assert.deepEqual(stages, ['check', 'pack', 'upload', 'verify']);
    assert.deepEqual(r, { name: 'Hello', version: '0.2.0', debug: false, functions: [...PUBLISHED_FUNCTIONS].sort() });
    assert.ok(sent > 0, 'progress in bytes');
    const up = await uploads();
    assert.equal(up.length, 1);
    assert.match(up[0].query, /debug=false&rebuild=false&dropDb=false/);
    assert.equal(await h.client.callFunction('Hello:add', { a: 2, b: 3 }), 5);
  });

  it("debug: the caller's version at that version; a second publish sends only what changed", async () => {
    const first = await publishPackageFolder(h.client, { folder: dir });
    assert.equal(first.debug, true);
    assert.equal(first.version, '0.2.0');
    edit(dir, 'dist/package.js', (t) => t.replace('return a+b', 'return a*b'));
    const later = new Date(Date.now() + 5000);
    (await import('node:fs')).utimesSync(path.join(dir, 'dist/package.js'), later, later);
    let stage = '';
    await publishPackageFolder(h.client, { folder: dir, onStage: (_, detail) => (stage = stage || (detail.includes('Uploading') ? detail : '')) });
    assert.match(stage, /: 2 files$/, 'only dist/package.js was sent (and the marker grok adds for servers before 1.28)');
    assert.equal(await h.client.callFunction('Hello:add', { a: 2, b: 3 }), 6);
  });

  it('not a package, no name, no version: said before anything is sent', async () => {
    mkdirSync(path.join(root, 'plain'));
    await rejects(
      publishPackageFolder(h.client, { folder: path.join(root, 'plain') }),
      'not-a-package',
      /is not a Datagrok package: a Datagrok package is a folder with a package\.json/,
    );
    edit(dir, 'package.json', (t) => t.replace('"version": "0.2.0",', ''));
    await rejects(publishPackageFolder(h.client, { folder: dir }), 'bad-manifest', /has no valid "version"/);
    edit(dir, 'package.json', (t) => t.replace('"name": "hello",', ''));
    await rejects(publishPackageFolder(h.client, { folder: dir }), 'bad-manifest', /has no valid "name"/);
    assert.deepEqual(await uploads(), []);
  });

  it('an error of grok check: stops the publish before anything is sent', async () => {
    FAULTS['deep datagrok-api import'].plant(dir);
    await rejects(publishPackageFolder(h.client, { folder: dir }), 'check', /grok check found 1 error in hello: src\/deep\.ts:2 .*Nothing was published/);
    assert.deepEqual(await uploads(), []);
  });

  it('a failing build: its output kept, nothing uploaded', async () => {
    edit(dir, 'package.json', (t) => t.replace('"build": "grok build"', `"build": "node -e \\"console.error('bundler says: boom'); process.exit(3)\\""`));
    const e = await rejects(publishPackageFolder(h.client, { folder: dir, build: true }), 'build', /npm run build .* failed with exit code 3: nothing was published/);
    assert.match(e.output ?? '', /bundler says: boom/);
    assert.deepEqual(await uploads(), []);
  });

  it('a connection whose placeholder the environment lacks: named, nothing uploaded', async () => {
    const placeholder = (name: string) => `$\{${name}}`;
    edit(dir, 'connections/db.json', () => `{"server": "${placeholder('DB_HOST')}", "login": "${placeholder('DB_USER')}"}`);
    await rejects(publishPackageFolder(h.client, { folder: dir, env: { DB_USER: 'me' } }), 'pack', /connections\/db\.json: the environment variable DB_HOST is not set/);
    assert.deepEqual(await uploads(), []);
    const filled = (await packList(dir, { DB_HOST: 'h', DB_USER: 'u' })).entries.find((x) => x.name === 'connections/db.json');
    assert.equal(filled?.content?.toString(), '{"server": "h", "login": "u"}');
  });

  it("a key the server refuses (401): the server's message, never the key; nothing claimed", async () => {
    const client = h.newClient({ apiKey: 'secret-wrong-key-123' });
    const e = await h.fails(publishPackageFolder(client, { folder: dir, release: true }), 'unauthorized');
    assert.doesNotMatch(e.message, /secret-wrong-key-123/);
    assert.equal((await client.listPackages('Hello').catch(() => [])).length, 0);
  });

  it('an HTML page or a 500 for the upload: an error, and the package is not listed', async () => {
    await h.fault({ match: 'POST /api/packages/dev/', html: true, status: 502 });
    await h.fails(publishPackageFolder(h.client, { folder: dir, release: true }), 'unavailable');
    await h.fault({ match: 'POST /api/packages/dev/', apiError: 'Package storage is full', status: 500 });
    const e = await h.fails(publishPackageFolder(h.client, { folder: dir, release: true }), 'server', /Package storage is full/);
    assert.doesNotMatch(e.message, /published/i);
    assert.equal(
      (await h.client.listPackages('Hello')).find((p) => p.name === 'Hello'),
      undefined,
    );
  });

  it('a function the server does not list is named (nothing assumed from a 200)', async () => {
    await h.fault({ match: 'GET /api/public/v1/functions?', text: '[]', contentType: 'application/json' });
    const e = await rejects(
      publishPackageFolder(h.client, { folder: dir, release: true }),
      'verify',
      /hello 0\.2\.0 is published, but the server lists no function .* of the 5 its annotations declare/,
    );
    for (const f of PUBLISHED_FUNCTIONS) assert.match(e.message, new RegExp(`\\b${f}\\b`));
  });

  it('cancelled half-way through the upload: stopped, nothing published', async () => {
    dir = makePublishablePackage(path.join(root, 'big'), { version: '0.2.0', distBytes: 5_000_000 });
    await h.config({ latencyMs: 0 });
    const abort = new AbortController();
    const p = publishPackageFolder(h.client, {
      folder: dir,
      release: true,
      signal: abort.signal,
      onProgress: (x) => {
        if (x.bytes > 0 && x.bytes < (x.total ?? Number.POSITIVE_INFINITY)) abort.abort();
      },
    });
    await h.fails(p, 'cancelled');
    assert.equal(
      (await h.client.listPackages('Hello')).find((x) => x.name === 'Hello'),
      undefined,
    );
  });
});

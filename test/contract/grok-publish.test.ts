// Contract: the real `grok publish` (datagrok-tools 6.7.5) against the emulator, then the published
// functions through the public API as any function is called. A temporary HOME holds the CLI's
// `.grok/config.yaml` pointing at the emulator; the package's dist/ is prebuilt (`--skip-build`).
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Emulator } from '../emulator/server';
import { edit } from '../fixtures/packages/faults';
import { makePublishablePackage, PUBLISHED_FUNCTIONS } from '../fixtures/packages/publishable';
import { configure, type Json, useEmulator } from './clients';

const run = promisify(execFile);
const GROK = require.resolve('datagrok-tools/bin/grok.js');

interface Published {
  code: number;
  out: string;
}

/** `grok publish emu [args]` in `dir`, HOME a folder of the test's with the emulator as server `emu`. */
async function grokPublish(e: Emulator, home: string, dir: string, args: string[] = [], key = e.key): Promise<Published> {
  mkdirSync(path.join(home, '.grok'), { recursive: true });
  writeFileSync(path.join(home, '.grok', 'config.yaml'), `default: emu\nservers:\n  emu:\n    url: '${e.baseUrl}'\n    key: '${key}'\n`);
  try {
    const { stdout, stderr } = await run(process.execPath, [GROK, 'publish', 'emu', '--skip-build', '--skip-check', ...args], {
      cwd: dir,
      env: { ...process.env, HOME: home, USERPROFILE: home },
      timeout: 60_000,
    });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const x = err as { code: number; stdout: string; stderr: string };
    return { code: x.code, out: x.stdout + x.stderr };
  }
}

async function api(e: Emulator, method: string, route: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${e.baseUrl}${route}`, {
    method,
    headers: { Authorization: `Bearer ${e.key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Json) : {} };
}

async function listed(e: Emulator, name: string): Promise<Json | undefined> {
  return ((await api(e, 'GET', `/packages?text=${encodeURIComponent(name)}`)).json as unknown as Json[]).find((p) => p.name === name);
}

describe('contract: grok publish (datagrok-tools 6.7.5) against the emulator', function () {
  this.timeout(120_000);
  const emu = useEmulator();
  let root: string;
  let home: string;
  let dir: string;

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'grok-publish-'));
    home = path.join(root, 'home');
    dir = makePublishablePackage(path.join(root, 'hello'), { version: '0.1.0' });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a release publish: listed at its version with the annotated functions, and a function runs through the public API', async () => {
    const e = emu();
    const r = await grokPublish(e, home, dir, ['--release']);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /Published to/);
    const sent = e.state.log.filter((l) => l.path.startsWith('/api/packages/dev/'));
    assert.deepEqual(
      sent.map((l) => `${l.method} ${l.path} ${l.status}`),
      ['GET /api/packages/dev/hello/timestamps 200', 'POST /api/packages/dev/hello 200'],
    );
    assert.match(sent[1].query, /debug=false&rebuild=false&dropDb=false/);

    const pkg = await listed(e, 'Hello');
    assert.ok(pkg, 'GET /packages lists it');
    assert.equal(pkg.version, '0.1.0');
    assert.deepEqual(
      pkg.publishedVersions.map((v: Json) => [v.version, v.debug, v.isCurrent]),
      [['0.1.0', false, true]],
    );
    // The functions come from the annotations of src/package*.ts (dist/package.js has no comments).
    const fns = (await api(e, 'GET', `/public/v1/functions?text=${encodeURIComponent('package = "Hello"')}`)).json as unknown as Json[];
    assert.deepEqual(fns.map((f) => f.name).sort(), [...PUBLISHED_FUNCTIONS].sort());
    const add = (await api(e, 'GET', '/public/v1/functions/Hello:add')).json;
    assert.deepEqual(
      add.params.map((p: Json) => [p.name, p.propertyType, p.isInput, p.defaultValue]),
      [
        ['a', 'int', true, null],
        ['b', 'int', true, 2],
        ['sum', 'int', false, null],
      ],
    );

    // Called as every function is: the bundle's own JavaScript runs.
    assert.deepEqual(await api(e, 'POST', '/public/v1/functions/Hello.add/call', { a: 40, b: 2 }), { status: 200, json: 42 as unknown as Json });
    assert.equal((await api(e, 'POST', '/public/v1/functions/Hello.add/call', { a: 40 })).json as unknown, 42, 'the annotation default b = 2 applies');
    assert.equal((await api(e, 'POST', '/public/v1/functions/Hello.greet/call', { who: 'grok' })).json as unknown, 'Hello, grok!');
    const missing = await api(e, 'POST', '/public/v1/functions/Hello.add/call', { b: 1 });
    assert.equal(missing.status, 400);
    assert.match(missing.json.message, /Missing parameter "a"/);
    const browserOnly = await api(e, 'POST', '/public/v1/functions/Hello.info/call', {});
    assert.equal(browserOnly.status, 501);
    assert.match(browserOnly.json.message, /grok\.shell\.info\(\) is not available/);
  });

  it('a debug publish is a version named by the login, seen only by its publisher; the next sends only changed files', async () => {
    const e = emu();
    assert.equal((await grokPublish(e, home, dir, ['--release'])).code, 0);
    const first = await grokPublish(e, home, dir);
    assert.equal(first.code, 0, first.out);
    const pkg = await listed(e, 'Hello');
    assert.deepEqual(
      pkg?.publishedVersions.map((v: Json) => [v.version, v.debug, v.isCurrent]),
      [
        ['0.1.0', false, true],
        ['demo', true, false],
      ],
    );
    const store = e.state.packages;
    const stored = store.find('hello');
    assert.ok(stored);
    assert.equal((store.json(stored, 'someone-else')?.publishedVersions as unknown[] | undefined)?.length, 1, 'another user sees the release only');
    assert.equal(store.visibleVersion(stored, e.state.currentUser)?.debug, true, 'the publisher loads the debug version');

    // Change one function, keep the other files' times: the CLI skips those, the server keeps them.
    edit(dir, 'dist/package.js', (t) => t.replace('return a+b', 'return a+b+1000'));
    const later = new Date(Date.now() + 5000);
    utimesSync(path.join(dir, 'dist/package.js'), later, later);
    const second = await grokPublish(e, home, dir, ['--verbose']);
    assert.equal(second.code, 0, second.out);
    assert.match(second.out, /Skipping src\/package\.ts/);
    assert.match(second.out, /Adding dist\/package\.js\.\.\./);
    assert.equal((await api(e, 'POST', '/public/v1/functions/Hello.add/call', { a: 1, b: 1 })).json as unknown, 1002);
    const fns = (await api(e, 'GET', `/public/v1/functions?text=${encodeURIComponent('package = "Hello"')}`)).json as unknown as Json[];
    assert.equal(fns.length, PUBLISHED_FUNCTIONS.length, 'functions still read from the kept src/package.ts');
  });

  it('a wrong key: both routes refused, the CLI reports it and exits 1, nothing published', async () => {
    const e = emu();
    const r = await grokPublish(e, home, dir, ['--release'], 'wrong-key');
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /Unauthorized/);
    assert.equal(await listed(e, 'Hello'), undefined);
    assert.deepEqual(
      e.state.log.filter((l) => l.path.includes('/packages/dev/')).map((l) => l.status),
      [401, 401],
      'the header form, then the legacy path with the key in it',
    );
  });

  it('an older server (no header form): the CLI falls back to the key in the path', async () => {
    const e = emu();
    await configure(e, { generation: 'old' });
    const r = await grokPublish(e, home, dir, ['--release']);
    assert.equal(r.code, 0, r.out);
    assert.equal((await listed(e, 'Hello'))?.version, '0.1.0');
    assert.ok(e.state.log.some((l) => l.method === 'POST' && l.path === `/api/packages/dev/${e.key}/hello`));
  });

  it('publishes a scoped npm name under its server name', async () => {
    const e = emu();
    edit(dir, 'package.json', (t) => t.replace('"name": "hello"', '"name": "@acme/hello-world"'));
    edit(dir, 'dist/package.js', (t) => t.replaceAll('hello', 'helloworld'));
    const r = await grokPublish(e, home, dir, ['--release']);
    assert.equal(r.code, 0, r.out);
    assert.equal((await listed(e, 'HelloWorld'))?.version, '0.1.0');
    assert.equal((await api(e, 'POST', '/public/v1/functions/HelloWorld.add/call', { a: 1, b: 2 })).json as unknown, 3);
  });
});

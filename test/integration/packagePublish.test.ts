// Publishing a package in the real host: datagrok.packages.publish with options returns what the server
// lists (release and debug), the published function runs on the server; bad options and a failing build
// are refused with the reason and nothing uploaded. The `datagrok` task provider offers build, publish and
// publish release per package.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { edit } from '../fixtures/packages/faults';
import { makePublishablePackage, PUBLISHED_FUNCTIONS } from '../fixtures/packages/publishable';
import { emulator, emulatorRequests, resetEmulator, signIn } from './support';

interface PublishResult {
  name: string;
  version: string;
  debug: boolean;
  functions: string[];
}

async function call(name: string, params: Record<string, unknown>): Promise<unknown> {
  const res = await fetch(`${emulator.url}/public/v1/functions/${name}/call`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${emulator.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(params),
  });
  return res.json();
}

async function rejection(p: Thenable<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  assert.fail('the command succeeded');
}

describe('packagePublish: datagrok.packages.publish and the datagrok tasks', function () {
  this.timeout(120_000);
  let root = '';
  let dir = '';

  before(async () => {
    await resetEmulator();
    await signIn();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-publish-'));
    dir = makePublishablePackage(path.join(root, 'hello'), { version: '1.2.3' });
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('publishes a release with options and returns what the server lists; the function runs there', async () => {
    const r = (await vscode.commands.executeCommand('datagrok.packages.publish', { folder: vscode.Uri.file(dir), release: true })) as PublishResult;
    assert.deepEqual(r, { name: 'Hello', version: '1.2.3', debug: false, functions: [...PUBLISHED_FUNCTIONS].sort() });
    assert.equal(await call('Hello.add', { a: 20, b: 22 }), 42);
  });

  it('publishes a debug version to a named server (the debug flag sent, the version verified)', async () => {
    const r = (await vscode.commands.executeCommand('datagrok.packages.publish', { folder: vscode.Uri.file(dir), server: emulator.url })) as PublishResult;
    assert.equal(r.debug, true);
    assert.equal(r.version, '1.2.3');
    const posts = (await emulatorRequests()).filter((q) => q.method === 'POST' && q.path === '/api/packages/dev/hello');
    assert.match((posts[posts.length - 1] as { query?: string }).query ?? '', /^debug=true&rebuild=false&dropDb=false$/);
  });

  it('refuses bad options and a folder that is not a package, with the reason', async () => {
    const notBool = await rejection(vscode.commands.executeCommand('datagrok.packages.publish', { folder: vscode.Uri.file(dir), release: 'yes' }));
    assert.match(notBool.message, /The option "release" must be true or false/);
    const plain = path.join(root, 'plain');
    fs.mkdirSync(plain, { recursive: true });
    const notPackage = await rejection(vscode.commands.executeCommand('datagrok.packages.publish', { folder: vscode.Uri.file(plain) }));
    assert.match(notPackage.message, /is not a Datagrok package/);
  });

  it('a failing build: the reason said, its output kept, nothing uploaded', async () => {
    const broken = makePublishablePackage(path.join(root, 'broken'), { name: 'Broken' });
    edit(broken, 'package.json', (t) => t.replace('"build": "grok build"', `"build": "node -e \\"console.error('bundler: syntax error in src/package.ts'); process.exit(2)\\""`));
    const before = (await emulatorRequests()).length;
    const e = await rejection(vscode.commands.executeCommand('datagrok.packages.publish', { folder: vscode.Uri.file(broken), build: true }));
    assert.match(e.message, /The build \(npm run build in .*\) failed with exit code 2: nothing was published/);
    const after = (await emulatorRequests()).slice(before);
    assert.deepEqual(
      after.filter((q) => q.path.includes('/packages/dev/')),
      [],
    );
  });
});

// Debugging a package with no login, below the editor: the session token of the dev-key login
// (src/api/sessions.ts), a browser profile signed in with it over the DevTools pipe
// (src/platform/packages/debug/browserSignIn.ts), and the emulator's page that loads the published
// package for a signed-in browser only (test/emulator/debugPages.ts). The browser is Debian's Chromium,
// driven afterwards by playwright-core on the same profile as the debugger would launch it.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { createClient, type DatagrokClient } from '../../src/api';
import { DatagrokError } from '../../src/api/errors';
import { signBrowserProfileIn } from '../../src/platform/packages/debug/browserSignIn';
import { webOrigin } from '../../src/platform/packages/debug/debugConfiguration';
import { type Emulator, startEmulator } from '../emulator/server';
import { copyDebugPackage, DEBUG_PACKAGE_NAME, grokPublish } from '../fixtures/debugPackage';

const CHROMIUM = '/usr/bin/chromium';

/** Opens `url` in the browser on `profile` (as the debugger launches it) and returns the page's title and text. */
async function visit(profile: string, url: string): Promise<{ status: number; title: string; text: string }> {
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const response = await page.goto(url);
    await page.waitForFunction("document.title.endsWith('(done)') || document.title.startsWith('401')", undefined, { timeout: 15_000 }).catch(() => undefined);
    return { status: response?.status() ?? 0, title: await page.title(), text: await page.innerText('body') };
  } finally {
    await context.close();
  }
}

describe('packageDebug: a browser signed in with a session token, the emulator page of a published package', function () {
  this.timeout(120_000);
  let emu: Emulator;
  let client: DatagrokClient;
  let root: string;

  before(async function () {
    if (!existsSync(CHROMIUM)) this.skip();
    emu = await startEmulator({ key: 'k' });
    client = createClient({ baseUrl: emu.baseUrl, apiKey: 'k' });
    root = mkdtempSync(path.join(tmpdir(), 'dg-debug-'));
    const dir = copyDebugPackage(path.join(root, 'debugdemo'));
    await grokPublish(emu.baseUrl, 'k', dir, path.join(root, 'home'));
  });
  after(async () => {
    await client?.close();
    await emu?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('the dev-key login gives a session token; a refused key is unauthorized, its message without the key', async () => {
    const before = emu.state.log.length;
    const token = await client.sessionToken();
    assert.match(token, /\S{8,}/);
    const wrong = createClient({ baseUrl: emu.baseUrl, apiKey: 'wrong-key-123' });
    try {
      await assert.rejects(wrong.sessionToken(), (e: unknown) => e instanceof DatagrokError && e.kind === 'unauthorized' && !e.message.includes('wrong-key-123'));
    } finally {
      await wrong.close();
    }
    const login = emu.state.log.slice(before).filter((l) => l.path === '/api/users/login/dev');
    assert.deepEqual(
      login.map((l) => l.status),
      [200, 401],
    );
  });

  it("a profile signed in runs the published package's app (its dist/package.js from the published files); without the cookie the page is 401", async () => {
    const profile = path.join(root, 'signed-in');
    const origin = webOrigin(emu.baseUrl);
    const token = await client.sessionToken();
    const started = performance.now();
    const logged = emu.state.log.length;
    await signBrowserProfileIn({ browser: CHROMIUM, profile, origin, token });
    console.log(`      signing the profile in took ${(performance.now() - started).toFixed(0)} ms`);
    // The signing-in run asked the server for nothing: its page was answered by the browser itself.
    const asked = emu.state.log.slice(logged).map((l) => `${l.method} ${l.path}`);
    assert.deepEqual(asked, [], 'the signing-in run asked the server for nothing');
    const app = await visit(profile, `${origin}/apps/${DEBUG_PACKAGE_NAME}`);
    assert.equal(app.status, 200, app.text);
    assert.match(app.text, /DebugDemoApp: "Hello, Datagrok, from Debug Demo"/);
    const files = emu.state.log.filter((l) => l.path.startsWith('/api/packages/published/files/'));
    assert.ok(
      files.some((l) => l.path.endsWith('/dist/package.js') && l.status === 200 && l.authorized),
      JSON.stringify(files),
    );

    const fresh = await visit(path.join(root, 'fresh'), `${origin}/apps/${DEBUG_PACKAGE_NAME}`);
    assert.equal(fresh.status, 401);
    assert.match(fresh.text, /Not signed in: this page needs the auth cookie/);
  });

  it('a token the server does not know (signed out since) leaves the page at 401', async () => {
    const profile = path.join(root, 'stale');
    const origin = webOrigin(emu.baseUrl);
    await signBrowserProfileIn({ browser: CHROMIUM, profile, origin, token: 'emulator-session-not-issued' });
    assert.equal((await visit(profile, `${origin}/`)).status, 401);
  });

  it('a browser that does not exist: the message says to set runtimeExecutable', async () => {
    await assert.rejects(
      signBrowserProfileIn({ browser: path.join(root, 'no-such-browser'), profile: path.join(root, 'p'), origin: 'http://127.0.0.1:1', token: 't' }),
      /Signing the browser in failed: .*no-such-browser.*runtimeExecutable/s,
    );
  });
});

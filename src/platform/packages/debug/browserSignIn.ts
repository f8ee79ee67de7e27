// Signs a browser profile in to a Datagrok server as `grok test` signs its browser in (datagrok-tools
// `bin/utils/test-utils.js`: a session token from the key, then the `auth` cookie and `localStorage.auth`
// of the server's origin; no login form). Done before the debugger launches the browser on that profile:
// a short headless run of the same browser, driven over its DevTools pipe, opens a tiny page that claims
// the server's origin (answered by the browser itself through the Fetch domain, so the server is not
// asked for anything), writes the token there, sets the cookie (persistent, so it outlives this run) and
// closes the browser cleanly, which writes both to the profile. The debug session's first navigation is
// then already signed in: no 401 page, no reload, and no dependence on the debugger's internals.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { CdpPipe } from './cdpPipe';

export interface BrowserSignIn {
  /** The browser's executable (Chrome, Edge or Chromium). */
  browser: string;
  /** The user-data-dir the debug session will use. */
  profile: string;
  /** The server's web origin, e.g. `https://public.datagrok.ai`. */
  origin: string;
  /** The session token (a credential: never logged). */
  token: string;
  timeoutMs?: number;
}

/** How long a sign-in cookie lasts in the profile; the next launch writes a fresh one anyway. */
const COOKIE_DAYS = 14;
/** The page that claims the server's origin; its empty icon keeps the browser from asking the server for /favicon.ico. */
const PAGE = '<!DOCTYPE html><html><head><title>Datagrok sign-in</title><link rel="icon" href="data:,"></head><body></body></html>';

/** The flags of the signing-in run: headless, quiet, no first-run UI; no sandbox as root (Chromium refuses to start otherwise). */
export function signInArgs(profile: string): string[] {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  return [
    '--headless=new',
    ...(root ? ['--no-sandbox'] : []),
    '--disable-gpu',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-extensions',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--user-data-dir=${profile}`,
    '--remote-debugging-pipe',
    'about:blank',
  ];
}

export async function signBrowserProfileIn(o: BrowserSignIn): Promise<void> {
  mkdirSync(o.profile, { recursive: true });
  let child: ChildProcess;
  try {
    child = spawn(o.browser, signInArgs(o.profile), { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], windowsHide: true });
  } catch (error) {
    throw new Error(`The browser ${o.browser} could not be started: ${(error as Error).message}`);
  }
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString('utf8')).slice(-2000);
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const cdp = new CdpPipe(child);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it did not finish within ${(o.timeoutMs ?? 30_000) / 1000} s`)), o.timeoutMs ?? 30_000);
  });
  try {
    await Promise.race([signIn(cdp, o), timeout]);
    await cdp.send('Browser.close').catch(() => undefined);
    // The profile is written as the browser shuts down: wait for it (bounded), then make sure it is gone.
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  } catch (error) {
    const spawnFailed = (error as NodeJS.ErrnoException).code === 'ENOENT' ? ' (no such file)' : '';
    const lastLine = stderr.trim().split('\n').filter(Boolean).pop();
    throw new Error(
      `Signing the browser in failed: ${o.browser}${spawnFailed} ${(error as Error).message}${lastLine ? ` (it said: ${lastLine.slice(0, 300)})` : ''}. ` +
        'If a debug browser of this profile is still open, close it and try again; otherwise check `runtimeExecutable` in the launch configuration.',
    );
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}

async function signIn(cdp: CdpPipe, o: BrowserSignIn): Promise<void> {
  const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
  const loaded = new Promise<void>((resolve) =>
    cdp.on((method, params, session) => {
      if (session !== sessionId) return;
      if (method === 'Page.loadEventFired') resolve();
      if (method === 'Fetch.requestPaused') {
        const body = Buffer.from(PAGE).toString('base64');
        const headers = [{ name: 'content-type', value: 'text/html; charset=utf-8' }];
        void cdp.send('Fetch.fulfillRequest', { requestId: params.requestId, responseCode: 200, responseHeaders: headers, body }, sessionId).catch(() => undefined);
      }
    }),
  );
  await cdp.send('Page.enable', {}, sessionId);
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: `${o.origin}/*` }] }, sessionId);
  await cdp.send('Page.navigate', { url: `${o.origin}/` }, sessionId);
  await loaded;
  const stored = await cdp.send<{ result: { value?: unknown } }>(
    'Runtime.evaluate',
    { expression: `localStorage.setItem('auth', ${JSON.stringify(o.token)}); localStorage.getItem('auth') === ${JSON.stringify(o.token)}`, returnByValue: true },
    sessionId,
  );
  if (stored.result.value !== true) throw new Error(`could not write localStorage of ${o.origin}`);
  const cookie = await cdp.send<{ success?: boolean }>(
    'Network.setCookie',
    { name: 'auth', value: o.token, url: `${o.origin}/`, path: '/', secure: o.origin.startsWith('https:'), expires: Math.floor(Date.now() / 1000) + COOKIE_DAYS * 86_400 },
    sessionId,
  );
  if (cookie.success === false) throw new Error(`could not set the auth cookie of ${o.origin}`);
}

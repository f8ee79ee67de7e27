// `npm run test:ui`: the extension as a user sees it in the real workbench (code-server + headless
// Chromium via playwright-core). The packaged .vsix is installed without the smoke-test driver (toasts
// visible, no test payload); the check opens the Datagrok view, signs in through the command palette
// and input boxes as a user would, reads the Groups tree rendered from the emulator's demo data, runs a
// command from the palette, and saves screenshots under screenshots/ (git-ignored).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { shortTempDir, startCodeServer } from './codeServer';
import { startEmulator } from './emulator';
import { repoRoot, resultsDir, screenshotsDir } from './paths';
import { freePort, onStop, stopAll, stopAllOnSignals } from './processes';
import { ensureHost } from './provision';
import { testSettings } from './run';
import { packageVsix } from './vsix';
import { openBrowser, recordConsole, workbenchUrl } from './workbench';

const STEP_TIMEOUT = 20_000;

interface Step {
  title: string;
  state: 'passed' | 'failed';
  durationMs: number;
  error?: string;
  screenshot?: string;
}

/** The rows of the tree in the side bar, as "label — description" the way they read on screen. */
async function sideBarRows(page: Page): Promise<string[]> {
  return page.locator('.part.sidebar .monaco-list-row').evaluateAll((rows) =>
    rows.map((row) => {
      const text = (selector: string) => (row.querySelector(selector)?.textContent ?? '').replace(/\s+/g, ' ').trim();
      const description = text('.label-description');
      return description ? `${text('.label-name')} — ${description}` : text('.label-name') || (row.textContent ?? '').trim();
    }),
  );
}

async function waitForRows(page: Page, expected: RegExp[], what: string): Promise<string[]> {
  const deadline = Date.now() + STEP_TIMEOUT;
  let rows: string[] = [];
  for (;;) {
    rows = await sideBarRows(page);
    const missing = expected.filter((pattern) => !rows.some((row) => pattern.test(row)));
    if (missing.length === 0) return rows;
    if (Date.now() > deadline) {
      throw new Error(`${what}: no row matches ${missing.join(', ')}; the tree shows:\n  ${rows.join('\n  ') || '(no rows)'}`);
    }
    await page.waitForTimeout(250);
  }
}

/** F1, the command's title typed, Enter on the matching entry: as a user runs a command. */
async function runFromPalette(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await input.fill(`>${title}`);
  const entry = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  await entry.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page.keyboard.press('Enter');
}

/** Answers the input box whose prompt mentions `promptText`: select all, type, Enter. */
async function answerInputBox(page: Page, promptText: RegExp, value: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-message', { hasText: promptText }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  const input = widget.locator('input.input');
  await input.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(value, { delay: 5 });
  await page.keyboard.press('Enter');
}

async function main(): Promise<number> {
  const started = Date.now();
  const host = await ensureHost();
  console.log(`[ui] VS Code ${host.vscodeVersion} (code-server ${host.codeServerVersion})`);
  const stateDir = shortTempDir('dgui-');
  onStop(() => fs.rmSync(stateDir, { recursive: true, force: true }));
  fs.mkdirSync(screenshotsDir, { recursive: true });
  const logsDir = path.join(resultsDir, 'ui-logs');
  fs.rmSync(logsDir, { recursive: true, force: true });
  fs.mkdirSync(logsDir, { recursive: true });

  const vsix = packageVsix(path.join(stateDir, 'datagrok-vscode.vsix'));
  const emulator = await startEmulator({ logFile: path.join(logsDir, 'emulator.log') });
  const workspace = path.join(stateDir, 'workspace');
  fs.cpSync(path.join(repoRoot, 'test', 'fixtures', 'demo-workspace'), workspace, { recursive: true });
  const server = await startCodeServer(host, {
    stateDir,
    port: await freePort(),
    smokeTestDriver: false,
    installVsix: [vsix],
    logFile: path.join(logsDir, 'code-server.log'),
    settings: testSettings(emulator.baseUrl),
  });
  const workbench = await openBrowser(host.chromium);
  const { page } = workbench;
  const consoleLog = recordConsole(page, path.join(logsDir, 'console.log'));
  onStop(() => new Promise<void>((resolve) => consoleLog.end(resolve)));

  const steps: Step[] = [];
  let shot = 0;
  const step = async (title: string, body: () => Promise<void>): Promise<boolean> => {
    const t0 = Date.now();
    const screenshot = path.join(screenshotsDir, `ui-${++shot}-${title.replace(/[^a-z0-9]+/gi, '-').toLowerCase().slice(0, 40)}.png`);
    try {
      await body();
      await page.screenshot({ path: screenshot });
      steps.push({ title, state: 'passed', durationMs: Date.now() - t0, screenshot });
      console.log(`ok   ui: ${title} (${Date.now() - t0} ms)`);
      return true;
    } catch (error) {
      await page.screenshot({ path: screenshot }).catch(() => undefined);
      const text = error instanceof Error ? error.message : String(error);
      steps.push({ title, state: 'failed', durationMs: Date.now() - t0, error: text, screenshot });
      console.log(`FAIL ui: ${title}\n${text.replace(/^/gm, '     ')}\n     screenshot: ${path.relative(repoRoot, screenshot)}`);
      return false;
    }
  };

  // Each step needs the previous one: stop at the first failure.
  (await step('the workbench loads with the Datagrok activity bar item', async () => {
    await page.goto(workbenchUrl(server.origin, workspace), { timeout: 60_000 });
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
    await page.locator('.activitybar [aria-label^="Datagrok"]').first().waitFor({ state: 'visible', timeout: 60_000 });
  })) &&
    (await step('opening the Datagrok view shows the sign-in welcome', async () => {
      await page.locator('.activitybar [aria-label^="Datagrok"]').first().click();
      // A container with one view shows the view's name in the side bar title ("Datagrok: Groups").
      await page.locator('.part.sidebar .composite.title', { hasText: /Datagrok.*Groups/i }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
      await page.locator('.part.sidebar .welcome-view-content', { hasText: /Sign In/ }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    })) &&
    (await step('signs in from the command palette, typing the URL and the key', async () => {
      await runFromPalette(page, 'Datagrok: Sign In');
      await answerInputBox(page, /server URL/i, emulator.baseUrl);
      await answerInputBox(page, /API key/i, emulator.key);
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
    })) &&
    (await step('the Groups tree shows the demo data: pending requests, the user demo, Chemists', async () => {
      await waitForRows(page, [/^Pending requests$/, /^Bob\b.* — wants to join Chemists$/, /^Carol\b.* — wants to join Chemists$/, /^My groups$/, /^demo — .*\byou\b/, /^Chemists — admin/], 'Groups tree');
    })) &&
    (await step('runs "Datagrok: Search Groups" from the palette and shows the result', async () => {
      await runFromPalette(page, 'Datagrok: Search Groups');
      await answerInputBox(page, /group name/i, 'Bio');
      await waitForRows(page, [/^Search: Bio/, /^Biologists\b/], 'search results');
    }));

  const passed = steps.filter((s) => s.state === 'passed').length;
  const failed = steps.length - passed;
  fs.writeFileSync(
    path.join(resultsDir, 'ui.json'),
    `${JSON.stringify({ vscodeVersion: host.vscodeVersion, durationMs: Date.now() - started, passed, failed, steps }, null, 2)}\n`,
  );
  console.log(`${passed} passed, ${failed} failed`);
  console.log(`[ui] ${failed === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${path.relative(repoRoot, screenshotsDir)}/`);
  return failed === 0 ? 0 : 1;
}

stopAllOnSignals();
let exitCode = 1;
main()
  .then((code) => {
    exitCode = code;
  })
  .catch((error: unknown) => console.error(`[ui] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`))
  .finally(async () => {
    await stopAll();
    process.exit(exitCode);
  });

// `node out/test/host/uiDataView.js` (after `npm run -s build`): the data view as a user sees it in the
// real workbench (code-server + headless Chromium, the packaged .vsix). Opens the demo workspace's
// planets.csv with "Datagrok: Open in Data View" from the palette, checks the grid inside the webview
// (headers with types, the rows, the row count), opens a column's summary and histogram from its header
// menu, and saves two screenshots: screenshots/data-view-grid.png and screenshots/data-view-chart.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { shortTempDir, startCodeServer } from './codeServer';
import { startEmulator } from './emulator';
import { repoRoot, resultsDir, screenshotsDir } from './paths';
import { freePort, removeAfterStop, stopAll, stopAllOnSignals } from './processes';
import { ensureHost } from './provision';
import { testSettings } from './run';
import { pollUntil, runFromPalette, STEP_TIMEOUT } from './uiPage';
import { packageVsix } from './vsix';
import { openBrowser, workbenchUrl } from './workbench';

/** The data view's webview frame (the inner frame that holds its grid). */
function gridFrame(page: Page): Promise<Frame> {
  return pollUntil(
    page,
    async () => {
      for (const frame of page.frames()) {
        if (
          (await frame
            .locator('.grid .hcell')
            .count()
            .catch(() => 0)) > 0
        )
          return frame;
      }
      return undefined;
    },
    () => `no data view grid in the page's ${page.frames().length} frames`,
    120_000,
  );
}

async function main(): Promise<number> {
  const host = await ensureHost();
  const stateDir = shortTempDir('dgdv-');
  removeAfterStop(stateDir);
  fs.mkdirSync(screenshotsDir, { recursive: true });
  fs.mkdirSync(resultsDir, { recursive: true });
  const vsix = packageVsix(path.join(stateDir, 'datagrok-vscode.vsix'));
  const emulator = await startEmulator({ logFile: path.join(stateDir, 'emulator.log') });
  const workspace = path.join(stateDir, 'workspace');
  fs.cpSync(path.join(repoRoot, 'test', 'fixtures', 'demo-workspace'), workspace, { recursive: true });
  const server = await startCodeServer(host, {
    stateDir,
    port: await freePort(),
    smokeTestDriver: false,
    installVsix: [vsix],
    logFile: path.join(stateDir, 'code-server.log'),
    settings: testSettings(emulator.baseUrl),
  });
  const { page } = await openBrowser(host.chromium);
  const checks: string[] = [];
  await page.goto(workbenchUrl(server.origin, workspace), { timeout: 180_000 });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 120_000 });
  // The file from the Explorer (Quick Open waits for the file search, slow on a busy machine).
  await page.keyboard.press('ControlOrMeta+Shift+E');
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'planets.csv' }).first().click({ timeout: 60_000 });
  await page.locator('.tabs-container .tab.active', { hasText: 'planets.csv' }).first().waitFor({ state: 'visible', timeout: 60_000 });
  await page.locator('.editor-instance .monaco-editor .view-line', { hasText: 'Jupiter' }).first().waitFor({ state: 'visible', timeout: 60_000 });
  await runFromPalette(page, 'Datagrok: Open in Data View');

  const frame = await gridFrame(page).catch(async (error: Error) => {
    await page.screenshot({ path: path.join(screenshotsDir, 'data-view-failed.png') });
    throw error;
  });
  const headers = await frame.locator('.grid .hcell').allInnerTexts();
  const expected = ['name\nstring', 'mass_earths\ndouble', 'radius_km\nint', 'moons\nint'];
  for (const h of expected)
    if (!headers.some((t) => t.replace(/\s+/g, '\n').includes(h.replace(/\s+/g, '\n')))) throw new Error(`no header "${h}" among ${JSON.stringify(headers)}`);
  checks.push('headers with types');
  await frame.locator('.grid .row .cell', { hasText: 'Jupiter' }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  const count = await frame.locator('.toolbar .count').innerText();
  if (!/^8 rows × 4 columns$/.test(count)) throw new Error(`row count reads "${count}"`);
  checks.push(`rows and "${count}"`);
  await page.screenshot({ path: path.join(screenshotsDir, 'data-view-grid.png') });

  await frame.locator('.grid .hcell', { hasText: 'radius_km' }).first().click();
  await frame.locator('.menu .item', { hasText: 'Sort Descending' }).click();
  await pollUntil(
    page,
    async () => ((await frame.locator('.grid .rows .row').first().innerText()).includes('Jupiter') ? true : undefined),
    () => 'Jupiter is not first after sorting by radius descending',
  );
  checks.push('sorted by radius, descending');
  await frame.locator('.grid .hcell', { hasText: 'radius_km' }).first().click();
  await frame.locator('.menu .item', { hasText: 'Summary and Chart' }).click();
  await frame.locator('.panel .chart canvas').first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await frame.locator('.panel .stats', { hasText: 'max' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  checks.push('summary and histogram of radius_km');
  await page.screenshot({ path: path.join(screenshotsDir, 'data-view-chart.png') });
  console.log(`ok   ui (data view): ${checks.join('; ')}; screenshots in ${path.relative(repoRoot, screenshotsDir)}/data-view-*.png`);
  return 0;
}

stopAllOnSignals();
let exitCode = 1;
main()
  .then((code) => {
    exitCode = code;
  })
  .catch((error: unknown) => console.error(`FAIL ui (data view): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`))
  .finally(async () => {
    await stopAll();
    process.exit(exitCode);
  });

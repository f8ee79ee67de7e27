// `node out/test/host/uiNotebook.js` (after `npm run -s build`): the Datagrok notebook as a user meets it
// in the real workbench (code-server + headless Chromium, the packaged .vsix). Signs in through the
// palette, opens customers.dgnb (a query, a Python script taking its table, a function call taking the
// script's table), runs it with Datagrok: Run Notebook from the palette, and waits until the three cells
// show success and the variables status item counts their outputs. Screenshot: screenshots/notebook.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot, screenshotsDir } from './paths';
import { pollUntil, quickOpen, runFromPalette } from './uiPage';
import { copyDemoWorkspace, openUiWorkbench, runUiCheck, signInFromPalette } from './uiWorkbench';

const LONG = 120_000;

const NOTEBOOK = [
  '%% datagrok-notebook',
  '',
  '%% markdown',
  '# Customers by country',
  "A query on the server, a Python script taking its table by name, a function taking the script's table.",
  '',
  '%% sql',
  '--connection: Samples:Northwind',
  '--output: dataframe byCountry',
  'select country, count(*) as n from customers group by country order by n desc',
  '',
  '%% python',
  '#input: dataframe byCountry',
  '#output: dataframe top',
  'top = byCountry.head(3)',
  '',
  '%% datagrok-call',
  'Demo:RowCount(table: top)',
  '',
].join('\n');

async function runNotebook(page: Page): Promise<void> {
  await quickOpen(page, 'customers.dgnb');
  await page.locator('.notebook-editor').first().waitFor({ state: 'visible', timeout: LONG });
  await runFromPalette(page, 'Datagrok: Run Notebook');
  await pollUntil(
    page,
    async () => ((await page.locator('.notebook-editor .codicon-notebook-state-success').count()) >= 3 ? true : undefined),
    async () => `the cells did not all succeed: ${await page.locator('.notebook-editor .cell-status-message, .notebook-editor .codicon-notebook-state-error').allInnerTexts()}`,
    LONG,
  );
  await pollUntil(
    page,
    async () => ((await page.locator('.statusbar-item', { hasText: /3 variables/ }).count()) > 0 ? true : undefined),
    () => 'the status bar does not count the three variables',
    LONG,
  );
  // The outputs are drawn in the notebook's output webview: a moment for its first paint.
  await page.waitForTimeout(2000);
}

async function main(): Promise<number> {
  const { page, emulator } = await openUiWorkbench('dgnb-', (workspace) => {
    copyDemoWorkspace(workspace);
    fs.writeFileSync(path.join(workspace, 'customers.dgnb'), NOTEBOOK);
  });
  await signInFromPalette(page, emulator);
  const shot = path.join(screenshotsDir, 'notebook.png');
  try {
    await page.keyboard.press('Escape');
    await runNotebook(page);
    await page.screenshot({ path: shot });
    console.log(`ok   ui (notebook): run; ${path.relative(repoRoot, shot)}`);
    return 0;
  } catch (error) {
    await page.screenshot({ path: path.join(screenshotsDir, 'notebook-failed.png') }).catch(() => undefined);
    console.log(`FAIL ui (notebook): run\n${(error instanceof Error ? error.message : String(error)).replace(/^/gm, '     ')}`);
    return 1;
  }
}

runUiCheck('notebook', main);

// `node out/test/host/uiNotebookCalls.js` (after `npm run -s build`): a notebook's function-call cell as a
// user types it in the real workbench (code-server + headless Chromium, the packaged .vsix). Signs in
// through the palette, opens calls.dgnb: a call naming a function the server does not have and a call
// whose table argument has no value are underlined before anything runs; Ctrl+Space at that argument
// offers the tables the cells above make (the query's and the Python script's); choosing one clears the
// underline. Screenshot: screenshots/notebook-calls.png (the underlines and the suggestions).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot, screenshotsDir } from './paths';
import { pollUntil, quickOpen } from './uiPage';
import { copyDemoWorkspace, openUiWorkbench, runUiCheck, signInFromPalette } from './uiWorkbench';

const LONG = 120_000;

const NOTEBOOK = [
  '%% datagrok-notebook',
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
  'Demo:RowCont(table: top)',
  '',
  '%% datagrok-call',
  'scaled = Scripts:Normalize(column: "n", method: "min-max",',
  '  table: )',
  '',
].join('\n');

async function texts(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((rows) => rows.map((row) => (row.getAttribute('aria-label') || row.textContent || '').replace(/\s+/g, ' ').trim()));
}

const squiggles = (page: Page) => page.locator('.notebook-editor .monaco-editor .squiggly-error').count();

async function typeACall(page: Page): Promise<void> {
  await quickOpen(page, 'calls.dgnb');
  await page.locator('.notebook-editor').first().waitFor({ state: 'visible', timeout: LONG });
  // The unknown function and the argument without a value, underlined as the notebook opens.
  await pollUntil(
    page,
    async () => ((await squiggles(page)) >= 2 ? true : undefined),
    async () => `the two mistakes are not underlined (${await squiggles(page)} underlines)`,
    LONG,
  );
  await page.locator('.notebook-editor .monaco-editor .view-line', { hasText: 'table: )' }).first().click();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ControlOrMeta+Space');
  let items: string[] = [];
  await pollUntil(
    page,
    async () => {
      items = await texts(page, '.editor-widget.suggest-widget .monaco-list-row');
      return items.some((i) => /^byCountry\b/.test(i)) && items.some((i) => /^top\b/.test(i)) ? true : undefined;
    },
    () => `completion at the table argument does not offer byCountry and top; it offers:\n  ${items.join('\n  ') || '(nothing)'}`,
    LONG,
  );
}

async function main(): Promise<number> {
  const { page, emulator } = await openUiWorkbench('dgnbc-', (workspace) => {
    copyDemoWorkspace(workspace);
    fs.writeFileSync(path.join(workspace, 'calls.dgnb'), NOTEBOOK);
  });
  await signInFromPalette(page, emulator);
  const shot = path.join(screenshotsDir, 'notebook-calls.png');
  try {
    await page.keyboard.press('Escape');
    await typeACall(page);
    await page.screenshot({ path: shot });
    await page.keyboard.type('top');
    await page.keyboard.press('Enter');
    // The argument has its table now: one underline is left, the unknown function's.
    await pollUntil(
      page,
      async () => ((await squiggles(page)) === 1 ? true : undefined),
      async () => `the underline of the argument without a value stays (${await squiggles(page)} underlines)`,
    );
    console.log(`ok   ui (notebook calls): underlines, completion of the tables above; ${path.relative(repoRoot, shot)}`);
    return 0;
  } catch (error) {
    await page.screenshot({ path: path.join(screenshotsDir, 'notebook-calls-failed.png') }).catch(() => undefined);
    console.log(`FAIL ui (notebook calls)\n${(error instanceof Error ? error.message : String(error)).replace(/^/gm, '     ')}`);
    return 1;
  }
}

runUiCheck('notebook calls', main);

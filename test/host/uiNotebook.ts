// `node out/test/host/uiNotebook.js` (after `npm run -s build`): the Datagrok notebook as a user meets it
// in the real workbench (code-server + headless Chromium, the packaged .vsix). Signs in through the
// palette, opens customers.dgnb (a query, a Python script taking its table, a function call taking the
// script's table), runs it with Datagrok: Run Notebook from the palette, and waits until the three cells
// have made their outputs (the variables status item counts them, no cell failed), and the tables show in the data view's
// grid (the table renderer, its rows read through the extension); then the first table's Save As CSV, through
// the workbench's own save dialog, writes its rows to the workspace, and its Push as Table says the table is
// on the server already (the Python cell took it). Screenshot: screenshots/notebook.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { repoRoot, screenshotsDir } from './paths';
import { pollUntil, quickOpen, runFromPalette, toasts } from './uiPage';
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

/** What the notebook shows of its run: the cells' state icons drawn (the editor draws only the cells in view), the status bar, the toasts. */
async function runState(page: Page): Promise<string> {
  const count = (selector: string) => page.locator(`.notebook-editor ${selector}`).count();
  const [success, error, running] = [
    await count('.codicon-notebook-state-success'),
    await count('.codicon-notebook-state-error'),
    await count('.codicon-notebook-state-executing, .codicon-sync.codicon-modifier-spin'),
  ];
  const messages = await page.locator('.notebook-editor .cell-status-message').allInnerTexts();
  const status = await page.locator('.statusbar-item').allInnerTexts();
  const shown = (await toasts(page)).map((t) => t.message);
  return [
    `cells drawn: ${success} succeeded, ${error} failed, ${running} running; cell messages: ${messages.join(' | ') || '(none)'}`,
    `status bar: ${status
      .map((t) => t.trim())
      .filter(Boolean)
      .join(' | ')}`,
    `toasts: ${shown.join(' | ') || '(none)'}`,
  ].join('\n');
}

async function runNotebook(page: Page): Promise<void> {
  await quickOpen(page, 'customers.dgnb');
  await page.locator('.notebook-editor').first().waitFor({ state: 'visible', timeout: LONG });
  await runFromPalette(page, 'Datagrok: Run Notebook');
  // Done when the status item counts the three cells' variables (each cell's output is one) and no cell drawn
  // failed. The cells' success icons are not counted: the editor draws only the cells in view, and which those
  // are depends on how tall the grids above are drawn by then.
  await pollUntil(
    page,
    async () =>
      (await page.locator('.statusbar-item', { hasText: /3 variables/ }).count()) > 0 && (await page.locator('.notebook-editor .codicon-notebook-state-error').count()) === 0
        ? true
        : undefined,
    async () => `the notebook's three cells did not all run to their outputs:\n${await runState(page)}`,
    LONG,
  );
  if ((await page.locator('.notebook-editor .codicon-notebook-state-success').count()) === 0) throw new Error(`no cell drawn shows its success:\n${await runState(page)}`);
}

/** The table outputs' grids, drawn by the table renderer in the notebook's output webview (a frame; each grid in a shadow root, which locators pierce). */
async function tableGrids(page: Page): Promise<{ headers: string[]; firstRow: string[]; toolbar: string }> {
  return pollUntil(
    page,
    async () => {
      for (const frame of page.frames()) {
        const rows = frame.locator('#app .grid .rows .row');
        if ((await rows.count().catch(() => 0)) === 0) continue;
        const firstRow = await rows.first().locator('.cell').allInnerTexts();
        if (firstRow.some((t) => t === '…')) continue;
        return {
          headers: await frame.locator('#app .grid .header .hcell .name').first().locator('xpath=../..').locator('.name').allInnerTexts(),
          firstRow,
          toolbar: await frame.locator('#app .toolbar').first().innerText(),
        };
      }
      return undefined;
    },
    () => "no table output shows the data view's grid with its rows",
    LONG,
  );
}

/** The first grid's toolbar button of this label, with the output frame it is in (a grid is in a shadow root, which locators pierce). */
async function toolbarButton(page: Page, label: string): Promise<{ frame: Frame; button: Locator } | undefined> {
  for (const frame of page.frames()) {
    const button = frame.locator('#app .toolbar button', { hasText: label }).first();
    if ((await button.count().catch(() => 0)) > 0) return { frame, button };
  }
  return undefined;
}

/** Opens the first grid's Summary & Charts panel: its summary and a chart (a canvas) come from the extension. */
async function chartOfFirstTable(page: Page): Promise<void> {
  await pollUntil(
    page,
    async () => {
      const found = await toolbarButton(page, 'Summary & Charts');
      if (!found) return undefined;
      const { frame, button } = found;
      if ((await frame.locator('#app .panel canvas').count()) === 0) {
        if ((await frame.locator('#app .panel:not([hidden])').count()) === 0) await button.click();
        return undefined;
      }
      return (await frame.locator('#app .panel .stats').first().innerText()).includes('count') ? true : undefined;
    },
    () => "the first table's Summary & Charts panel shows no summary and chart",
    LONG,
  );
}

/** The first grid's Save As CSV, answered in the workbench's save dialog (code-server's: a path in the quick input); the rows in `target`. */
async function saveFirstTableAs(page: Page, target: string): Promise<string> {
  await pollUntil(
    page,
    async () => {
      const found = await toolbarButton(page, 'Save As CSV');
      await found?.button.click();
      return found ? true : undefined;
    },
    () => 'no table output offers Save As CSV',
    LONG,
  );
  // code-server's dialog completes a path as it is typed and checks it as it changes: the path goes in at once, and
  // Enter is pressed again while the dialog is still open (under load a first Enter can meet the check of an
  // earlier value: "The folder already exists").
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input.input');
  await input.waitFor({ state: 'visible', timeout: LONG });
  await input.fill(target);
  await pollUntil(
    page,
    async () => {
      if (fs.existsSync(target)) return true;
      if ((await widget.isVisible()) && (await input.inputValue()) === target) await input.press('Enter');
      else if (await widget.isVisible()) await input.fill(target);
      await page.waitForTimeout(800);
      return undefined;
    },
    async () =>
      `the save dialog did not take ${target}: it shows "${await input.inputValue().catch(() => '')}", ${await widget
        .locator('.quick-input-message')
        .innerText()
        .catch(() => '')}`,
    LONG,
  );
  return pollUntil(
    page,
    async () => (fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : undefined),
    () => `Save As CSV wrote no ${target}`,
    LONG,
  );
}

async function main(): Promise<number> {
  let folder = '';
  const { page, emulator } = await openUiWorkbench('dgnb-', (workspace) => {
    folder = workspace;
    copyDemoWorkspace(workspace);
    fs.writeFileSync(path.join(workspace, 'customers.dgnb'), NOTEBOOK);
  });
  await signInFromPalette(page, emulator);
  const shot = path.join(screenshotsDir, 'notebook.png');
  try {
    await page.keyboard.press('Escape');
    await runNotebook(page);
    const grid = await tableGrids(page);
    if (!grid.headers.includes('country') || !grid.headers.includes('n')) throw new Error(`the grid's columns: ${grid.headers}`);
    if (!/rows? × 2 columns/.test(grid.toolbar)) throw new Error(`the grid's toolbar: ${grid.toolbar}`);
    // The first table's summary and chart, asked through the renderer's messages and drawn by uPlot.
    await chartOfFirstTable(page);
    // The first paint of the other outputs (the grids' widths fitted, the scalar).
    await page.waitForTimeout(1000);
    await page.screenshot({ path: shot });
    console.log(`ok   ui (notebook): run; the tables in the data view's grid (${grid.headers.join(', ')}: ${grid.firstRow.join(' ')}); ${path.relative(repoRoot, shot)}`);
    const saved = await saveFirstTableAs(page, path.join(folder, 'saved-byCountry.csv'));
    if (!saved.startsWith('country,n\n') || saved.trim().split('\n').length < 3) throw new Error(`the saved CSV: ${saved.slice(0, 200)}`);
    console.log(`ok   ui (notebook): Save As CSV from the first table's toolbar wrote its ${saved.trim().split('\n').length - 1} rows`);
    // Push as Table: the Python cell took byCountry, so it is on the server already, and the push says so.
    const pushed = await pollUntil(
      page,
      async () => {
        const shown = (await toasts(page)).find((t) => /byCountry is on Datagrok already|Pushed byCountry/.test(t.message));
        if (shown) return shown.message;
        await (await toolbarButton(page, 'Push as Table'))?.button.click();
        await page.waitForTimeout(1500);
        return undefined;
      },
      async () => `Push as Table said nothing; toasts: ${(await toasts(page)).map((t) => t.message).join(' | ') || '(none)'}`,
      LONG,
    );
    if (!/is on Datagrok already \(table [\w-]+\): a cell took it/.test(pushed)) throw new Error(`Push as Table said: ${pushed}`);
    console.log(`ok   ui (notebook): Push as Table on the first table's toolbar: "${pushed}"`);
    return 0;
  } catch (error) {
    await page.screenshot({ path: path.join(screenshotsDir, 'notebook-failed.png') }).catch(() => undefined);
    console.log(`FAIL ui (notebook): run\n${(error instanceof Error ? error.message : String(error)).replace(/^/gm, '     ')}`);
    return 1;
  }
}

runUiCheck('notebook', main);

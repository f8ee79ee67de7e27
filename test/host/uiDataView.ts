// `node out/test/host/uiDataView.js` (after `npm run -s build`): the data view as a user sees it in the
// real workbench (code-server + headless Chromium, the packaged .vsix). Opens the demo workspace's
// planets.csv with "Datagrok: Open in Data View" from the palette, checks the grid inside the webview
// (headers with types, the rows, the row count), opens a column's summary and histogram from its header
// menu, and saves two screenshots: screenshots/data-view-grid.png and screenshots/data-view-chart.png.
// Then a larger file (events.csv, 150,000 rows with a date-time column, written into the workspace): its
// date-time cells are not cut (columns sized to their content), a range filter, then the column's summary
// and histogram, which say they describe the filtered rows ("N of 150,000 rows (filtered)") and count only
// those, with every y-axis label fitting left of the plot (compact counts such as 120K):
// screenshots/data-view-filtered-summary.png and screenshots/data-view-histogram.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { repoRoot, screenshotsDir } from './paths';
import { pollUntil, runFromPalette, STEP_TIMEOUT } from './uiPage';
import { copyDemoWorkspace, openUiWorkbench, runUiCheck } from './uiWorkbench';

const EVENTS = 150_000;

/** events.csv: an id, a date-time, and a score that is 500 in 19 rows of 20 (one histogram bin holds most rows). */
function writeEvents(file: string): void {
  const lines = ['id,when,score'];
  for (let i = 0; i < EVENTS; i++) {
    const when = new Date(Date.UTC(2024, 0, 1) + i * 61_000).toISOString().replace('T', ' ').slice(0, 19);
    lines.push(`${i},${when},${i % 20 === 0 ? i % 1000 : 500}`);
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

/** The data view's webview frame (the inner frame that holds its grid) whose header has `column`. */
function gridFrame(page: Page, column = 'name'): Promise<Frame> {
  return pollUntil(
    page,
    async () => {
      for (const frame of page.frames()) {
        if (
          (await frame
            .locator('.grid .hcell', { hasText: column })
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
  const { page } = await openUiWorkbench('dgdv-', (workspace) => {
    copyDemoWorkspace(workspace);
    writeEvents(path.join(workspace, 'events.csv'));
  });
  const checks: string[] = [];
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
  await frame.locator('.panel .scope', { hasText: 'All 8 rows' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await frame.locator('.panel .chartNote', { hasText: 'Histogram of radius_km: all 8 rows.' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  checks.push('summary and histogram of radius_km ("All 8 rows")');
  await page.screenshot({ path: path.join(screenshotsDir, 'data-view-chart.png') });
  await filteredSummary(page, checks);
  console.log(`ok   ui (data view): ${checks.join('; ')}; screenshots in ${path.relative(repoRoot, screenshotsDir)}/data-view-*.png`);
  return 0;
}

/** events.csv in the data view: date-times not cut, a filter, then a summary and histogram of the filtered rows that say so. */
async function filteredSummary(page: Page, checks: string[]): Promise<void> {
  await page.keyboard.press('ControlOrMeta+Shift+E');
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'events.csv' }).first().click({ timeout: 60_000 });
  await page.locator('.tabs-container .tab.active', { hasText: 'events.csv' }).first().waitFor({ state: 'visible', timeout: 60_000 });
  await runFromPalette(page, 'Datagrok: Open in Data View');
  const frame = await gridFrame(page, 'when');
  await frame.locator('.grid .row .cell', { hasText: '2024-01-01 00:01:01' }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  // The date-time column's cells on screen whose text is wider than the cell (in the page: DOM types are not this file's).
  const cut = (await frame.evaluate(
    `[...document.querySelectorAll('.grid .row .cell[data-c="1"]')].filter((cell) => cell.scrollWidth > cell.clientWidth).map((cell) => cell.textContent)`,
  )) as string[];
  if (cut.length > 0) throw new Error(`date-time cells are cut at the column's width: ${JSON.stringify(cut.slice(0, 3))}`);
  checks.push('date-time cells not cut');

  await frame.locator('.grid .hcell', { hasText: 'score' }).first().click();
  await frame.locator('.menu .form input[placeholder="max"]').fill('900');
  await frame.locator('.menu .form button', { hasText: 'Filter' }).click();
  const count = await pollUntil(
    page,
    async () => {
      const text = await frame.locator('.toolbar .count').innerText();
      return /^[\d,]+ rows/.test(text) && !text.startsWith(EVENTS.toLocaleString('en-US')) ? text : undefined;
    },
    () => 'the row count after the filter',
  );
  const kept = count.split(' ')[0];
  await frame.locator('.grid .hcell', { hasText: 'score' }).first().click();
  await frame.locator('.menu .item', { hasText: 'Summary and Chart' }).click();
  const expected = `${kept} of ${EVENTS.toLocaleString('en-US')} rows (filtered)`;
  await frame.locator('.panel .scope', { hasText: expected }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  const stats = await frame.locator('.panel .stats').innerText();
  if (!stats.includes(kept)) throw new Error(`the summary's count is not the ${kept} filtered rows: ${stats}`);
  await frame.locator('.panel .chartNote', { hasText: `${kept} of ${EVENTS.toLocaleString('en-US')} rows (filtered)` }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  checks.push(`summary and histogram of the ${kept} filtered rows, labelled so`);
  await page.screenshot({ path: path.join(screenshotsDir, 'data-view-filtered-summary.png') });

  // Every y-axis label fits between the plot's left edge (uPlot's .u-over) and the canvas's.
  const axis = (await frame.evaluate(`(() => {
    const chart = document.querySelector('.panel .chart');
    const over = chart.querySelector('.u-over');
    const context = document.createElement('canvas').getContext('2d');
    context.font = chart.dataset.yFont;
    const labels = JSON.parse(chart.dataset.yLabels || '[]');
    return { labels, widths: labels.map((l) => context.measureText(l).width), room: over.offsetLeft - Number(chart.dataset.yInset) };
  })()`)) as { labels: string[]; widths: number[]; room: number };
  const tooWide = axis.labels.filter((_, i) => axis.widths[i] > axis.room);
  if (axis.labels.length < 2 || tooWide.length > 0) throw new Error(`y-axis labels ${JSON.stringify(axis.labels)} do not fit in ${axis.room} px: ${JSON.stringify(tooWide)}`);
  if (!axis.labels.some((l) => /^\d+(\.\d)?K$/.test(l))) throw new Error(`y-axis counts are not compact: ${JSON.stringify(axis.labels)}`);
  checks.push(`histogram y-axis labels ${axis.labels.join(' ')} fit (${axis.room} px)`);
  await frame.locator('.panel .chart').screenshot({ path: path.join(screenshotsDir, 'data-view-histogram.png') });
}

runUiCheck('data view', main);

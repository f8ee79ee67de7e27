// `node out/test/host/uiNotebookJupyter.js` (after `npm run -s build`): a plot in the Datagrok notebook and
// the notebook exported for Jupyter, as a user meets them in the real workbench (code-server + headless
// Chromium, the packaged .vsix). Signs in through the palette, opens plot.dgnb (a query, then a Python cell
// drawing its table with matplotlib), runs it with Datagrok: Run Notebook, waits for the plot's image in
// the cell's output, then clicks Export Notebook as Jupyter Notebook in the notebook's toolbar (a click
// asks: the save dialog) and accepts its proposal (plot.ipynb beside the notebook) with Enter. Screenshots: screenshots/notebook-plot.png and
// screenshots/notebook-export.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot, screenshotsDir } from './paths';
import { pollUntil, quickOpen, runFromPalette, STEP_TIMEOUT, waitForToast } from './uiPage';
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
  '#output: graphics chart',
  'import matplotlib.pyplot as plt',
  'fig, ax = plt.subplots(figsize=(5, 3))',
  'ax.bar(byCountry["country"], byCountry["n"])',
  'ax.set_title("Customers by country")',
  'chart = fig',
  '',
].join('\n');

/** The size of the first image any output frame shows (the notebook's outputs are drawn in a webview). */
async function outputImage(page: Page): Promise<{ width: number; height: number } | undefined> {
  for (const frame of page.frames()) {
    const size = await frame
      .locator('img')
      .first()
      .evaluate(
        (node) => {
          const img = node as unknown as { complete: boolean; naturalWidth: number; naturalHeight: number };
          return img.complete && img.naturalWidth > 0 ? { width: img.naturalWidth, height: img.naturalHeight } : undefined;
        },
        undefined,
        { timeout: 500 },
      )
      .catch(() => undefined);
    if (size) return size;
  }
  return undefined;
}

async function runAndSeeThePlot(page: Page): Promise<{ width: number; height: number }> {
  await quickOpen(page, 'plot.dgnb');
  await page.locator('.notebook-editor').first().waitFor({ state: 'visible', timeout: LONG });
  await runFromPalette(page, 'Datagrok: Run Notebook');
  await pollUntil(
    page,
    async () => ((await page.locator('.notebook-editor .codicon-notebook-state-success').count()) >= 2 ? true : undefined),
    async () => `the cells did not both succeed: ${await page.locator('.notebook-editor .cell-status-message, .notebook-editor .codicon-notebook-state-error').allInnerTexts()}`,
    LONG,
  );
  return pollUntil(
    page,
    () => outputImage(page),
    () => 'no image in the outputs of the Python cell',
    LONG,
  );
}

async function exportForJupyter(page: Page, workspace: string): Promise<void> {
  // From the notebook's toolbar (its overflow menu when the toolbar is narrow), as a user finds it.
  const button = page.locator('.notebook-toolbar-container [aria-label="Export Notebook as Jupyter Notebook"]');
  if ((await button.count()) > 0) await button.first().click();
  else {
    await page.locator('.notebook-toolbar-container .codicon-notebook-more, .notebook-toolbar-container [aria-label="More Actions..."]').first().click();
    await page.locator('.context-view .action-label', { hasText: 'Export Notebook as Jupyter Notebook' }).first().click();
  }
  // The save dialog (VS Code's own in the browser) proposes plot.ipynb beside the notebook.
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await pollUntil(
    page,
    async () => ((await input.inputValue()).endsWith('plot.ipynb') ? true : undefined),
    async () => `the save dialog proposes ${await input.inputValue()}`,
  );
  await page.keyboard.press('Enter');
  await waitForToast(page, /^Exported plot\.dgnb to plot\.ipynb\.$/, 'after the export');
  const written = path.join(workspace, 'plot.ipynb');
  const ipynb = JSON.parse(fs.readFileSync(written, 'utf8')) as { nbformat: number; cells: unknown[] };
  if (ipynb.nbformat !== 4 || ipynb.cells.length !== 3) throw new Error(`plot.ipynb is not the notebook with its setup cell: ${JSON.stringify(ipynb).slice(0, 300)}`);
}

async function main(): Promise<number> {
  const { page, emulator, workspace } = await openUiWorkbench('dgjup-', (folder) => {
    copyDemoWorkspace(folder);
    fs.writeFileSync(path.join(folder, 'plot.dgnb'), NOTEBOOK);
  });
  await signInFromPalette(page, emulator);
  const step = { name: 'plot' };
  try {
    await page.keyboard.press('Escape');
    const size = await runAndSeeThePlot(page);
    // The image's first paint in the output webview.
    await page.waitForTimeout(1500);
    const plotShot = path.join(screenshotsDir, 'notebook-plot.png');
    await page.screenshot({ path: plotShot });
    console.log(`ok   ui (notebook jupyter): the plot shows as a ${size.width}×${size.height} image; ${path.relative(repoRoot, plotShot)}`);
    step.name = 'export';
    await exportForJupyter(page, workspace);
    const exportShot = path.join(screenshotsDir, 'notebook-export.png');
    await page.screenshot({ path: exportShot });
    console.log(`ok   ui (notebook jupyter): exported plot.ipynb from the notebook's toolbar; ${path.relative(repoRoot, exportShot)}`);
    return 0;
  } catch (error) {
    await page.screenshot({ path: path.join(screenshotsDir, 'notebook-jupyter-failed.png') }).catch(() => undefined);
    console.log(`FAIL ui (notebook jupyter): ${step.name}\n${(error instanceof Error ? error.message : String(error)).replace(/^/gm, '     ')}`);
    return 1;
  }
}

runUiCheck('notebook jupyter', main);

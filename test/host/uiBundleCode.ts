// `node out/test/host/uiBundleCode.js` (after `npm run -s build`): a bundle's script edited as code, as a user
// does it in the real workbench (code-server + headless Chromium, the packaged .vsix). A bundle pulled into the
// workspace with a script changed here; signs in from the palette, Diff Bundle with Server from the Explorer's
// menu on manifest.json, a click on the script in the Source Control view opens the diff of its code (Python on
// both sides), typing into the right side and Ctrl+S write into the JSON file's "script"; a click on the identical
// query opens its SQL; Open Code on the query's JSON file from the editor title opens it too. Screenshot: screenshots/bundle-code.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { createClient } from '../../src/api';
import { pullToFolder } from '../../src/platform/bundles';
import { repoRoot, screenshotsDir } from './paths';
import { clickUntil, pollUntil, quickOpen, runFromPalette, STEP_TIMEOUT } from './uiPage';
import { copyDemoWorkspace, openUiWorkbench, runUiCheck, signInFromPalette } from './uiWorkbench';

const SCRIPT_FILE = 'bundle/Script/Scripts.Normalize.json';

/** Clicks a row of the Explorer (`name` exactly), with the right button when `menu` names an item of its context menu. */
async function explorerRow(page: Page, name: string, menu?: string): Promise<void> {
  const row = page.locator('.explorer-folders-view .monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${name.replace(/\./g, '\\.')}$`) }) }).first();
  await row.waitFor({ state: 'visible', timeout: 60_000 });
  if (!menu) return row.click();
  await row.click({ button: 'right' });
  const item = page.locator('.context-view .action-item .action-label', { hasText: menu }).first();
  // A click that lands while the menu is still opening is ignored: click again until the menu has closed.
  await clickUntil(item, page.locator('.context-view .monaco-menu'), 'detached', `the ${name} context menu's "${menu}" did not run`);
}

async function main(): Promise<number> {
  const { page, emulator, workspace } = await openUiWorkbench('dgbc-', async (workspace, emulator) => {
    copyDemoWorkspace(workspace);
    // A bundle as grok s pull writes it, with the script changed here.
    const client = createClient({ baseUrl: emulator.baseUrl, apiKey: emulator.key });
    await pullToFolder(client.entities, emulator.baseUrl, path.join(workspace, 'bundle'), ['Scripts:Normalize', 'Samples:TopCustomers']);
    const scriptFile = path.join(workspace, SCRIPT_FILE);
    const pulled = JSON.parse(fs.readFileSync(scriptFile, 'utf8')) as { script: string };
    fs.writeFileSync(scriptFile, JSON.stringify({ ...pulled, script: pulled.script.replace('import numpy as np\n', 'import numpy as np  # reviewed\n') }, null, 2));
  });
  const checks: string[] = [];
  try {
    await flow(page, emulator, workspace, checks);
  } catch (error) {
    await page.screenshot({ path: path.join(screenshotsDir, 'bundle-code-failed.png') }).catch(() => undefined);
    throw error;
  }
  console.log(`ok   ui (bundle code): ${checks.join('; ')}; screenshot in ${path.relative(repoRoot, screenshotsDir)}/bundle-code.png`);
  return 0;
}

async function flow(page: Page, emulator: { baseUrl: string; key: string }, workspace: string, checks: string[]): Promise<void> {
  const scriptFile = path.join(workspace, SCRIPT_FILE);
  await signInFromPalette(page, emulator);

  // Diff Bundle with Server from manifest.json's menu in the Explorer: the Source Control view lists the script.
  await page.keyboard.press('ControlOrMeta+Shift+E');
  await explorerRow(page, 'bundle');
  await explorerRow(page, 'manifest.json', 'Diff Bundle with Server');
  const scriptRow = page.locator('.part.sidebar .monaco-list-row', { hasText: 'Scripts.Normalize.json' }).first();
  await scriptRow.waitFor({ state: 'visible', timeout: 60_000 });
  checks.push('the Source Control view lists the changed script');

  // Its click: the code's diff, Python on both sides, the bundle's side editable.
  await scriptRow.click();
  const diff = page.locator('.monaco-diff-editor').first();
  await diff.locator('.editor.modified .view-line', { hasText: '# reviewed' }).first().waitFor({ state: 'visible', timeout: 60_000 });
  await diff.locator('.editor.original .view-line', { hasText: 'import numpy as np' }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page
    .locator('.statusbar-item', { hasText: /^Python$/ })
    .first()
    .waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  checks.push('a click opens the diff of its code, as Python');
  await diff.locator('.editor.modified .view-line', { hasText: 'v = table[column]' }).first().click();
  await page.keyboard.press('End');
  await page.keyboard.type('  # edited in the diff', { delay: 5 });
  await page.locator('.tabs-container .tab.active.dirty').waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page.keyboard.press('ControlOrMeta+S');
  await page.locator('.tabs-container .tab.active.dirty').waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
  const saved = await pollUntil(
    page,
    async () => {
      const json = JSON.parse(fs.readFileSync(scriptFile, 'utf8')) as { script: string };
      return json.script.includes('v = table[column]  # edited in the diff\n') ? json : undefined;
    },
    () =>
      `the JSON file's "script" does not have the line typed in the diff: ${JSON.stringify((JSON.parse(fs.readFileSync(scriptFile, 'utf8')) as { script: string }).script.slice(0, 300))}`,
  );
  if (!saved.script.includes('# reviewed')) throw new Error('the earlier change to the script was lost');
  checks.push('typing into the right side and Ctrl+S write the JSON file\'s "script"');
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(screenshotsDir, 'bundle-code.png') });

  // An identical query in the Source Control view: its click opens its code (nothing to compare), as SQL.
  await page.locator('.part.sidebar .monaco-list-row', { hasText: 'Samples.TopCustomers.json' }).first().click();
  await page.locator('.tabs-container .tab.active[aria-label^="Samples.TopCustomers.sql"]').waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page
    .locator('.statusbar-item', { hasText: /^(MS )?SQL$/ })
    .first()
    .waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  checks.push('a click on the identical query opens its code, as SQL');
  await runFromPalette(page, 'View: Close Editor');

  // Open Code from the editor title of a query's JSON file: its SQL.
  await quickOpen(page, 'Samples.TopCustomers.json');
  await page.locator('.editor-actions .action-label[aria-label^="Open Code"]').first().click({ timeout: STEP_TIMEOUT });
  await page.locator('.tabs-container .tab.active[aria-label^="Samples.TopCustomers.sql"]').waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page
    .locator('.statusbar-item', { hasText: /^(MS )?SQL$/ })
    .first()
    .waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  checks.push("Open Code on the query's JSON file opens its SQL");
}

runUiCheck('bundle code', main);

// `node out/test/host/uiScripts.js` (after `npm run -s build`): ▶ Run on Datagrok as a user meets it in
// the real workbench (code-server + headless Chromium, the packaged .vsix, the emulator): signs in from
// the palette, opens a Python script, clicks its ▶ Run on Datagrok lens, and answers the prompts — the
// first prefilled with the header's default, the second (no default) refusing a word with the reason, the
// choice offering its default — then sees the result under the script's name, labelled: "SumSq → c = 25".
// Saves screenshots/script-inputs.png (the README's) and screenshots/script-result.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot, screenshotsDir } from './paths';
import { STEP_TIMEOUT, waitForToast } from './uiPage';
import { copyDemoWorkspace, openUiWorkbench, runUiCheck, signInFromPalette } from './uiWorkbench';

const SUMSQ = [
  '#name: SumSq',
  '#description: The sum of two squares',
  '#language: python',
  '#input: int a = 3 [The first side]',
  '#input: int b [The second side]',
  '#input: string how = sum {choices: ["sum", "product"]}',
  '#output: int c',
  'c = a * a + b * b if how == "sum" else a * a * b * b',
  '',
].join('\n');

/** The quick input's prompt line, once it matches. */
async function waitForPrompt(page: Page, text: RegExp): Promise<void> {
  await page.locator('.quick-input-widget .quick-input-message', { hasText: text }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
}

async function main(): Promise<number> {
  const { page, emulator } = await openUiWorkbench('dgsc-', (workspace) => {
    copyDemoWorkspace(workspace);
    fs.writeFileSync(path.join(workspace, 'sumsq.py'), SUMSQ);
  });
  const checks: string[] = [];
  await signInFromPalette(page, emulator);
  checks.push('signed in');

  // The script from the Explorer (Quick Open waits for the file search, slow on a busy machine).
  await page.keyboard.press('ControlOrMeta+Shift+E');
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'sumsq.py' }).first().click({ timeout: 60_000 });
  await page.locator('.tabs-container .tab.active', { hasText: 'sumsq.py' }).first().waitFor({ state: 'visible', timeout: 60_000 });
  const lens = page.locator('.monaco-editor .codelens-decoration a', { hasText: 'Run on Datagrok' }).first();
  await lens.waitFor({ state: 'visible', timeout: 60_000 });
  await lens.click();

  // a: prefilled with the header's default.
  await waitForPrompt(page, /^a \(int\): The first side/);
  const input = page.locator('.quick-input-widget input.input');
  const a = await input.inputValue();
  if (a !== '3') throw new Error(`the prompt for a starts with "${a}", not the header's 3`);
  await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Run SumSq on Datagrok' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  checks.push('a prefilled with 3');
  await page.keyboard.press('Enter');

  // b: no default; a word is refused with the reason, in place.
  await waitForPrompt(page, /^b \(int\): The second side/);
  await page.keyboard.type('four', { delay: 5 });
  await waitForPrompt(page, /b is an int: type a whole number such as 3, not "four"/);
  await page.screenshot({ path: path.join(screenshotsDir, 'script-inputs.png') });
  checks.push('b refuses "four" with the reason');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('4', { delay: 5 });
  await page.keyboard.press('Enter');

  // how: a choice, its default first to take.
  const active = page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: 'sum' });
  await active.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  checks.push('how offers its choices, the default focused');
  await page.keyboard.press('Enter');

  await waitForToast(page, /^SumSq → c = 25$/, 'after the run');
  await page.locator('.tabs-container .tab', { hasText: 'SumSq — result' }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page.screenshot({ path: path.join(screenshotsDir, 'script-result.png') });
  checks.push('"SumSq → c = 25" and the tab "SumSq — result"');
  console.log(`ok   ui (scripts): ${checks.join('; ')}; screenshots in ${path.relative(repoRoot, screenshotsDir)}/script-*.png`);
  return 0;
}

runUiCheck('scripts', main);

// UI check step of parameter files (ui.ts runs it as a feature step): as a user sees them, the mistakes
// of a parameter file are underlined and listed in the Problems panel before anything runs, and
// completion offers the function's missing input.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { pollUntil, quickOpen, runFromPalette, STEP_TIMEOUT } from './uiPage';

const MISTAKES = `{
  "$function": "Demo:Filter",
  "table": "Demo:demog",
  "colum": "AGE",
  "min": "eighty"
}
`;

async function texts(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((rows) => rows.map((row) => (row.getAttribute('aria-label') || row.textContent || '').replace(/\s+/g, ' ').trim()));
}

/** Writes a parameter file with two mistakes into the workspace, opens it, checks Problems, then completes an input. */
export async function parameterFileFlow(page: Page, workspace: string, moment: (label: string) => Promise<void>): Promise<void> {
  fs.writeFileSync(path.join(workspace, 'mistakes.datagrok.json'), MISTAKES);
  await quickOpen(page, 'mistakes.datagrok.json');
  // The misspelt input and the string where a number belongs, found before running.
  await page.locator('.monaco-editor .squiggly-error').first().waitFor({ state: 'attached', timeout: STEP_TIMEOUT });
  await runFromPalette(page, 'View: Toggle Problems');
  let problems: string[] = [];
  await pollUntil(
    page,
    async () => {
      problems = await texts(page, '.markers-panel .monaco-list-row');
      const unknown = problems.some((p) => /Demo:Filter has no input "colum"/.test(p));
      const wrongType = problems.some((p) => /"min" \(\w+\) expects a number, not the string "eighty"/.test(p));
      return unknown && wrongType ? true : undefined;
    },
    () => `the Problems panel does not list the unknown input "colum" and the string for "min"; it shows:\n  ${problems.join('\n  ') || '(nothing)'}`,
  );
  await moment('diagnostics');
  await runFromPalette(page, 'View: Toggle Problems');

  // Completion: a new key after "table" offers the inputs not yet present (column, among them).
  await page.locator('.monaco-editor .view-line', { hasText: '"table"' }).first().click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('"');
  await page.keyboard.press('ControlOrMeta+Space');
  let items: string[] = [];
  await pollUntil(
    page,
    async () => {
      items = await texts(page, '.editor-widget.suggest-widget .monaco-list-row');
      return items.some((i) => /^column\b/.test(i)) ? true : undefined;
    },
    () => `completion after a new quote does not offer the input "column"; it offers:\n  ${items.join('\n  ') || '(nothing)'}`,
  );
  await moment('completion');
  await page.keyboard.press('Escape');
  await runFromPalette(page, 'File: Revert File');
  await page.locator('.tabs-container .tab.active.dirty').waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
}

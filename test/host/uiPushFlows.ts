// UI check steps of pushing CSV as a table (ui.ts calls them as feature steps): planets.csv from the editor
// title's button, and a file larger than the sample whose notification says the exact count.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { emulatorJson, lastRequests, pollUntil, quickOpen, runFromPalette, STEP_TIMEOUT, waitForToast } from './uiPage';

interface EmulatorTables {
  tables: Array<{ ID: string; name: string; fullName?: string }>;
}

/** planets.csv pushed with the editor title's button: the name box says what goes up; the table reaches the emulator. */
export async function pushPlanetsFlow(page: Page, emulatorOrigin: string, moment: (label: string) => Promise<void>): Promise<void> {
  await quickOpen(page, 'planets.csv');
  await page.locator('.editor-actions a.action-label[aria-label^="Push CSV as Table"]').first().click({ timeout: STEP_TIMEOUT });
  const widget = page.locator('.quick-input-widget');
  // The name box says what goes up: 8 planets, 4 columns; the name defaults to the file name.
  await widget
    .locator('.quick-input-message', { hasText: /^8 rows × 4 columns, .*Saved as demo:planets:planets \(a name without a project.*Table name:/ })
    .waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  const name = await widget.locator('input.input').inputValue();
  if (name !== 'planets') throw new Error(`the name box is prefilled with "${name}", not "planets"`);
  await moment('name-box');
  await page.keyboard.press('Enter');
  const toast = await waitForToast(page, /^Pushed "planets\.csv" as table \S*planets \(8 rows × 4 columns\)\.$/, 'after pushing').catch(async (error: Error) => {
    throw new Error(`${error.message}\n${await lastRequests(emulatorOrigin)}`);
  });
  if (!toast.buttons.includes('Open in Browser')) throw new Error(`the notification "${toast.message}" has the buttons [${toast.buttons.join(', ')}], no "Open in Browser"`);
  let tables: string[] = [];
  await pollUntil(
    page,
    async () => {
      const state = await emulatorJson<EmulatorTables>(emulatorOrigin, 'state');
      tables = state.tables.map((t) => t.fullName ?? t.name);
      return tables.some((t) => /(^|:)planets$/i.test(t)) ? true : undefined;
    },
    () => `emulator: no table "planets"; its tables: ${tables.join(', ')}`,
  );
}

/** Writes counted.csv (120,000 rows, some with a quoted line break) into the workspace before the workbench opens it (Quick Open finds it). */
export function writeCountedCsv(workspace: string): void {
  const lines = Array.from({ length: 120_000 }, (_, i) => `${i},name ${i % 97},"note ${i}${i % 50 === 0 ? '\nsecond line' : ''}"`);
  fs.writeFileSync(path.join(workspace, 'counted.csv'), `id,name,note\n${lines.join('\n')}\n`);
}

/**
 * A file larger than the sample: the name box estimates its rows ("~…"), and the notification after the
 * push says the exact count (counted while it uploaded), not the estimate.
 */
export async function pushExactCountFlow(page: Page): Promise<void> {
  // One editor group, so the editor title's button is counted.csv's (other groups show their own).
  await runFromPalette(page, 'View: Close All Editors');
  await quickOpen(page, 'counted.csv');
  await page.locator('.editor-actions a.action-label[aria-label^="Push CSV as Table"]').first().click({ timeout: STEP_TIMEOUT });
  const message = page.locator('.quick-input-widget .quick-input-message');
  await message
    .filter({ hasText: /^~[\d,]+ rows × 3 columns/ })
    .first()
    .waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  const estimate = (await message.first().innerText()).split(' ')[0];
  await page.keyboard.press('Enter');
  const toast = await waitForToast(page, /^Pushed "counted\.csv" as table \S+ \(/, 'after pushing counted.csv');
  if (!/\(120,000 rows × 3 columns\)\.$/.test(toast.message)) {
    throw new Error(`the notification says "${toast.message}", not the exact "120,000 rows × 3 columns" (the name box estimated ${estimate})`);
  }
}

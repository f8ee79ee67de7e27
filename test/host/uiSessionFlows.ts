// UI check steps of the session (ui.ts calls them as feature steps): Sign Out back to the welcome view, a
// command run while signed out that signs in first and continues, and a window reload after which the user
// and the runs are still known without a request.
import type { Page } from 'playwright-core';
import { answerInputBox, clickToastButton, emulatorJson, runFromPalette, STEP_TIMEOUT, sideBarRows, waitForRows, waitForToast } from './uiPage';

export async function signOutFlow(page: Page): Promise<void> {
  await runFromPalette(page, 'Datagrok: Sign Out');
  const confirm = page.locator('.monaco-dialog-box', { hasText: /Sign out of 127\.0\.0\.1:\d+\?/ });
  await confirm.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await confirm
    .locator('.monaco-button', { hasText: /^Sign Out$/ })
    .first()
    .click();
  await waitForToast(page, /^Signed out of 127\.0\.0\.1:\d+; its key was removed/, 'after signing out');
  await page
    .locator('.part.sidebar .welcome-view-content .monaco-button', { hasText: /^Sign In$/ })
    .first()
    .waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  const rows = await sideBarRows(page);
  if (rows.some((row) => /Chemists|Pending requests/.test(row))) throw new Error(`signed out, the tree still shows:\n  ${rows.join('\n  ')}`);
}

export async function signedOutSearchFlow(page: Page, emulator: { baseUrl: string; key: string }, moment: (label: string) => Promise<void>): Promise<void> {
  const signInFirst = /^You are not signed in to 127\.0\.0\.1:\d+\. Sign in first; the command then continues\.$/;
  await runFromPalette(page, 'Datagrok: Search Groups');
  await waitForToast(page, signInFirst, 'signed out');
  await moment('sign-in-first');
  await clickToastButton(page, signInFirst, 'Sign In', 'signed out');
  await answerInputBox(page, /server URL/i, emulator.baseUrl);
  await answerInputBox(page, /API key/i, emulator.key);
  await answerInputBox(page, /group name/i, 'Bio');
  await waitForRows(page, [/^Search: Bio/, /^Biologists\b/], 'search results after signing in');
}

export async function reloadRemembersFlow(page: Page, emulatorOrigin: string, url: string): Promise<void> {
  // The Datagrok views out of sight; after the reload a parameter file's tab is brought up, so the
  // extension activates for the JSON editor and only the remembered identity can name the user.
  await page.locator('.activitybar [aria-label^="Explorer"]').first().click();
  const cleared = await fetch(`${emulatorOrigin}/__emulator/requests`, { method: 'DELETE' });
  if (!cleared.ok) throw new Error(`DELETE /__emulator/requests: HTTP ${cleared.status}`);
  // The page loaded again: a new window on the same state (what a window reload is to the extension).
  await page.goto(url, { timeout: 60_000 });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
  const tab = page.locator('.tabs-container .tab', { hasText: 'add.datagrok.json' }).first();
  // The window restores its editors when it saved their state before the reload; when it did not (seen
  // once in CI's run), the file is opened from the Explorer: the same JSON editor, the same activation.
  if (
    !(await tab.waitFor({ state: 'visible', timeout: 15_000 }).then(
      () => true,
      () => false,
    ))
  ) {
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'add.datagrok.json' }).first().click({ timeout: 60_000 });
  }
  await tab.click({ timeout: 60_000 });
  await page
    .locator('.statusbar-item', { hasText: /127\.0\.0\.1:\d+ · Demo User/ })
    .first()
    .waitFor({ state: 'visible', timeout: 90_000 });
  const log = await emulatorJson<Array<{ method: string; path: string }>>(emulatorOrigin, 'requests');
  const userRequests = log.filter((r) => /\/(user\/group|groups\/current)$/.test(r.path));
  if (userRequests.length) throw new Error(`the user was asked for after the reload: ${userRequests.map((r) => `${r.method} ${r.path}`).join(', ')}`);
  // The run made before the reload is still in the Runs view: remembered in the global state, read
  // back by the new window's extension host.
  await page.locator('.activitybar [aria-label^="Datagrok"]').first().click();
  const runs = page.locator('.part.sidebar .pane-header').filter({ hasText: /^Runs/ }).first();
  if ((await runs.getAttribute('aria-expanded', { timeout: STEP_TIMEOUT })) !== 'true') await runs.click();
  await waitForRows(page, [/^Demo:Add.*add\.datagrok\.json/], 'Runs view after the reload');
}

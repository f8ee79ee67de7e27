// UI check steps of the rough-edge fixes (ui.ts calls them as feature steps): Open in Browser reaching the
// emulator's page of a pushed table, and Share Dashboard's three counted steps without the user themself.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { screenshotsDir } from './paths';
import { clickToastButton, clickUntil, emulatorJson, pollUntil, quickOpen, runFromPalette, STEP_TIMEOUT, waitForToast } from './uiPage';

/** Pushes planets.csv again and follows the notification's "Open in Browser" to the emulator's page of the table. */
export async function openInBrowserFlow(page: Page): Promise<void> {
  // planets.csv is open from the push step: its tab, else Quick Open.
  const tab = page.locator('.tabs-container .tab', { hasText: 'planets.csv' }).first();
  if (await tab.count()) await tab.click();
  else await quickOpen(page, 'planets.csv');
  await page.locator('.editor-actions a.action-label[aria-label^="Push CSV as Table"]').first().click({ timeout: STEP_TIMEOUT });
  await page.locator('.quick-input-widget .quick-input-message', { hasText: /Saved as demo:planets:planets/ }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page.keyboard.press('Enter');
  const popup = page.context().waitForEvent('page', { timeout: STEP_TIMEOUT });
  await clickToastButton(page, /^Pushed "planets\.csv" as table \S*planets/, 'Open in Browser', 'after pushing');
  // VS Code may ask before opening an outside address: Open.
  const dialog = page.locator('.monaco-dialog-box');
  void dialog
    .waitFor({ state: 'visible', timeout: 5000 })
    .then(() =>
      dialog
        .locator('.monaco-button', { hasText: /^Open$/ })
        .first()
        .click(),
    )
    .catch(() => undefined);
  const web = await popup;
  try {
    await web.waitForLoadState('domcontentloaded', { timeout: STEP_TIMEOUT });
    await web.locator('h1', { hasText: 'Table demo:planets:planets' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    const text = await web.locator('body').innerText();
    if (!/8 rows × 4 columns/.test(text) || !/Earth/.test(text)) throw new Error(`the page at ${web.url()} does not show the 8 planets:\n${text.slice(0, 400)}`);
    await web.screenshot({ path: path.join(screenshotsDir, 'open-in-browser.png') });
  } finally {
    await web.close();
  }
}

/** Share Dashboard from the palette: dashboard 1/3, with whom 2/3 (the user demo not offered), access 3/3. */
export async function shareDashboardFlow(page: Page, emulatorOrigin: string, moment: (label: string) => Promise<void>): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const title = (pattern: RegExp) => widget.locator('.quick-input-title', { hasText: pattern }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  const rows = widget.locator('.monaco-list-row');
  await runFromPalette(page, 'Datagrok: Share Dashboard');
  await title(/which dashboard.*1\s*\/\s*3/);
  const input = widget.locator('input.input');
  const placeholder = (await input.getAttribute('placeholder')) ?? '';
  if (placeholder.length > 45) throw new Error(`the placeholder "${placeholder}" is long enough to be cut off`);
  await input.fill('World');
  await rows.filter({ hasText: 'World overview' }).first().click({ timeout: STEP_TIMEOUT });

  await title(/with whom.*2\s*\/\s*3/);
  await rows.filter({ hasText: 'Chemists' }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await moment('share-with-whom');
  const offered = await rows.allInnerTexts();
  if (offered.some((r) => /\(demo\)|^\W*demo\b/m.test(r))) throw new Error(`the user demo is offered to share with themself:\n  ${offered.join('\n  ')}`);
  // Ticked on its checkbox, then Enter, as the step's title says ("tick one or more, then Enter"). The
  // click leaves the focus on the checkbox, which takes Enter as "untick": the pick moves the focus back
  // to its input, so Enter accepts what is ticked.
  if (!/tick one or more, then Enter/.test(await widget.locator('.quick-input-title').first().innerText())) {
    throw new Error(`the step's title does not say "tick one or more, then Enter": ${await widget.locator('.quick-input-title').first().innerText()}`);
  }
  const chemists = rows.filter({ hasText: 'Chemists' }).first();
  await chemists.locator('.monaco-custom-toggle, .quick-input-list-checkbox, input[type="checkbox"]').first().click({ timeout: STEP_TIMEOUT });
  await widget.locator('.monaco-list-row[aria-checked="true"]', { hasText: 'Chemists' }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await pollUntil(
    page,
    async () => ((await widget.locator('input.input:focus').count()) > 0 ? true : undefined),
    async () =>
      `after ticking Chemists' checkbox the focus is not back in the pick's input: ${await page.evaluate(() => {
        const e = (globalThis as unknown as { document: { activeElement: { className: string } | null } }).document.activeElement;
        return e?.className ?? 'nothing';
      })}`,
  );
  await page.keyboard.press('Enter');

  await title(/access.*3\s*\/\s*3/);
  // View is the first choice, highlighted: Enter takes it.
  await rows.filter({ hasText: 'can open the dashboard' }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page.keyboard.press('Enter');
  await waitForToast(page, /^Shared dashboard World overview with Chemists \(View access\)\.$/, 'after sharing');
  let shares: string[] = [];
  await pollUntil(
    page,
    async () => {
      const state = await emulatorJson<{ dashboards: Array<{ name: string; shares: Array<{ groupName?: string; group: string }> }> }>(emulatorOrigin, 'state');
      shares = (state.dashboards.find((d) => d.name === 'World overview')?.shares ?? []).map((s) => s.groupName ?? s.group);
      return shares.includes('Chemists') ? true : undefined;
    },
    () => `emulator: World overview is shared with [${shares.join(', ')}], not Chemists`,
  );
}

/** Create Dashboard from the palette: tables 1/3 (searched, one ticked), name 2/3, layout 3/3; the dashboard on the emulator. */
export async function createDashboardFlow(page: Page, emulatorOrigin: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const title = (pattern: RegExp) => widget.locator('.quick-input-title', { hasText: pattern }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  const rows = widget.locator('.monaco-list-row');
  await runFromPalette(page, 'Datagrok: Create Dashboard');
  await title(/tables.*1\s*\/\s*3/);
  await widget.locator('input.input').fill('demog');
  // The server's table (project Demo), ticked: a click on a row of a multi-select pick ticks it.
  // The list is searched on the server as typed: a click landing while it is redrawn with the answer is
  // lost (the row under the pointer is replaced), so an unticked row is clicked again.
  const demog = rows.filter({ hasText: /demog.*Demo/ }).first();
  const ticked = widget.locator('.monaco-list-row[aria-checked="true"]', { hasText: /demog/ }).first();
  await clickUntil(demog, ticked, 'visible', 'Create Dashboard: clicking the demog row (project Demo) did not tick it');
  await page.keyboard.press('Enter');
  await title(/name.*2\s*\/\s*3/);
  // Nothing typed yet: not an error yet.
  const early = (await widget.locator('.quick-input-message').allInnerTexts()).join(' ');
  if (/Enter a name/.test(early)) throw new Error(`the name box opens with the error "${early}" before anything was typed`);
  await widget.locator('input.input').fill('UI board');
  await page.keyboard.press('Enter');
  await title(/layout.*3\s*\/\s*3/);
  await rows.filter({ hasText: 'No layout' }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page.keyboard.press('Enter');
  await waitForToast(page, /^Created dashboard UI board with 1 table\./, 'after creating the dashboard');
  let made: Array<{ name: string; tables: number }> = [];
  await pollUntil(
    page,
    async () => {
      const state = await emulatorJson<{ dashboards: Array<{ name: string; tableIds?: string[] }> }>(emulatorOrigin, 'state');
      made = state.dashboards.map((d) => ({ name: d.name, tables: d.tableIds?.length ?? 0 }));
      return made.some((d) => d.name === 'UI board' && d.tables === 1) ? true : undefined;
    },
    () => `emulator: no dashboard "UI board" with one table; its dashboards: ${JSON.stringify(made)}`,
  );
}

/** The README's pictures, under stable names: [the step's title or a moment's label, the name in screenshots/]. */
const README_SHOTS: Array<[RegExp, string]> = [
  [/^the Groups tree shows the demo data/, 'groups.png'],
  [/-name-box\.png$/, 'push-name-box.png'],
  [/^runs add\.datagrok\.json from its CodeLens/, 'run-codelens.png'],
  [/-runs-view\.png$/, 'runs-view.png'],
  [/-diagnostics\.png$/, 'parameter-file-problems.png'],
  [/-completion\.png$/, 'parameter-file-completion.png'],
  [/^the explorer views list the server/, 'explorer-views.png'],
  [/-share-with-whom\.png$/, 'share-dashboard.png'],
  [/^signs out from the palette/, 'signed-out.png'],
  [/-walkthrough\.png$/, 'walkthrough.png'],
];

/** Copies the steps' screenshots the README shows to their stable names (the step numbers change as steps are added). */
export function copyReadmeScreenshots(steps: ReadonlyArray<{ title: string; state: string; screenshot?: string; moments?: string[] }>): void {
  for (const s of steps) {
    if (s.state !== 'passed') continue;
    for (const [pattern, name] of README_SHOTS) {
      const file = pattern.source.startsWith('^') ? (pattern.test(s.title) ? s.screenshot : undefined) : s.moments?.find((m) => pattern.test(m));
      if (file && fs.existsSync(file)) fs.copyFileSync(file, path.join(screenshotsDir, name));
    }
  }
}

/** Opens the "Get Started with Datagrok" walkthrough from the palette; returns its container. */
export async function openWalkthrough(page: Page): Promise<Locator> {
  await runFromPalette(page, 'Welcome: Open Walkthrough...');
  const input = page.locator('.quick-input-widget input.input');
  await input.fill('Get Started with Datagrok');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Get Started with Datagrok' }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page.keyboard.press('Enter');
  const walkthrough = page.locator('.gettingStartedContainer');
  await walkthrough.locator('h2', { hasText: 'Get Started with Datagrok' }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  return walkthrough;
}

/** Whether the walkthrough's step (by id suffix) shows its tick. */
export async function stepTicked(walkthrough: Locator, id: string): Promise<boolean> {
  return (await walkthrough.locator(`[data-done-step-id$="${id}"][aria-checked="true"]`).count()) > 0;
}

/**
 * Signed out, the walkthrough's Sign In: a click that ends in Escape does not tick the step; then the URL
 * and the key are typed with the keyboard alone (no click in the box: the key box must have the focus
 * the walkthrough's button had), and the step is ticked once the server accepted the key.
 */
export async function walkthroughSignInFlow(page: Page, emulator: { baseUrl: string; key: string }, moment: (label: string) => Promise<void>): Promise<void> {
  const walkthrough = await openWalkthrough(page);
  const signInStep = walkthrough.locator('.getting-started-step', { hasText: 'Sign in to a Datagrok server' }).first();
  await signInStep.click();
  const signInButton = signInStep.locator('.button-link, .monaco-button', { hasText: /^Sign In$/ }).first();
  const widget = page.locator('.quick-input-widget');
  await signInButton.click({ timeout: STEP_TIMEOUT });
  await widget.locator('.quick-input-message', { hasText: /server URL/i }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page.keyboard.press('Escape');
  await widget.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
  await page.waitForTimeout(1000);
  if (await stepTicked(walkthrough, 'signIn')) throw new Error('the step "Sign in" is ticked after a click that was cancelled: nobody signed in');

  await signInButton.click({ timeout: STEP_TIMEOUT });
  await widget.locator('.quick-input-message', { hasText: /server URL/i }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(emulator.baseUrl, { delay: 5 });
  await page.keyboard.press('Enter');
  await widget.locator('.quick-input-message', { hasText: /API key/i }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  const focused =
    (await page.locator('.quick-input-widget input.input:focus').count()) > 0
      ? 'the key box'
      : (await page.locator(':focus').evaluateAll((els) => els.map((e) => e.outerHTML.slice(0, 120)))).join(' ') || 'nothing';
  if (focused !== 'the key box') throw new Error(`the key box is open but the focus is on ${focused}: a pasted key would go nowhere`);
  await moment('walkthrough-key-box');
  // As a user pastes: into whatever has the focus.
  await page.keyboard.insertText(emulator.key);
  await page.keyboard.press('Enter');
  await widget.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
  await waitForToast(page, /^Signed in to 127\.0\.0\.1:\d+ as Demo User\.$/, 'after signing in from the walkthrough');
  await pollUntil(
    page,
    async () => ((await stepTicked(walkthrough, 'signIn')) ? true : undefined),
    () => 'signed in from the walkthrough, its step "Sign in to a Datagrok server" is not ticked',
  );
  await runFromPalette(page, 'View: Close Editor');
}

/** The tab titles of each editor group, left to right. */
async function editorGroups(page: Page): Promise<string[][]> {
  const groups = page.locator('.editor-group-container');
  const out: string[][] = [];
  for (let i = 0; i < (await groups.count()); i++) {
    out.push((await groups.nth(i).locator('.tabs-container .tab').allInnerTexts()).map((t) => t.replace(/\s+/g, '')));
  }
  return out;
}

/**
 * Mounting into a single-folder window reloads it as a multi-root workspace: with add.datagrok.json in the
 * first group and planets.csv moved to the second, the dialog says the open editors come back, "Add and
 * Reload Window" reloads, and after the reload both tabs are open again, each in its group.
 */
export async function mountReopensEditorsFlow(page: Page, moment: (label: string) => Promise<void>): Promise<void> {
  await runFromPalette(page, 'View: Close All Editors');
  // Opened from the Explorer (a double-click keeps each tab, not a preview the next one replaces).
  await page.locator('.activitybar [aria-label^="Explorer"]').first().click();
  for (const name of ['add.datagrok.json', 'planets.csv']) {
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first().dblclick({ timeout: STEP_TIMEOUT });
    await page.locator(`.tabs-container .tab.active[aria-label^="${name}"]`).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  }
  await runFromPalette(page, 'View: Move Editor into Next Group');
  await pollUntil(
    page,
    async () => {
      const groups = await editorGroups(page);
      return groups.length === 2 && groups[0].some((t) => t.includes('add.datagrok.json')) && groups[1].some((t) => t.includes('planets.csv')) ? true : undefined;
    },
    async () => `before mounting, the editor groups are ${JSON.stringify(await editorGroups(page))}, not [[add.datagrok.json], [planets.csv]]`,
  );
  const before = page.url();
  await runFromPalette(page, 'Datagrok: Mount Connector as Folder');
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.monaco-list-row', { hasText: 'System:DemoFiles' }).first().click({ timeout: STEP_TIMEOUT });
  const dialog = page.locator('.monaco-dialog-box', { hasText: /multi-root workspace/ });
  await dialog.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  const text = await dialog.innerText();
  if (!/Open editors will be reopened after the reload/.test(text)) throw new Error(`the mount dialog does not say the open editors come back:\n${text}`);
  await moment('mount-dialog');
  await dialog
    .locator('.monaco-button', { hasText: /^Add and Reload Window$/ })
    .first()
    .click();
  // The window reloads into an untitled multi-root workspace (another URL), with the connector's folder.
  await page.waitForURL((url) => url.toString() !== before, { timeout: 90_000 });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90_000 });
  await pollUntil(
    page,
    async () => {
      const groups = await editorGroups(page);
      return groups.length >= 2 && groups[0].some((t) => t.includes('add.datagrok.json')) && groups[1].some((t) => t.includes('planets.csv')) ? true : undefined;
    },
    async () => `after the reload the editor groups are ${JSON.stringify(await editorGroups(page))}: add.datagrok.json (first group) and planets.csv (second) were not reopened`,
    90_000,
  );
}

// What the UI check (`ui.ts`) reads from and does to the workbench page, as a user would: tree rows,
// the command palette, Quick Open, input boxes, notification toasts. Every wait polls a condition.
import type { Locator, Page } from 'playwright-core';

export const STEP_TIMEOUT = 20_000;

/** Polls `probe` until it returns a value (not undefined); on timeout throws with `describe()`. */
export async function pollUntil<T>(page: Page, probe: () => Promise<T | undefined>, describe: () => string | Promise<string>, timeout = STEP_TIMEOUT): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(await describe());
    await page.waitForTimeout(200);
  }
}

/** The rows of the tree in the side bar, as "label — description" the way they read on screen. */
export async function sideBarRows(page: Page): Promise<string[]> {
  return page.locator('.part.sidebar .monaco-list-row').evaluateAll((rows) =>
    rows.map((row) => {
      const text = (selector: string) => (row.querySelector(selector)?.textContent ?? '').replace(/\s+/g, ' ').trim();
      const description = text('.label-description');
      return description ? `${text('.label-name')} — ${description}` : text('.label-name') || (row.textContent ?? '').trim();
    }),
  );
}

const treeDump = (rows: string[]) => `the tree shows:\n  ${rows.join('\n  ') || '(no rows)'}`;

/** Waits until every pattern matches a row and no `absent` pattern does. */
export async function waitForRows(page: Page, expected: RegExp[], what: string, absent: RegExp[] = []): Promise<string[]> {
  let rows: string[] = [];
  let problem = '';
  return pollUntil(
    page,
    async () => {
      rows = await sideBarRows(page);
      const missing = expected.filter((pattern) => !rows.some((row) => pattern.test(row)));
      const present = absent.filter((pattern) => rows.some((row) => pattern.test(row)));
      problem = [missing.length ? `no row matches ${missing.join(', ')}` : '', present.length ? `still a row matching ${present.join(', ')}` : ''].filter(Boolean).join('; ');
      return problem ? undefined : rows;
    },
    () => `${what}: ${problem}; ${treeDump(rows)}`,
  );
}

/** F1, the command's title typed, Enter on the matching entry: as a user runs a command. */
export async function runFromPalette(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await input.fill(`>${title}`);
  const entry = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  await entry.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page.keyboard.press('Enter');
}

/** Ctrl+P, the file name typed, Enter on the matching entry; waits for its editor tab to be active. */
export async function quickOpen(page: Page, fileName: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+P');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await input.fill(fileName);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: fileName }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
  await page.locator(`.tabs-container .tab.active[aria-label^="${fileName}"]`).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
}

/** Answers the input box whose prompt mentions `promptText`: select all, type, Enter. */
export async function answerInputBox(page: Page, promptText: RegExp, value: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-message', { hasText: promptText }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  const input = widget.locator('input.input');
  await input.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(value, { delay: 5 });
  await page.keyboard.press('Enter');
}

export interface Toast {
  message: string;
  buttons: string[];
}

/** The notification toasts on screen, newest first: their message and button labels. */
export async function toasts(page: Page): Promise<Toast[]> {
  return page.locator('.notifications-toasts .notification-toast').evaluateAll((items) =>
    items.map((item) => ({
      message: (item.querySelector('.notification-list-item-message')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
      buttons: [...item.querySelectorAll('.notification-list-item-buttons-container .monaco-button')].map((b) => (b.textContent ?? '').trim()),
    })),
  );
}

/** The notifications of the notification center (opened for the look, closed again), newest first. */
async function notificationCenter(page: Page): Promise<Toast[]> {
  await runFromPalette(page, 'Notifications: Show Notifications');
  const list = page.locator('.notifications-center .notification-list-item');
  await list
    .first()
    .waitFor({ state: 'visible', timeout: 5_000 })
    .catch(() => undefined);
  const items = await list.evaluateAll((rows) =>
    rows.map((item) => ({
      message: (item.querySelector('.notification-list-item-message')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
      buttons: [...item.querySelectorAll('.notification-list-item-buttons-container .monaco-button')].map((b) => (b.textContent ?? '').trim()),
    })),
  );
  await page.keyboard.press('Escape');
  return items;
}

/**
 * Waits for a toast whose message matches `pattern`. A toast can be gone before a poll on a loaded
 * machine sees it (a newer one pushed it out, or it timed out): the notification center, which keeps
 * every notification of the window, is read before the wait fails.
 */
export async function waitForToast(page: Page, pattern: RegExp, what: string): Promise<Toast> {
  let shown: Toast[] = [];
  try {
    return await pollUntil(
      page,
      async () => {
        shown = await toasts(page);
        return shown.find((t) => pattern.test(t.message));
      },
      () => '',
    );
  } catch {
    const kept = await notificationCenter(page).catch(() => []);
    const found = kept.find((t) => pattern.test(t.message));
    if (found) return found;
    const list = (items: Toast[]) => items.map((t) => `${t.message} [${t.buttons.join(' | ')}]`).join('\n  ') || '(none)';
    throw new Error(`${what}: no notification matches ${pattern}; on screen:\n  ${list(shown)}\nin the notification center:\n  ${list(kept)}`);
  }
}

/** GET of an emulator control route (`/__emulator/...`), as JSON. */
export async function emulatorJson<T>(origin: string, route: string): Promise<T> {
  const response = await fetch(`${origin}/__emulator/${route}`);
  if (!response.ok) throw new Error(`GET /__emulator/${route}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

/** The emulator's last requests (`/__emulator/requests`), one a line: what the extension sent, for a failure message. */
export async function lastRequests(origin: string, count = 8): Promise<string> {
  const log = await emulatorJson<Array<{ method: string; path: string; status: number }>>(origin, 'requests').catch(() => []);
  return `the emulator's last requests:\n  ${
    log
      .slice(-count)
      .map((r) => `${r.method} ${r.path} → ${r.status}`)
      .join('\n  ') || '(none)'
  }`;
}

/** Waits until no progress notification is on screen (a command's progress closes when it is done). */
export async function waitForProgressToClose(page: Page, what: string): Promise<void> {
  const progress = page.locator('.notifications-toasts .notification-toast', { has: page.locator('.monaco-progress-container.active') });
  await pollUntil(
    page,
    async () => ((await progress.count()) === 0 ? true : undefined),
    async () => `${what}: a progress notification is still open: ${(await progress.allInnerTexts()).join(' | ').replace(/\s+/g, ' ')}`,
    10_000,
  );
}

/** Clicks the button `label` of the toast whose message matches `pattern` (waiting for it). */
export async function clickToastButton(page: Page, pattern: RegExp, label: string, what: string): Promise<void> {
  const toast = await waitForToast(page, pattern, what);
  if (!toast.buttons.includes(label)) throw new Error(`${what}: the notification "${toast.message}" has the buttons [${toast.buttons.join(', ')}], no "${label}"`);
  const item = page.locator('.notifications-toasts .notification-toast', { hasText: toast.message.slice(0, 40) }).first();
  const button = item.locator('.notification-list-item-buttons-container .monaco-button', { hasText: label }).first();
  // A notification closes when one of its buttons is clicked. A toast still sliding in (or re-laid out
  // under a busy page) can take the click at a stale position: then it is still there, and is clicked again.
  await clickUntil(button, item, 'detached', `${what}: clicking "${label}" in the notification "${toast.message}" did not close it`);
}

/**
 * Clicks `target` until `watched` reaches `state` (within 5 s of a click), at most 3 times: a click can
 * land on a stale position while the page redraws (a toast sliding in, a list replaced by a search's
 * answer) and be lost. Fails with `failure` after the third.
 */
export async function clickUntil(target: Locator, watched: Locator, state: 'visible' | 'detached', failure: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await target.click({ timeout: STEP_TIMEOUT });
    const reached = await watched.waitFor({ state, timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (reached) return;
    if (attempt === 3) throw new Error(`${failure} (3 tries)`);
  }
}

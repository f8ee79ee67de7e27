// UI check step of the Groups view (ui.ts calls it as a feature step): a membership request approved with
// its inline ✓ stays in place, marked, and the notification's Undo removes the member again.
import type { Page } from 'playwright-core';
import { clickToastButton, emulatorJson, lastRequests, pollUntil, STEP_TIMEOUT, waitForRows, waitForToast } from './uiPage';

interface EmulatorGroups {
  groups: Array<{ id: string; name: string; children?: Array<{ child?: { name?: string }; childId?: string; id?: string }> }>;
}

export async function approveAndUndoFlow(page: Page, emulatorOrigin: string, moment: (label: string) => Promise<void>): Promise<void> {
  const members = async () => {
    const state = await emulatorJson<EmulatorGroups>(emulatorOrigin, 'state');
    return (state.groups.find((g) => g.name === 'Chemists')?.children ?? []).map((r) => r.child?.name ?? r.childId ?? '?');
  };
  const bobRow = page.locator('.part.sidebar .monaco-list-row', { hasText: /Bob Brown/ }).first();
  await bobRow.hover();
  const approve = bobRow.locator('.actions a.action-label[aria-label^="Approve Membership Request"]');
  const before = await approve.boundingBox({ timeout: STEP_TIMEOUT });
  await approve.click({ timeout: STEP_TIMEOUT });
  await waitForRows(page, [/^Bob\b.* — to Chemists · approved$/, /^Carol\b.* — to Chemists$/], 'Groups tree after approving');
  // Nothing moved: what is under the cursor is still Bob's row (approved), not Carol's ✓.
  const rowAfter = await bobRow.boundingBox({ timeout: STEP_TIMEOUT });
  const y = before ? before.y + before.height / 2 : Number.NaN;
  if (!rowAfter || !(y >= rowAfter.y && y <= rowAfter.y + rowAfter.height)) {
    throw new Error(`after approving, Bob's row (${JSON.stringify(rowAfter)}) is no longer under the cursor (y ${y}): the list shifted`);
  }
  let now: string[] = [];
  await pollUntil(
    page,
    async () => {
      now = await members();
      return now.includes('bob') ? true : undefined;
    },
    () => `emulator: bob is not a member of Chemists; its members: ${now.join(', ') || '(none)'}`,
  );
  await moment('approved');
  await clickToastButton(page, /^Approved: Bob Brown is now a member of Chemists\.$/, 'Undo', 'after approving');
  await waitForToast(page, /^Undone: Bob Brown is no longer a member of Chemists\./, 'after Undo').catch(async (error: Error) => {
    throw new Error(`${error.message}\n${await lastRequests(emulatorOrigin, 12)}`);
  });
  await waitForRows(page, [/^Bob\b.* — to Chemists · approval undone$/, /^Carol\b.* — to Chemists$/], 'Groups tree after Undo');
  await pollUntil(
    page,
    async () => {
      now = await members();
      return now.includes('bob') ? undefined : true;
    },
    () => `emulator: bob is still a member of Chemists after Undo; its members: ${now.join(', ')}`,
  );
}

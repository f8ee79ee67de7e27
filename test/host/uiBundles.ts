// `node out/test/host/uiBundles.js` (after `npm run -s build`): bundles as a user sees them in the real workbench
// (code-server + headless Chromium, the packaged .vsix, against the emulator). A bundle in the workspace holds a
// script whose name the server's own script holds: Diff Bundle from the Explorer's context menu on the folder,
// then the conflict entry in Source Control offers Skip / Adopt / Duplicate inline and on right-click; Adopt is
// chosen and said. Then Pull to Bundle from the palette: the server's entities grouped by kind, a typed name the
// server does not know said in the pick (which keeps the text, and no folder is asked for), a quoted name with
// spaces accepted, and only then the folder dialog. Screenshots: screenshots/bundle-conflict.png and
// screenshots/bundle-pull-picker.png (and bundle-pull-picker-error.png).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createClient } from '../../src/api';
import { pullToFolder } from '../../src/platform/bundles';
import { repoRoot, screenshotsDir } from './paths';
import { clickUntil, pollUntil, runFromPalette, STEP_TIMEOUT, waitForToast } from './uiPage';
import { openUiWorkbench, runUiCheck, signInFromPalette } from './uiWorkbench';

const MY_GREET = '5c000000-0000-4000-8000-000000000021';

/** A bundle of the emulator's Northwind connection, plus a script of its own named as the server's Scripts:Greet. */
async function conflictingBundle(baseUrl: string, key: string, dir: string): Promise<void> {
  const client = createClient({ baseUrl, apiKey: key });
  try {
    await pullToFolder(client.entities, baseUrl, dir, ['Samples:Northwind']);
  } finally {
    await client.close();
  }
  fs.mkdirSync(path.join(dir, 'Script'), { recursive: true });
  const greet = { '#type': 'Script', id: MY_GREET, language: 'javascript', name: 'Greet', namespace: 'Scripts:', script: '//name: Greet\n// mine' };
  fs.writeFileSync(path.join(dir, 'Script/Scripts.Greet.json'), JSON.stringify(greet, null, 2));
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  manifest.order.push({ type: 'Script', id: MY_GREET, file: 'Script/Scripts.Greet.json' });
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
}

async function main(): Promise<number> {
  const { page, emulator } = await openUiWorkbench('dgbu-', (workspace, emulator) => conflictingBundle(emulator.baseUrl, emulator.key, path.join(workspace, 'bundle')));
  const checks: string[] = [];
  const failed = (name: string) => async (error: Error) => {
    await page.screenshot({ path: path.join(screenshotsDir, `${name}-failed.png`) });
    throw error;
  };
  await signInFromPalette(page, emulator);
  checks.push('signed in');

  // Diff Bundle with Server from the Explorer's context menu on the bundle folder.
  await page.keyboard.press('ControlOrMeta+Shift+E');
  const folderRow = page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^bundle$/ }).first();
  await folderRow.waitFor({ state: 'visible', timeout: 60_000 });
  await pollUntil(
    page,
    async () => {
      await folderRow.click({ button: 'right' });
      const item = page.locator('.monaco-menu .action-item', { hasText: 'Diff Bundle with Server' }).first();
      if (await item.isVisible().catch(() => false)) return item;
      await page.keyboard.press('Escape');
      return undefined;
    },
    () => 'the bundle folder\'s context menu has no "Diff Bundle with Server"',
    60_000,
  ).then((item) => clickUntil(item, item, 'detached', 'Diff Bundle with Server stayed on the open menu after a click'));
  const entry = page.locator('.scm-view .monaco-list-row', { hasText: 'Scripts.Greet.json' }).first();
  await entry.waitFor({ state: 'visible', timeout: 60_000 }).catch(failed('bundle-conflict'));
  await page.locator('.scm-view .monaco-list-row', { hasText: 'Conflicts' }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  checks.push('the conflict listed under Conflicts in Source Control');
  await entry.hover();
  for (const title of ["Skip (Leave the Server's Entity)", "Adopt the Server's Entity (Write Into It)", "Push as a Duplicate (Beside the Server's)"])
    await entry.locator(`.actions .action-label[aria-label="${title}"]`).waitFor({ state: 'visible', timeout: STEP_TIMEOUT }).catch(failed('bundle-conflict'));
  checks.push('Skip, Adopt and Duplicate inline on the entry');
  await entry.click({ button: 'right' });
  const adopt = page.locator('.monaco-menu .action-item', { hasText: "Adopt the Server's Entity (Write Into It)" }).first();
  await adopt.waitFor({ state: 'visible', timeout: STEP_TIMEOUT }).catch(failed('bundle-conflict'));
  for (const title of ["Skip (Leave the Server's Entity)", "Push as a Duplicate (Beside the Server's)"])
    await page.locator('.monaco-menu .action-item', { hasText: title }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page.screenshot({ path: path.join(screenshotsDir, 'bundle-conflict.png') });
  await adopt.click();
  await waitForToast(page, /Scripts:Greet: the push writes this entity into the server's Script/, 'adopt');
  await entry.locator('.codicon-link').first().waitFor({ state: 'attached', timeout: STEP_TIMEOUT });
  checks.push('right-click offers the three; Adopt is said and shown on the entry');

  // Pull to Bundle from the palette: the pick, grouped by kind.
  await runFromPalette(page, 'Datagrok: Pull to Bundle…');
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: 'Pull to Bundle: what to pull' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  for (const label of ['Samples:TopCustomers', 'Scripts:Greet'])
    await widget.locator('.monaco-list-row', { hasText: label }).first().waitFor({ state: 'visible', timeout: 60_000 }).catch(failed('bundle-pull-picker'));
  await widget.locator('.quick-input-list .monaco-list-row', { hasText: 'Queries' }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page.screenshot({ path: path.join(screenshotsDir, 'bundle-pull-picker.png') });
  checks.push("the server's entities grouped by kind");
  const input = widget.locator('input.input');
  await input.fill('Samples:TopCustomers World overview');
  await widget.locator('.monaco-list-row', { hasText: "Pull 'Samples:TopCustomers World overview'" }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page.keyboard.press('Enter');
  await widget.locator('.monaco-list-row', { hasText: 'Nothing on the server is named "World"' }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  if ((await input.inputValue()) !== 'Samples:TopCustomers World overview') throw new Error(`the typed text was lost: "${await input.inputValue()}"`);
  await page.screenshot({ path: path.join(screenshotsDir, 'bundle-pull-picker-error.png') });
  checks.push('an unknown name said in the pick, the text kept');
  await input.fill('"World overview" Samples:TopCustomers');
  await page.keyboard.press('Enter');
  // Checked, then the folder step (the web's own folder dialog).
  await widget.locator('.quick-input-title', { hasText: 'The folder to pull into' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT }).catch(failed('bundle-pull-picker'));
  await page.keyboard.press('Escape');
  checks.push('a quoted name with spaces accepted, then the folder asked');
  console.log(`ok   ui (bundles): ${checks.join('; ')}; screenshots in ${path.relative(repoRoot, screenshotsDir)}/bundle-*.png`);
  return 0;
}

runUiCheck('bundles', main);

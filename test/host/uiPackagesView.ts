// `node out/test/host/uiPackagesView.js` (after `npm run -s build`): the Packages view as a user meets it in
// the real workbench (code-server + headless Chromium, the packaged .vsix). The workspace is a monorepo with
// two packages made from datagrok-tools' template (packages/Demo at 1.3.0 with a panel function, and
// packages/Sketch); signed in through the palette, the Packages view shows Demo with the version the
// emulator publishes (server 1.0.0) and Sketch "not published"; Demo expanded lists its functions (role,
// inputs → outputs); a click on one opens its annotation. Screenshot: screenshots/packages-view.png.
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { edit, makePackage } from '../fixtures/packages/faults';
import { repoRoot, screenshotsDir } from './paths';
import { runFromPalette, STEP_TIMEOUT, waitForRows } from './uiPage';
import { copyDemoWorkspace, openUiWorkbench, runUiCheck, signInFromPalette } from './uiWorkbench';

function writeMonorepo(workspace: string): void {
  const demo = makePackage(path.join(workspace, 'packages', 'Demo'), 'Demo');
  edit(demo, 'package.json', (t) => t.replace('"version": "0.0.1"', '"version": "1.3.0"'));
  edit(demo, 'src/package.ts', (t) =>
    t.concat('\n//name: Molecule Card\n//tags: panel\n//input: string smiles {semType: Molecule}\n//output: widget card\nexport function moleculeCard(smiles: string) {}\n'),
  );
  makePackage(path.join(workspace, 'packages', 'Sketch'), 'Sketch');
}

async function packagesView(page: Page): Promise<void> {
  await runFromPalette(page, 'Datagrok: Focus on Packages View');
  // The other views of the container collapsed, so the picture is the Packages view's.
  for (const name of ['Groups', 'Functions', 'Tables', 'Dashboards', 'Files']) {
    const header = page.locator(`.part.sidebar .pane-header[aria-expanded="true"]`, { hasText: new RegExp(`^${name}`) }).first();
    if (await header.count()) await header.click();
  }
  await waitForRows(page, [/^Demo — v1\.3\.0 · server 1\.0\.0$/, /^Sketch — v0\.0\.1 · not published$/], 'the Packages view signed in');
  const pane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: /^Packages/ }) }).first();
  await pane.locator('.monaco-list-row', { hasText: 'Demo' }).first().click();
  await waitForRows(page, [/^Molecule Card — panel · \(smiles: string\) → card: widget$/, /^info — \(\) → void$/], 'the functions of Demo');
  await pane.locator('.monaco-list-row', { hasText: 'Molecule Card' }).first().click();
  await page.locator('.monaco-editor .view-line', { hasText: '//name: Molecule Card' }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
}

async function main(): Promise<number> {
  const { page, emulator } = await openUiWorkbench(
    'dgpkg-',
    (workspace) => {
      copyDemoWorkspace(workspace);
      writeMonorepo(workspace);
    },
    { 'typescript.validate.enable': false },
  );
  await signInFromPalette(page, emulator);
  const shot = path.join(screenshotsDir, 'packages-view.png');
  try {
    await page.keyboard.press('Escape');
    await packagesView(page);
    await page.screenshot({ path: shot });
    console.log(`ok   ui (packages view): ${path.relative(repoRoot, shot)}`);
    return 0;
  } catch (error) {
    await page.screenshot({ path: path.join(screenshotsDir, 'packages-view-failed.png') }).catch(() => undefined);
    console.log(`FAIL ui (packages view)\n${(error instanceof Error ? error.message : String(error)).replace(/^/gm, '     ')}`);
    return 1;
  }
}

runUiCheck('packages view', main);

// `node out/test/host/uiCapabilities.js` (after `npm run -s build`): the capabilities the README shows a
// picture of, as a user meets them in the real workbench (code-server + headless Chromium, the packaged
// .vsix). Signs in through the palette, then:
// - function tests: runs the workspace's two `$expect` files from the Test Explorer; the wrong
//   expectation fails with the diff of expected and actual in the editor's peek, the right one passes;
// - folder sync: a folder linked to the emulator's System:DemoFiles/geo (its .datagrok/sync.json, as
//   Link Folder writes it), with a file changed on both sides and one new here; Compare from the palette
//   lists them in Source Control under Conflicts, Changed on the Server and Changed Here;
// - packages: a package made from datagrok-tools' template, with a misspelt header tag and a deep
//   datagrok-api import; its package.ts opened, grok check's findings are in Problems on their lines.
// - terminals: Use Datagrok in Terminals, then a new terminal's Python reads DATAGROK_API_URL and the key;
// - agents: MCP: List Servers offers the extension's MCP server; started, its output names the tools it has
//   (AI features on for this window only: the other checks run with them off).
// Screenshots: screenshots/function-tests.png, folder-sync.png, packages.png, terminals.png, agents.png (the
// README's media/readme/). `--only NAME …` runs only the named ones.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { edit, makePackage } from '../fixtures/packages/faults';
import { repoRoot, screenshotsDir } from './paths';
import { pollUntil, quickOpen, runFromPalette, STEP_TIMEOUT, waitForToast } from './uiPage';
import { copyDemoWorkspace, openUiWorkbench, runUiCheck, signInFromPalette } from './uiWorkbench';

const LONG = 60_000;

/** The workspace's additions: two function tests and a linked folder. */
function writeWorkspace(workspace: string): void {
  const tests = path.join(workspace, 'tests');
  fs.mkdirSync(tests, { recursive: true });
  fs.writeFileSync(path.join(tests, 'add.datagrok.json'), '{ "$function": "Demo:Add", "a": 2, "b": 3, "$expect": 5 }\n');
  fs.writeFileSync(path.join(tests, 'add-negative.datagrok.json'), '{ "$function": "Demo:Add", "a": -2, "b": -3, "$expect": -6 }\n');
  const linked = path.join(workspace, 'geo');
  fs.mkdirSync(path.join(linked, '.datagrok'), { recursive: true });
  fs.writeFileSync(path.join(linked, '.datagrok', 'sync.json'), `${JSON.stringify({ connector: 'System:DemoFiles', path: 'geo' }, null, 2)}\n`);
  fs.writeFileSync(
    path.join(linked, 'cities.csv'),
    'city,country,lat,lon,population\nTokyo,Japan,35.6895,139.6917,37400068\nDelhi,India,28.7041,77.1025,28514000\nLviv,Ukraine,49.8397,24.0297,717000\n',
  );
  fs.writeFileSync(path.join(linked, 'distances.py'), 'import pandas as pd\n\ncities = pd.read_csv("cities.csv")\nprint(cities.describe())\n');
}

/** A package with two of grok check's findings: a deep datagrok-api import, a misspelt header tag. */
function writePackage(workspace: string): void {
  const dir = makePackage(path.join(workspace, 'greeter'), 'Greeter');
  edit(dir, 'src/package.ts', (text) =>
    text
      .replace("import * as DG from 'datagrok-api/dg';", "import * as DG from 'datagrok-api/dg';\nimport { DataFrame } from 'datagrok-api/src/dataframe';")
      .concat(
        '\n//name: greet\n//descripton: Says hello\n//input: string name\n//output: string greeting\nexport function greet(name: string): string {\n  return "Hello, " + name + DataFrame.name;\n}\n',
      ),
  );
}

/** The rows of a tree in the side bar (Test Explorer, Source Control), as they read on screen. */
async function rowsOf(page: Page, selector: string): Promise<string[]> {
  return page
    .locator(`${selector} .monaco-list-row`)
    .evaluateAll((rows) => rows.map((row) => (row.getAttribute('aria-label') || row.textContent || '').replace(/\s+/g, ' ').trim()));
}

async function waitForTreeRows(page: Page, selector: string, expected: RegExp[], what: string): Promise<void> {
  let rows: string[] = [];
  await pollUntil(
    page,
    async () => {
      rows = await rowsOf(page, selector);
      return expected.every((pattern) => rows.some((row) => pattern.test(row))) ? true : undefined;
    },
    () => `${what}: expected rows ${expected.join(', ')}; it shows:\n  ${rows.join('\n  ') || '(nothing)'}`,
    LONG,
  );
}

async function functionTests(page: Page): Promise<void> {
  // The failing file open, so the failure's peek (expected and actual) shows in its editor.
  await quickOpen(page, 'add-negative.datagrok.json');
  await runFromPalette(page, 'Testing: Focus on Test Explorer View');
  await page.locator('.part.sidebar .test-explorer').first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await runFromPalette(page, 'Test: Run All Tests');
  await page.locator('.monaco-editor .peekview-widget', { hasText: /-6/ }).first().waitFor({ state: 'visible', timeout: LONG });
  await waitForTreeRows(page, '.part.sidebar .test-explorer', [/^add\.datagrok\.json/, /^add-negative\.datagrok\.json/, /^Demo:Add/], 'the Test Explorer after Run All');
}

async function folderSync(page: Page): Promise<void> {
  await runFromPalette(page, 'View: Close All Editors');
  await runFromPalette(page, 'View: Hide Panel');
  // The palette's Compare says the counts and opens Source Control with the entries.
  await runFromPalette(page, 'Datagrok: Compare Linked Folder with Server');
  await waitForToast(page, /conflict/i, 'after Compare Linked Folder');
  await waitForTreeRows(
    page,
    '.part.sidebar',
    [/^Conflicts/, /^Changed on the Server/, /^Changed Here/, /^cities\.csv/, /^countries\.csv/, /^distances\.py/],
    'Source Control after Compare',
  );
  // The conflict's diff: the server's copy and yours.
  await page.locator('.part.sidebar .monaco-list-row', { hasText: 'cities.csv' }).first().click();
  await page.locator('.monaco-diff-editor .view-line', { hasText: 'Lviv' }).first().waitFor({ state: 'visible', timeout: LONG });
}

async function packages(page: Page): Promise<void> {
  await runFromPalette(page, 'View: Close All Editors');
  await quickOpen(page, 'package.ts');
  await page.locator('.monaco-editor .squiggly-error').first().waitFor({ state: 'attached', timeout: LONG });
  await runFromPalette(page, 'View: Toggle Problems');
  await waitForTreeRows(page, '.markers-panel', [/Unknown header tag: descripton/, /Invalid datagrok-api import/], 'Problems of the package');
  await page.locator('.monaco-editor .view-line', { hasText: '//descripton: Says hello' }).first().click();
}

async function terminals(page: Page): Promise<void> {
  await runFromPalette(page, 'View: Close All Editors');
  await runFromPalette(page, 'Datagrok: Use Datagrok in Terminals');
  await waitForToast(page, /^New terminals in this workspace get DATAGROK_API_URL and DATAGROK_API_KEY/, 'after Use Datagrok in Terminals');
  await runFromPalette(page, 'Terminal: Create New Terminal');
  const terminal = page.locator('.terminal-wrapper.active .xterm').first();
  await terminal.waitFor({ state: 'visible', timeout: LONG });
  // The DOM renderer (settings below) writes the rows as text: the shell's prompt first, then the answer.
  const rows = terminal.locator('.xterm-rows');
  await pollUntil(
    page,
    async () => (/[#$]\s*$/m.test(await rows.innerText().catch(() => '')) ? true : undefined),
    () => 'no shell prompt in the new terminal',
    LONG,
  );
  await terminal.click();
  await page.keyboard.type('python3 -c \'import os; print(os.environ["DATAGROK_API_URL"], len(os.environ["DATAGROK_API_KEY"]), "characters of key")\'', { delay: 5 });
  await page.keyboard.press('Enter');
  await pollUntil(
    page,
    async () => (/\/api \d+ characters of key/.test(await rows.innerText().catch(() => '')) ? true : undefined),
    async () => `the terminal does not show the variables; it shows:\n${await rows.innerText().catch(() => '(nothing)')}`,
    LONG,
  );
}

async function agents(page: Page): Promise<void> {
  await runFromPalette(page, 'View: Close All Editors');
  // MCP: List Servers offers the server the extension defines; started, it reports the tools it found.
  await runFromPalette(page, 'MCP: List Servers');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Datagrok' }).first().click();
  await page
    .locator('.quick-input-widget .monaco-list-row', { hasText: /Start Server/ })
    .first()
    .click();
  // Starting it shows its output: the server's own line (the server and the workspace it reads from) and the tools.
  await page
    .locator('.view-line', { hasText: /Discovered\s\d+\stools/ })
    .first()
    .waitFor({ state: 'visible', timeout: LONG });
  // The list again, over the output: the server running.
  await runFromPalette(page, 'MCP: List Servers');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Datagrok' }).first().waitFor({ state: 'visible', timeout: LONG });
}

async function main(): Promise<number> {
  const { page, emulator } = await openUiWorkbench(
    'dgcap-',
    (workspace) => {
      copyDemoWorkspace(workspace);
      writeWorkspace(workspace);
      writePackage(workspace);
    },
    // The package has no node_modules here: TypeScript's own errors about its imports are not the picture.
    {
      'testing.automaticallyOpenPeekView': 'failureInVisibleDocument',
      'typescript.validate.enable': false,
      'terminal.integrated.gpuAcceleration': 'off',
      'chat.disableAIFeatures': false,
    },
  );
  await signInFromPalette(page, emulator);

  let failed = 0;
  for (const [name, flow] of [
    ['function-tests', functionTests],
    ['folder-sync', folderSync],
    ['packages', packages],
    ['terminals', terminals],
    ['agents', agents],
  ] as const) {
    if (process.argv.includes('--only') && !process.argv.includes(name)) continue;
    const shot = path.join(screenshotsDir, `${name}.png`);
    try {
      await page.keyboard.press('Escape');
      await flow(page);
      await page.screenshot({ path: shot });
      console.log(`ok   ui (capabilities): ${name}; ${path.relative(repoRoot, shot)}`);
    } catch (error) {
      failed++;
      await page.screenshot({ path: path.join(screenshotsDir, `${name}-failed.png`) }).catch(() => undefined);
      console.log(`FAIL ui (capabilities): ${name}\n${(error instanceof Error ? error.message : String(error)).replace(/^/gm, '     ')}`);
    }
  }
  return failed === 0 ? 0 : 1;
}

runUiCheck('capabilities', main);

// `npm run test:ui`: the extension as a user sees it in the real workbench (code-server + headless
// Chromium via playwright-core). The packaged .vsix is installed without the smoke-test driver (toasts
// visible, no test payload); the check opens the Datagrok view, signs in through the command palette
// and input boxes as a user would (a wrong key first: the key box stays open with the error), reads the
// Groups tree rendered from the emulator's demo data, runs a command from the palette, then the
// features' own buttons: a request's inline Approve (the row stays put) and Undo, the editor title
// "Datagrok: Push CSV as Table", a parameter file's CodeLens, Sign Out back to the welcome view, and a
// command from the palette while signed out that signs in first and then continues, the Get Started
// walkthrough, and a window reload (a new extension host) after which the status bar names the user
// from the remembered identity and the Runs view still lists the run made before it; last, a mount that turns the
// single-folder window into a multi-root workspace (a reload) and the editors open before it coming back. It asserts on what the page shows (tree rows, input boxes, notification toasts) and on the
// emulator's state, and saves screenshots under screenshots/ (git-ignored). Page helpers: uiPage.ts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { shortTempDir, startCodeServer } from './codeServer';
import { startEmulator } from './emulator';
import { repoRoot, resultsDir, screenshotsDir } from './paths';
import { freePort, onStop, removeAfterStop, stopAll, stopAllOnSignals } from './processes';
import { ensureHost } from './provision';
import { testSettings } from './run';
import {
  copyReadmeScreenshots,
  createDashboardFlow,
  mountReopensEditorsFlow,
  openInBrowserFlow,
  openWalkthrough,
  shareDashboardFlow,
  stepTicked,
  walkthroughSignInFlow,
} from './uiFlows';
import { approveAndUndoFlow } from './uiGroupFlows';
import { parameterFileFlow } from './uiParameterFiles';
import { pushExactCountFlow, pushPlanetsFlow, writeCountedCsv } from './uiPushFlows';
import { reloadRemembersFlow, signedOutSearchFlow, signOutFlow } from './uiSessionFlows';
import { answerInputBox, waitForProgressToClose, quickOpen, runFromPalette, STEP_TIMEOUT, waitForRows, waitForToast } from './uiPage';
import { packageVsix } from './vsix';
import { openBrowser, recordConsole, workbenchUrl } from './workbench';

interface Step {
  title: string;
  state: 'passed' | 'failed';
  durationMs: number;
  error?: string;
  screenshot?: string;
  /** Screenshots of moments within the step (an input box before it is answered). */
  moments?: string[];
}

async function main(): Promise<number> {
  const started = Date.now();
  const host = await ensureHost();
  console.log(`[ui] VS Code ${host.vscodeVersion} (code-server ${host.codeServerVersion})`);
  const stateDir = shortTempDir('dgui-');
  removeAfterStop(stateDir);
  fs.mkdirSync(screenshotsDir, { recursive: true });
  const logsDir = path.join(resultsDir, 'ui-logs');
  fs.rmSync(logsDir, { recursive: true, force: true });
  fs.mkdirSync(logsDir, { recursive: true });

  const vsix = packageVsix(path.join(stateDir, 'datagrok-vscode.vsix'));
  const emulator = await startEmulator({ logFile: path.join(logsDir, 'emulator.log') });
  const workspace = path.join(stateDir, 'workspace');
  fs.cpSync(path.join(repoRoot, 'test', 'fixtures', 'demo-workspace'), workspace, { recursive: true });
  writeCountedCsv(workspace);
  const server = await startCodeServer(host, {
    stateDir,
    port: await freePort(),
    smokeTestDriver: false,
    installVsix: [vsix],
    logFile: path.join(logsDir, 'code-server.log'),
    settings: testSettings(emulator.baseUrl),
  });
  const workbench = await openBrowser(host.chromium);
  const { page } = workbench;
  const consoleLog = recordConsole(page, path.join(logsDir, 'console.log'));
  onStop(() => new Promise<void>((resolve) => consoleLog.end(resolve)));

  const steps: Step[] = [];
  let shot = 0;
  /** A step's body gets `moment(label)`: an extra screenshot `ui-N-<label>.png` mid-step. */
  const step = async (title: string, body: (moment: (label: string) => Promise<void>) => Promise<void>): Promise<boolean> => {
    const t0 = Date.now();
    const n = ++shot;
    const screenshot = path.join(
      screenshotsDir,
      `ui-${n}-${title
        .replace(/[^a-z0-9]+/gi, '-')
        .toLowerCase()
        .slice(0, 40)}.png`,
    );
    const moments: string[] = [];
    const moment = async (label: string) => {
      const file = path.join(screenshotsDir, `ui-${n}-${label}.png`);
      await page.screenshot({ path: file });
      moments.push(file);
    };
    try {
      await body(moment);
      await page.screenshot({ path: screenshot });
      steps.push({ title, state: 'passed', durationMs: Date.now() - t0, screenshot, ...(moments.length ? { moments } : {}) });
      console.log(`ok   ui: ${title} (${Date.now() - t0} ms)`);
      return true;
    } catch (error) {
      await page.screenshot({ path: screenshot }).catch(() => undefined);
      const text = error instanceof Error ? error.message : String(error);
      steps.push({ title, state: 'failed', durationMs: Date.now() - t0, error: text, screenshot, ...(moments.length ? { moments } : {}) });
      console.log(`FAIL ui: ${title}\n${text.replace(/^/gm, '     ')}\n     screenshot: ${path.relative(repoRoot, screenshot)}`);
      return false;
    }
  };

  // The first steps build on each other (sign in, then the tree): stop at the first failure.
  const signedIn =
    (await step('the workbench loads with the Datagrok activity bar item', async () => {
      await page.goto(workbenchUrl(server.origin, workspace), { timeout: 180_000 });
      await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
      await page.locator('.activitybar [aria-label^="Datagrok"]').first().waitFor({ state: 'visible', timeout: 60_000 });
    })) &&
    (await step('opening the Datagrok view shows the sign-in welcome', async () => {
      await page.locator('.activitybar [aria-label^="Datagrok"]').first().click();
      // The container's title, and the Groups view's section among the views (Functions, Tables, …).
      await page
        .locator('.part.sidebar .composite.title', { hasText: /Datagrok/i })
        .first()
        .waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
      await page
        .locator('.part.sidebar .pane-header', { hasText: /^Groups/i })
        .first()
        .waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
      // The other views collapsed, so the Groups tree has the side bar's height for the steps below.
      for (const view of ['Functions', 'Tables', 'Dashboards', 'Files']) {
        const header = page.locator('.part.sidebar .pane-header[aria-expanded="true"]', { hasText: new RegExp(`^${view}`) }).first();
        if (await header.count()) await header.click();
      }
      await page
        .locator('.part.sidebar .welcome-view-content', { hasText: /Sign In/ })
        .first()
        .waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    })) &&
    (await step("signs in from the walkthrough's Sign In with the keyboard alone; the step is ticked only once signed in", (moment) =>
      walkthroughSignInFlow(page, emulator, moment),
    )) &&
    (await step('signs in from the command palette: a wrong key keeps the key box open with the error, the right one signs in', async (moment) => {
      await runFromPalette(page, 'Datagrok: Sign In');
      await answerInputBox(page, /server URL/i, emulator.baseUrl);
      await answerInputBox(page, /API key/i, 'wrong-key-0123456789');
      const widget = page.locator('.quick-input-widget');
      await widget.locator('.quick-input-message', { hasText: /rejected the API key \(401\).*Paste the key again/ }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
      // Still the key box of that server: the URL is not asked again.
      await widget.locator('.quick-input-title', { hasText: /Sign In to 127\.0\.0\.1:\d+/ }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
      await moment('wrong-key');
      await answerInputBox(page, /rejected the API key/, emulator.key);
      await widget.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
      await waitForToast(page, /^Signed in to 127\.0\.0\.1:\d+ as Demo User\.$/, 'after signing in');
    })) &&
    (await step('the Groups tree shows the demo data: pending requests, the user demo, Chemists', async () => {
      await waitForRows(
        page,
        [/^Pending requests$/, /^Bob\b.* — to Chemists$/, /^Carol\b.* — to Chemists$/, /^My groups$/, /^demo — .*\byou\b/, /^Chemists — admin/],
        'Groups tree',
      );
    })) &&
    (await step('runs "Datagrok: Search Groups" from the palette and shows the result', async () => {
      await runFromPalette(page, 'Datagrok: Search Groups');
      await answerInputBox(page, /group name/i, 'Bio');
      await waitForRows(page, [/^Search: Bio/, /^Biologists\b/], 'search results');
    }));

  // The feature flows only need the sign-in: each runs (and reports) on its own. Escape first closes
  // whatever a failed step may have left open (an input box, Quick Open).
  // Each ends when the command's progress notification has closed (none left running).
  const feature = async (title: string, body: (moment: (label: string) => Promise<void>) => Promise<void>) =>
    step(title, async (moment) => {
      await page.keyboard.press('Escape');
      await body(moment);
      await waitForProgressToClose(page, title);
    });
  if (signedIn) {
    await feature("approves Bob's request with the inline ✓: the row stays in place, marked; Undo in the notification removes him again", (moment) =>
      approveAndUndoFlow(page, emulator.origin, moment),
    );

    await feature('pushes planets.csv with the editor title button "Datagrok: Push CSV as Table"', (moment) => pushPlanetsFlow(page, emulator.origin, moment));

    await feature('runs add.datagrok.json from its CodeLens "▶ Run Demo:Add", shows the sum beside it and in the Runs view', async (moment) => {
      await quickOpen(page, 'add.datagrok.json');
      await page.locator('.codelens-decoration a', { hasText: 'Run Demo:Add' }).first().click({ timeout: STEP_TIMEOUT });
      await waitForToast(page, /^Demo:Add → 5$/, 'after running Demo:Add (a: 2, b: 3)');
      // The result opens beside the file, as a read-only document named after the function.
      await page.locator('.tabs-container .tab', { hasText: 'Demo:Add — result' }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
      await moment('result-beside');
      const runs = page.locator('.part.sidebar .pane-header').filter({ hasText: /^Runs/ }).first();
      if ((await runs.getAttribute('aria-expanded')) !== 'true') await runs.click();
      await waitForRows(page, [/^Demo:Add.*add\.datagrok\.json/], 'Runs view after the run');
      await moment('runs-view');
      await runs.click();
      await page.keyboard.press('Escape');
    });

    await feature("a parameter file's mistakes are underlined and in Problems before running; completion offers the missing input", (moment) =>
      parameterFileFlow(page, workspace, moment),
    );

    await feature('the explorer views list the server: functions by package, tables, dashboards, file shares', async () => {
      // Groups collapsed, the four explorer views opened: each shows what the emulator has.
      const headers = page.locator('.part.sidebar .pane-header');
      await headers
        .filter({ hasText: /^Groups/ })
        .first()
        .click();
      for (const view of ['Functions', 'Tables', 'Dashboards', 'Files']) {
        const header = headers.filter({ hasText: new RegExp(`^${view}`) }).first();
        if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
      }
      await waitForRows(page, [/^Demo\b/, /^Chem\b/, /^demog\b/, /^World overview\b/, /^System:DemoFiles\b/], 'explorer views');
      // Back as the steps below expect: Groups open.
      await headers
        .filter({ hasText: /^Groups/ })
        .first()
        .click();
    });

    // Rough-edge flows (uiFlows.ts): Open in Browser reaches the emulator's page; Share Dashboard's counted steps.
    await feature('"Open in Browser" after a push opens the emulator\'s page of the table', () => openInBrowserFlow(page));
    await feature('shares a dashboard in three counted steps, not offering the user themself', (moment) => shareDashboardFlow(page, emulator.origin, moment));
    await feature('creates a dashboard in three counted steps: a table ticked in the searched list, a name, no layout', () => createDashboardFlow(page, emulator.origin));
    // After the flows that use planets.csv's tab: opening counted.csv from Quick Open takes the preview tab.
    await feature('pushes a file larger than the sample: the name box estimates its rows, the notification says the exact count', () => pushExactCountFlow(page));

    await feature('signs out from the palette after a modal confirm: the Groups view shows the welcome with "Sign In"', () => signOutFlow(page));

    await feature('signed out, "Datagrok: Search Groups" is in the palette, offers Sign In first and then searches', (moment) => signedOutSearchFlow(page, emulator, moment));

    await feature('the "Get Started with Datagrok" walkthrough: four steps; push and run ticked after the real push and ▶ run, the file share not yet', async (moment) => {
      const walkthrough = await openWalkthrough(page);
      for (const title of ['Sign in to a Datagrok server', 'Push a CSV as a table', 'Run a function from a parameter file', 'Open a file share']) {
        await walkthrough.locator('.getting-started-step', { hasText: title }).first().waitFor({ state: 'attached', timeout: STEP_TIMEOUT });
      }
      await moment('walkthrough');
      const ticks: Record<string, boolean> = {};
      for (const id of ['signIn', 'pushCsv', 'runFunction', 'openFileShare']) ticks[id] = await stepTicked(walkthrough, id);
      const expected = { signIn: true, pushCsv: true, runFunction: true, openFileShare: false };
      if (JSON.stringify(ticks) !== JSON.stringify(expected)) throw new Error(`the walkthrough's ticks are ${JSON.stringify(ticks)}, expected ${JSON.stringify(expected)}`);
      await runFromPalette(page, 'View: Close Editor');
    });

    await feature('after a window reload the status bar names the user at once, from the remembered identity (no user request), and the Runs view still lists the run', () =>
      reloadRemembersFlow(page, emulator.origin, workbenchUrl(server.origin, workspace)),
    );

    // Last: it turns the window into a multi-root workspace (a reload).
    await feature('mounting a connector into this single-folder window reloads it; the editors open before come back in their groups', (moment) =>
      mountReopensEditorsFlow(page, moment),
    );
  }

  copyReadmeScreenshots(steps);
  const passed = steps.filter((s) => s.state === 'passed').length;
  const failed = steps.length - passed;
  fs.writeFileSync(
    path.join(resultsDir, 'ui.json'),
    `${JSON.stringify({ vscodeVersion: host.vscodeVersion, durationMs: Date.now() - started, passed, failed, steps }, null, 2)}\n`,
  );
  console.log(`${passed} passed, ${failed} failed`);
  console.log(`[ui] ${failed === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${path.relative(repoRoot, screenshotsDir)}/`);
  return failed === 0 ? 0 : 1;
}

stopAllOnSignals();
let exitCode = 1;
main()
  .then((code) => {
    exitCode = code;
  })
  .catch((error: unknown) => console.error(`[ui] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`))
  .finally(async () => {
    await stopAll();
    process.exit(exitCode);
  });

// What every UI check but the main one (ui.ts) starts with and ends with: the packaged .vsix installed in a
// code-server without the smoke-test driver (toasts visible, no test payload), the emulator, a workspace,
// the workbench open in headless Chromium; sign-in through the palette as a user signs in; and the run's
// end (every process stopped, the exit code).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { shortTempDir, startCodeServer } from './codeServer';
import { type RunningEmulator, startEmulator } from './emulator';
import { repoRoot, resultsDir, screenshotsDir } from './paths';
import { freePort, removeAfterStop, stopAll, stopAllOnSignals } from './processes';
import { ensureHost } from './provision';
import { testSettings } from './run';
import { answerInputBox, runFromPalette, waitForToast } from './uiPage';
import { packageVsix } from './vsix';
import { openBrowser, workbenchUrl } from './workbench';

export interface UiWorkbench {
  readonly page: Page;
  readonly emulator: RunningEmulator;
  /** The workspace folder the window has open. */
  readonly workspace: string;
}

/** A copy of the demo workspace (test/fixtures/demo-workspace): what most checks start from. */
export function copyDemoWorkspace(workspace: string): void {
  fs.cpSync(path.join(repoRoot, 'test', 'fixtures', 'demo-workspace'), workspace, { recursive: true });
}

/**
 * Packs the .vsix, starts the emulator and a code-server with it installed, lets `prepare` write the
 * workspace (the emulator already answers), opens the workbench on it and waits for the Datagrok activity
 * bar item.
 */
export async function openUiWorkbench(
  prefix: string,
  prepare: (workspace: string, emulator: RunningEmulator) => void | Promise<void> = copyDemoWorkspace,
  settings: Record<string, unknown> = {},
): Promise<UiWorkbench> {
  const host = await ensureHost();
  const stateDir = shortTempDir(prefix);
  removeAfterStop(stateDir);
  fs.mkdirSync(screenshotsDir, { recursive: true });
  fs.mkdirSync(resultsDir, { recursive: true });
  const vsix = packageVsix(path.join(stateDir, 'datagrok-vscode.vsix'));
  const emulator = await startEmulator({ logFile: path.join(stateDir, 'emulator.log') });
  const workspace = path.join(stateDir, 'workspace');
  await prepare(workspace, emulator);
  const server = await startCodeServer(host, {
    stateDir,
    port: await freePort(),
    smokeTestDriver: false,
    installVsix: [vsix],
    logFile: path.join(stateDir, 'code-server.log'),
    settings: { ...testSettings(emulator.baseUrl), ...settings },
  });
  const { page } = await openBrowser(host.chromium);
  await page.goto(workbenchUrl(server.origin, workspace), { timeout: 180_000 });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 120_000 });
  await page.locator('.activitybar [aria-label^="Datagrok"]').first().waitFor({ state: 'visible', timeout: 60_000 });
  return { page, emulator, workspace };
}

/** Datagrok: Sign In from the palette, the URL and the key typed, until the notification says who. */
export async function signInFromPalette(page: Page, emulator: { baseUrl: string; key: string }): Promise<void> {
  await runFromPalette(page, 'Datagrok: Sign In');
  await answerInputBox(page, /server URL/i, emulator.baseUrl);
  await answerInputBox(page, /API key/i, emulator.key);
  await waitForToast(page, /^Signed in to 127\.0\.0\.1:\d+ as Demo User\.$/, 'after signing in');
}

/** Runs a UI check's `main` to its end: a thrown error is a failure, every process started is stopped. */
export function runUiCheck(label: string, main: () => Promise<number>): void {
  stopAllOnSignals();
  let exitCode = 1;
  main()
    .then((code) => {
      exitCode = code;
    })
    .catch((error: unknown) => console.error(`FAIL ui (${label}): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`))
    .finally(async () => {
      await stopAll();
      process.exit(exitCode);
    });
}

// `node out/test/host/uiPrompts.js` (after `npm run -s compile && npm run -s build`): palette commands whose
// first prompt lists what the server has, on a slow server, as a user sees them in the real workbench
// (code-server + headless Chromium, the packaged .vsix). After signing in through the palette, every answer
// of the emulator is delayed (`latencyMs`, default 4 s: a loaded server); each command is run from the
// palette and its prompt must be on screen, busy or saying what it loads, before the server's answer is
// in (the prompt is looked at again once the choices are there). Prints, per command, the time from
// Enter in the palette to its first prompt and to its choices (figures, not assertions); a screenshot of
// each loading prompt goes to screenshots/prompt-<n>.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { shortTempDir, startCodeServer } from './codeServer';
import { startEmulator } from './emulator';
import { repoRoot, resultsDir, screenshotsDir } from './paths';
import { freePort, removeAfterStop, stopAll, stopAllOnSignals } from './processes';
import { ensureHost } from './provision';
import { testSettings } from './run';
import { answerInputBox, pollUntil, runFromPalette, STEP_TIMEOUT, waitForToast } from './uiPage';
import { packageVsix } from './vsix';
import { openBrowser, workbenchUrl } from './workbench';

interface Prompt {
  /** The command's title in the palette. */
  command: string;
  /** The prompt's title (the quick input's title line). */
  title: RegExp;
  /** A choice that the server's answer brings. */
  loaded: RegExp;
}

const PROMPTS: Prompt[] = [
  { command: 'Datagrok: Open Connector File', title: /Open Connector File/, loaded: /System:DemoFiles/ },
  { command: 'Datagrok: Approve Membership Request', title: /Approve Membership Request/, loaded: /Bob/ },
  { command: 'Datagrok: New Parameter File', title: /New Parameter File/, loaded: /Demo:Add/ },
  { command: 'Datagrok: Link Folder to Connector Folder…', title: /Link .*: connector/, loaded: /System:DemoFiles/ },
  { command: 'Datagrok: Create Dashboard', title: /Create Dashboard: tables/, loaded: /demog/ },
];

interface Seen {
  command: string;
  promptMs?: number;
  choicesMs?: number;
  /** What the prompt showed when it appeared: its placeholder, and whether it was busy. */
  placeholder?: string;
  busy?: boolean;
  error?: string;
}

async function postJson(url: string, body: unknown): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`POST ${url}: HTTP ${response.status}`);
}

/** Runs the command and times its prompt; the prompt must show before the delayed answer (busy, or "Loading…"). */
async function timePrompt(page: Page, p: Prompt, n: number, latencyMs: number): Promise<Seen> {
  const widget = page.locator('.quick-input-widget');
  const seen: Seen = { command: p.command };
  await runFromPalette(page, p.command);
  const start = Date.now();
  // Link Folder asks for the local folder first (VS Code's own dialog, a quick input in the browser): the workspace's folder.
  if (/Link Folder/.test(p.command)) {
    await widget.locator('.quick-input-title', { hasText: /Link a local folder/ }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await page.keyboard.press('Enter');
  }
  const title = widget.locator('.quick-input-title', { hasText: p.title }).first();
  await title.waitFor({ state: 'visible', timeout: latencyMs * 6 + STEP_TIMEOUT });
  seen.promptMs = Date.now() - start;
  const input = widget.locator('input.input').first();
  seen.placeholder = (await input.getAttribute('placeholder')) ?? '';
  const rows = widget.locator('.monaco-list-row', { hasText: p.loaded });
  const loadedAlready = (await rows.count()) > 0;
  // VS Code draws the busy bar 800 ms after `busy` is set; the placeholder says it at once.
  const busyBar = widget.locator('.monaco-progress-container.active');
  const busyAt = Date.now() + 1500;
  while (!seen.busy && Date.now() < busyAt && (await rows.count()) === 0) {
    seen.busy = (await busyBar.count()) > 0;
    if (!seen.busy) await page.waitForTimeout(100);
  }
  await page.screenshot({ path: path.join(screenshotsDir, `prompt-${n}.png`) });
  if (loadedAlready) seen.error = 'the choices were already there when the prompt showed: the command waited for the server before showing it';
  else if (!seen.busy && !/^Loading .* from /.test(seen.placeholder)) seen.error = `the prompt showed neither busy nor loading (placeholder "${seen.placeholder}")`;
  await rows.first().waitFor({ state: 'visible', timeout: latencyMs * 6 + STEP_TIMEOUT });
  seen.choicesMs = Date.now() - start;
  if (/Link Folder/.test(p.command)) await linkFolderStep(page, seen);
  await page.keyboard.press('Escape');
  await widget.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
  return seen;
}

/**
 * Link Folder's second step, on System:DemoFiles for the workspace folder "workspace": it shows at once,
 * loading the connector's folders, then offers "Create 'workspace'" (the server has no such folder) and the
 * folders it has ("geo").
 */
async function linkFolderStep(page: Page, seen: Seen): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('input.input').first().fill('System:DemoFiles');
  await widget.locator('.monaco-list-row', { hasText: 'System:DemoFiles' }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await page.keyboard.press('Enter');
  await widget.locator('.quick-input-title', { hasText: /folder within System:DemoFiles/ }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  const placeholder = (await widget.locator('input.input').first().getAttribute('placeholder')) ?? '';
  if (!/^Loading the folders of System:DemoFiles from /.test(placeholder)) seen.error = `the folder step did not show at once, loading (placeholder "${placeholder}")`;
  await widget.locator('.monaco-list-row', { hasText: "Create 'workspace'" }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  const rows = () => widget.locator('.monaco-list-row').allInnerTexts();
  await pollUntil(
    page,
    async () => ((await rows()).some((t) => /\bgeo\b/.test(t)) ? true : undefined),
    async () => `the folder step does not list "geo"; it shows: ${(await rows()).join(' | ')}`,
    60_000,
  );
  await page.screenshot({ path: path.join(screenshotsDir, 'prompt-link-folder.png') });
}

async function main(): Promise<number> {
  const latencyMs = Number(process.env['DATAGROK_UI_LATENCY_MS'] ?? 4000);
  const host = await ensureHost();
  const stateDir = shortTempDir('dgpr-');
  removeAfterStop(stateDir);
  fs.mkdirSync(screenshotsDir, { recursive: true });
  fs.mkdirSync(resultsDir, { recursive: true });
  const vsix = packageVsix(path.join(stateDir, 'datagrok-vscode.vsix'));
  const emulator = await startEmulator({ logFile: path.join(stateDir, 'emulator.log') });
  const workspace = path.join(stateDir, 'workspace');
  fs.cpSync(path.join(repoRoot, 'test', 'fixtures', 'demo-workspace'), workspace, { recursive: true });
  const server = await startCodeServer(host, {
    stateDir,
    port: await freePort(),
    smokeTestDriver: false,
    installVsix: [vsix],
    logFile: path.join(stateDir, 'code-server.log'),
    settings: testSettings(emulator.baseUrl),
  });
  const { page } = await openBrowser(host.chromium);
  await page.goto(workbenchUrl(server.origin, workspace), { timeout: 180_000 });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 120_000 });
  await page.locator('.activitybar [aria-label^="Datagrok"]').first().waitFor({ state: 'visible', timeout: 60_000 });
  await runFromPalette(page, 'Datagrok: Sign In');
  await answerInputBox(page, /server URL/i, emulator.baseUrl);
  await answerInputBox(page, /API key/i, emulator.key);
  await waitForToast(page, /^Signed in to 127\.0\.0\.1:\d+ as Demo User\.$/, 'after signing in');
  await postJson(`${emulator.origin}/__emulator/config`, { latencyMs });
  const results: Seen[] = [];
  // DATAGROK_UI_ONLY: a pattern of the commands to check (all by default).
  const only = new RegExp(process.env['DATAGROK_UI_ONLY'] ?? '.');
  for (const [i, p] of PROMPTS.entries()) {
    if (!only.test(p.command)) continue;
    const seen = await timePrompt(page, p, i + 1, latencyMs).catch(async (error: Error) => {
      await page.keyboard.press('Escape');
      return { command: p.command, error: error.message.split('\n')[0] } as Seen;
    });
    results.push(seen);
    const figures = seen.promptMs === undefined ? '' : `first prompt ${seen.promptMs} ms, choices ${seen.choicesMs ?? '—'} ms; "${seen.placeholder}"${seen.busy ? ', busy' : ''}`;
    console.log(`${seen.error ? 'FAIL' : 'ok  '} ${p.command}: ${figures}${seen.error ? ` — ${seen.error}` : ''}`);
  }
  fs.writeFileSync(path.join(resultsDir, 'ui-prompts.json'), JSON.stringify({ latencyMs, results }, null, 2));
  const failed = results.filter((r) => r.error).length;
  console.log(
    `${failed ? 'FAIL' : 'ok  '} ui (prompts, every answer delayed ${latencyMs} ms): ${results.length - failed} of ${results.length} showed their prompt before the server's answer`,
  );
  return failed ? 1 : 0;
}

stopAllOnSignals();
let exitCode = 1;
main()
  .then((code) => {
    exitCode = code;
  })
  .catch((error: unknown) => console.error(`FAIL ui (prompts): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`))
  .finally(async () => {
    await stopAll();
    process.exit(exitCode);
  });

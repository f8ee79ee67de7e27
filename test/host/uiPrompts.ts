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
import { resultsDir, screenshotsDir } from './paths';
import { pollUntil, runFromPalette, STEP_TIMEOUT } from './uiPage';
import { openUiWorkbench, runUiCheck, signInFromPalette } from './uiWorkbench';

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
  const { page, emulator } = await openUiWorkbench('dgpr-');
  await signInFromPalette(page, emulator);
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

runUiCheck('prompts', main);

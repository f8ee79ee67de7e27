// Headless Chromium on the code-server workbench, through playwright-core and Debian's chromium.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { onStop } from './processes';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--disable-features=Translate,MediaRouter,OptimizationHints',
];

export interface Workbench {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Launches a fresh headless Chromium (own temp profile) with one page of the given size. */
export async function openBrowser(executablePath: string, viewport = { width: 1400, height: 900 }): Promise<Workbench> {
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await browser.close().catch(() => undefined);
  };
  onStop(close);
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  return { browser, context, page, close };
}

/**
 * URL of the workbench on a folder, or on a `.code-workspace` file (a multi-root window, where adding a
 * folder does not restart the extension host), with an optional development payload (URL-encoded JSON pairs).
 */
export function workbenchUrl(origin: string, folder: string, payload?: Array<[string, string]>): string {
  const kind = folder.endsWith('.code-workspace') ? 'workspace' : 'folder';
  let url = `${origin}/?${kind}=${encodeURIComponent(folder)}`;
  if (payload) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return url;
}

/**
 * A console message of the (remote) extension host as the workbench forwards it to the page:
 * "%c INFO color: #33f <message>" (also WARN, ERR, DEBUG); undefined for the workbench's own messages.
 */
export function extensionHostMessage(text: string): { level: string; text: string } | undefined {
  const match = /^%c\s*(INFO|WARN|ERR|DEBUG|TRACE)\s+color:\s*#\w+;?\s?([\s\S]*)$/.exec(text);
  return match ? { level: match[1], text: match[2] } : undefined;
}

/** Appends every page console message to a log file; returns the stream for closing. */
export function recordConsole(page: Page, file: string, onMessage?: (text: string, type: string) => void): fs.WriteStream {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const out = fs.createWriteStream(file);
  page.on('console', (message) => {
    const text = message.text();
    if (!out.writableEnded) out.write(`[${message.type()}] ${text}\n`);
    onMessage?.(text, message.type());
  });
  page.on('pageerror', (error) => !out.writableEnded && out.write(`[pageerror] ${error.stack ?? error.message}\n`));
  return out;
}

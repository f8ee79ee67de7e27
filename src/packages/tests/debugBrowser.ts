// Debugging package tests: `grok test --gui --debug` opens the browser that runs them (puppeteer's
// Chrome, visible, the test runner stopping at a `debugger` before each test) on a debugging port that
// VS Code's JavaScript debugger attaches to. grok gives puppeteer no way to choose the port, so the
// browser is started through a small script (PUPPETEER_EXECUTABLE_PATH) that adds one; Chrome takes
// the last `--remote-debugging-port` it is given, and puppeteer reads the port Chrome reports. The
// attach maps the package's webpack sources to the folder (js-debug's defaults with webRoot), so
// breakpoints in its TypeScript bind.
import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { badInput } from '../../api/errors';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The Chrome puppeteer would start for grok (its own download, unless PUPPETEER_EXECUTABLE_PATH says). */
function puppeteerChrome(grok: string, env: NodeJS.ProcessEnv): Promise<string> {
  const tools = path.dirname(path.dirname(realpathSync(grok)));
  return new Promise((resolve, reject) => {
    execFile('node', ['-e', "process.stdout.write(require('puppeteer').executablePath())"], { cwd: tools, env, timeout: 20000 }, (error, stdout) =>
      error || !stdout ? reject(error ?? new Error('no path')) : resolve(stdout.trim()),
    );
  });
}

export interface DebugBrowser {
  /** What grok's environment gains: the browser behind the script that adds the port. */
  env: Record<string, string>;
  /** The attach configuration for VS Code's JavaScript debugger. */
  attach: { type: 'chrome'; request: 'attach'; name: string; port: number; webRoot: string; timeout: number };
}

/** Prepares the browser of a debug run of the package in `packageDir` (the script goes in `home`). */
export async function debugBrowser(grok: string, packageDir: string, home: string, env: NodeJS.ProcessEnv): Promise<DebugBrowser> {
  if (process.platform === 'win32')
    throw badInput('Debugging package tests from VS Code works on macOS and Linux for now: on Windows run `grok test --gui --debug` in a terminal and attach from there.');
  let chrome = env.PUPPETEER_EXECUTABLE_PATH;
  if (!chrome) {
    try {
      chrome = await puppeteerChrome(grok, env);
    } catch {
      throw badInput(
        "Could not find the browser grok test uses (puppeteer's Chrome): run `npx puppeteer browsers install chrome` in the package folder, or set PUPPETEER_EXECUTABLE_PATH, then debug again.",
      );
    }
  }
  const port = await freePort();
  const script = path.join(home, 'chrome-with-debugging-port.sh');
  await writeFile(script, `#!/bin/sh\nexec ${JSON.stringify(chrome)} "$@" --remote-debugging-port=${port}\n`, { mode: 0o700 });
  return {
    env: { PUPPETEER_EXECUTABLE_PATH: script },
    attach: { type: 'chrome', request: 'attach', name: `Datagrok package tests (${path.basename(packageDir)})`, port, webRoot: packageDir, timeout: 120000 },
  };
}

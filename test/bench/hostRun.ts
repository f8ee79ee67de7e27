// What the real-host benchmarks share: the production extension as the .vsix ships it, and one fresh
// window of code-server's workbench that loads a runner (extensionTestsPath) into a new extension host
// and waits until the runner has finished (the smoke-test driver's codeAutomationExit).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type CodeServer, remoteUri } from '../host/codeServer';
import { repoRoot } from '../host/paths';
import { onStop } from '../host/processes';
import { listVsixFiles } from '../host/vsix';
import { recordConsole, type Workbench, workbenchUrl } from '../host/workbench';

/** What the .vsix ships, with the production bundle built into its dist/ (the repository's dist/ untouched). */
export function productionExtension(dir: string): void {
  for (const file of listVsixFiles()) {
    if (file.startsWith('dist/')) continue;
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, file), path.join(dir, file));
  }
  execFileSync(process.execPath, [path.join(repoRoot, 'esbuild.mjs'), '--production', '--outdir', path.join(dir, 'dist')], { cwd: repoRoot, stdio: 'ignore' });
}

export interface WindowRun {
  /** The folder the window opens. */
  workspace: string;
  /** The extension under development (a local folder). */
  extension: string;
  /** The runner's compiled file (exports run()). */
  runner: string;
  /** The extension host's environment additions. */
  environment: Record<string, string>;
  /** Where the page's console goes. */
  consoleFile: string;
  timeoutMs: number;
}

/** Opens one window on `run.workspace` with the runner in its extension host; resolves when the runner is done. */
export async function runInWindow(server: CodeServer, workbench: Workbench, run: WindowRun): Promise<void> {
  const payload: Array<[string, string]> = [
    ['extensionDevelopmentPath', remoteUri(server, run.extension)],
    ['extensionTestsPath', remoteUri(server, run.runner)],
    ['extensionEnvironment', JSON.stringify(run.environment)],
    ['skipWelcome', 'true'],
    ['skipReleaseNotes', 'true'],
  ];
  const context = await workbench.browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    const consoleLog = recordConsole(page, run.consoleFile);
    onStop(() => new Promise<void>((resolve) => consoleLog.end(resolve)));
    const exited = new Promise<void>((resolve, reject) => {
      void page.exposeFunction('codeAutomationExit', () => resolve());
      setTimeout(() => reject(new Error(`the runner did not finish within ${run.timeoutMs / 1000} s`)), run.timeoutMs).unref();
    });
    await page.goto(workbenchUrl(server.origin, run.workspace, payload), { timeout: 60_000 });
    await exited;
    consoleLog.end();
  } finally {
    await context.close().catch(() => undefined);
  }
}

// The grok CLI as package tests run it: the package's own (node_modules/.bin/grok, as `npm install
// --save-dev datagrok-tools` puts it), else one on the PATH; signed in to the server VS Code is signed in
// to through a grok config of its own (a private temporary home: ~/.grok/config.yaml with that server and
// its key, 0600, removed after the run), so the key is never on a command line nor in the user's config;
// started in a process group of its own so that Cancel stops it with everything it started (the Node
// worker, the browser).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { writePrivateFile } from '../../core/privateFile';

const WINDOWS = process.platform === 'win32';
/** The alias of the server in the run's own grok config (`--host=vscode`). */
export const GROK_ALIAS = 'vscode';

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The grok to run for a package: its own, else the PATH's; undefined when neither exists. */
export function findGrok(packageDir: string, pathVariable = process.env.PATH ?? ''): string | undefined {
  const names = WINDOWS ? ['grok.cmd', 'grok.exe', 'grok'] : ['grok'];
  for (const name of names) {
    const own = path.join(packageDir, 'node_modules', '.bin', name);
    if (existsSync(own)) return own;
  }
  for (const dir of pathVariable.split(path.delimiter).filter(Boolean)) for (const name of names) if (isFile(path.join(dir, name))) return path.join(dir, name);
  return undefined;
}

export const INSTALL_GROK =
  'grok (datagrok-tools) is not installed: run `npm install --save-dev datagrok-tools` in the package folder (or `npm install -g datagrok-tools`), then run the tests again.';

/** A home folder with a grok config naming only the signed-in server; `dispose` removes it. */
export async function privateGrokHome(url: string, key: string): Promise<{ home: string; dispose(): Promise<void> }> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'datagrok-grok-'));
  const yaml = `default: ${GROK_ALIAS}\nservers:\n  ${GROK_ALIAS}:\n    url: ${JSON.stringify(url)}\n    key: ${JSON.stringify(key)}\n`;
  await writePrivateFile(path.join(home, '.grok', 'config.yaml'), yaml);
  return { home, dispose: () => rm(home, { recursive: true, force: true }) };
}

export interface GrokRun {
  /** Resolves with the exit code (null when a signal ended it). */
  readonly done: Promise<number | null>;
  /** Stops the CLI and whatever it started (its process group). */
  kill(): void;
}

function quoteForCmd(arg: string): string {
  return /[\s"&|<>^()%!]/.test(arg) ? `"${arg.replace(/"/g, '""')}"` : arg;
}

/**
 * grok's environment with `home` as its home. What lives under the user's own home stays found there:
 * npm's cache (a build), puppeteer's and Playwright's browsers (the browser pass).
 */
export function grokEnvironment(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, USERPROFILE: home, FORCE_COLOR: '1' };
  const own = os.homedir();
  env.npm_config_cache ??= path.join(own, '.npm');
  env.PUPPETEER_CACHE_DIR ??= path.join(own, '.cache', 'puppeteer');
  env.PLAYWRIGHT_BROWSERS_PATH ??= process.platform === 'darwin' ? path.join(own, 'Library', 'Caches', 'ms-playwright') : path.join(own, '.cache', 'ms-playwright');
  return env;
}

/** Starts grok in `cwd` with the given environment; output is handed over as it arrives. */
export function startGrok(grok: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, onOutput: (text: string) => void): GrokRun {
  let child: ChildProcess;
  if (WINDOWS) child = spawn([grok, ...args].map(quoteForCmd).join(' '), { cwd, env, shell: true, windowsHide: true });
  else child = spawn(grok, args, { cwd, env, detached: true });
  child.stdout?.setEncoding('utf8').on('data', onOutput);
  child.stderr?.setEncoding('utf8').on('data', onOutput);
  const done = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  const kill = () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    try {
      if (WINDOWS) spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { windowsHide: true });
      else process.kill(-child.pid, 'SIGTERM');
    } catch {
      child.kill();
    }
  };
  return { done, kill };
}

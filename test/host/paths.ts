// Where the host launcher finds the repository, the pinned tool versions and its cache.
import * as os from 'node:os';
import * as path from 'node:path';

/** The repository root: this file compiles to out/test/host/. */
export const repoRoot = path.resolve(__dirname, '..', '..', '..');

export const CODE_SERVER_VERSION = '4.139.1';

/** Provisioned tools live outside the work tree so that clones and `git clean` keep them. */
export function cacheDir(): string {
  const fromEnv = process.env['DATAGROK_VSCODE_TEST_CACHE'];
  if (fromEnv) return path.resolve(fromEnv);
  const xdg = process.env['XDG_CACHE_HOME'] || path.join(os.homedir(), '.cache');
  return path.join(xdg, 'datagrok-vscode-test');
}

export const resultsDir = path.join(repoRoot, 'test-results');
export const screenshotsDir = path.join(repoRoot, 'screenshots');

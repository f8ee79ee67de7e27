// Packages the extension as a .vsix with vsce (production bundle via vscode:prepublish).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './paths';

/**
 * `vsce package --no-dependencies --out FILE`, run under the running Node (vsce 3 fits Node 20). Relative links
 * in README.md are kept as they are: vsce refuses them without a repository URL, and this package is local.
 */
export function packageVsix(outFile: string): string {
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  const result = vsce(['package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', outFile]);
  if (result.status !== 0 || !fs.existsSync(outFile)) {
    throw new Error(`vsce package failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
  }
  return outFile;
}

/** `vsce ls --no-dependencies`: the files a .vsix would hold (as of now on disk; no prepublish build). */
export function listVsixFiles(): string[] {
  const result = vsce(['ls', '--no-dependencies']);
  if (result.status !== 0) throw new Error(`vsce ls failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
  return result.stdout.split(/\r?\n/).filter((line) => line.trim() !== '');
}

/** Runs the repository's vsce under the running Node (as `npm run package` does) in the repository root. */
function vsce(args: string[]) {
  const cli = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  return spawnSync(process.execPath, [cli, ...args], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
}

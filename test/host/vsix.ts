// Packages the extension as a .vsix with vsce (production bundle via vscode:prepublish).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './paths';
import { findNode24 } from './provision';

/**
 * `vsce package --no-dependencies --out FILE`, run under Node 24 (vsce 4 needs Node 22+). Relative links
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

/** Runs the repository's vsce under Node 24 in the repository root. */
function vsce(args: string[]) {
  const { node } = findNode24();
  const cli = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env['PATH'] ?? ''}` };
  return spawnSync(node, [cli, ...args], { cwd: repoRoot, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
}

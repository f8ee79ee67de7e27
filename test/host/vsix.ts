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
  const { node } = findNode24();
  const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env['PATH'] ?? ''}` };
  const result = spawnSync(node, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', outFile], {
    cwd: repoRoot,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 180_000,
  });
  if (result.status !== 0 || !fs.existsSync(outFile)) {
    throw new Error(`vsce package failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
  }
  return outFile;
}

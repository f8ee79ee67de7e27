// A package's own build: its `build` script, run with the package manager its lockfile names (the nearest
// lockfile up from the package, so a pnpm workspace's root counts), no shell of our choosing. The output is
// kept (its last 64 KB) to show when the build fails.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { PublishError } from './errors';

export type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun';

const LOCKFILES: Array<[string, PackageManager]> = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['pnpm-workspace.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
  ['package-lock.json', 'npm'],
];

/** The package manager of the nearest lockfile at or above `folder`; npm when there is none. */
export function packageManagerOf(folder: string): PackageManager {
  for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
    for (const [file, pm] of LOCKFILES) if (existsSync(path.join(dir, file))) return pm;
    if (path.dirname(dir) === dir) return 'npm';
  }
}

export interface BuildOptions {
  onOutput?: (text: string) => void;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

const KEEP = 64 * 1024;

/** Runs `<pm> run build` in the package; throws a PublishError with the output when it fails. */
export function runBuild(folder: string, scripts: Record<string, string>, options: BuildOptions = {}): Promise<{ command: string; output: string }> {
  if (typeof scripts.build !== 'string') {
    return Promise.reject(new PublishError('build', `${path.join(folder, 'package.json')} has no "build" script: add one (such as "grok build") or publish without building.`));
  }
  const pm = packageManagerOf(folder);
  const command = `${pm} run build`;
  return new Promise((resolve, reject) => {
    let output = '';
    const keep = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output = (output + text).slice(-KEEP);
      options.onOutput?.(text);
    };
    // Windows runs npm, pnpm and yarn through their .cmd shims, which only a shell starts.
    const child = spawn(pm, ['run', 'build'], { cwd: folder, env: options.env ?? process.env, shell: process.platform === 'win32', signal: options.signal, windowsHide: true });
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.name === 'AbortError') reject(e);
      else reject(new PublishError('build', `${command} could not start in ${folder}: ${e.code === 'ENOENT' ? `${pm} is not installed or not on the PATH` : e.message}.`, output));
    });
    child.on('close', (code, sig) => {
      if (code === 0) resolve({ command, output });
      else if (!options.signal?.aborted) {
        const how = code === null ? `was stopped (${sig})` : `failed with exit code ${code}`;
        reject(new PublishError('build', `The build (${command} in ${folder}) ${how}: nothing was published. Fix what its output says and publish again.`, output));
      }
    });
  });
}

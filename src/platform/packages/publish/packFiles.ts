// The files `grok publish` (datagrok-tools 6.7.5 publish.js `processPackage`) puts in a package's archive:
// what ignore-walk lists with `.npmignore`, `.gitignore` and `.grokignore` (npm's own walker, as grok uses
// it), then for a bundled package every file of `dist/` and of `src/` only `src/package*`; never dot files
// and folders, `node_modules`, `upload.keys.json`. A `connections/*.json` has its `${VAR}` placeholders
// filled from the environment: a missing variable stops the publish before anything is uploaded.
import { existsSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ignoreWalk } from '../../lazyModules';
import { PublishError } from './errors';

export interface PackEntry {
  /** Relative to the package, '/'-separated: the name in the archive. */
  name: string;
  /** The file on disk. */
  file: string;
  /** The modification time as grok records it (`Date.toUTCString()`), for the debug upload's timestamps. */
  mtime: string;
  /** The bytes to send instead of the file's (a connection with its placeholders filled). */
  content?: Buffer;
}

export interface PackList {
  entries: PackEntry[];
  /** A bundled package (webpack or rspack, or `grok build`): it ships `dist/`. */
  bundled: boolean;
}

/** Whether grok treats the package as bundled (publish.js `isWebpack`). */
export function isBundled(folder: string): boolean {
  return ['webpack.config.js', 'rspack.config.js', 'dist/package.js', 'src/package.ts'].some((f) => existsSync(path.join(folder, f)));
}

const PLACEHOLDER = /\$\{(\w*)\}/g;

/** A connection's text with `${VAR}` filled; the names of the variables the environment lacks. */
export function fillPlaceholders(text: string, env: NodeJS.ProcessEnv): { text: string; missing: string[] } {
  const missing: string[] = [];
  const filled = text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = env[name];
    if (!value) {
      missing.push(name);
      return whole;
    }
    return value;
  });
  return { text: filled, missing };
}

/** The archive's files, in grok's order; throws when a bundled package has no dist/package.js or a connection's variable is missing. */
export async function packList(folder: string, env: NodeJS.ProcessEnv = process.env): Promise<PackList> {
  const listed = await ignoreWalk()({ path: folder, ignoreFiles: ['.npmignore', '.gitignore', '.grokignore'], includeEmpty: false, follow: true });
  const bundled = isBundled(folder);
  if (bundled) {
    if (!existsSync(path.join(folder, 'dist', 'package.js'))) {
      throw new PublishError('pack', `${path.join(folder, 'dist', 'package.js')} does not exist: build the package first (publish with build on, or run its build script).`);
    }
    const dist = await ignoreWalk()({ path: path.join(folder, 'dist'), ignoreFiles: [], includeEmpty: false, follow: true });
    listed.push(...dist.map((f) => `dist/${f}`));
  }
  const entries: PackEntry[] = [];
  const seen = new Set<string>();
  const errors: string[] = [];
  for (const raw of listed) {
    const name = raw.replaceAll('\\', '/');
    if (seen.has(name)) continue;
    seen.add(name);
    if (name.includes('/.') || name.startsWith('.') || name.startsWith('node_modules')) continue;
    if (bundled && name.startsWith('src') && !name.startsWith('src/package')) continue;
    if (name.startsWith('upload.keys.json') || name === 'zip') continue;
    const file = path.join(folder, name);
    const entry: PackEntry = { name, file, mtime: statSync(file).mtime.toUTCString() };
    if (name.startsWith('connections/')) {
      const { text, missing } = fillPlaceholders(readFileSync(file, 'utf8'), env);
      for (const m of missing) errors.push(`${name}: the environment variable ${m} is not set`);
      entry.content = Buffer.from(text);
    }
    entries.push(entry);
  }
  if (errors.length) throw new PublishError('pack', `Nothing was published: ${errors.join('; ')}. Set the variables where VS Code runs (then restart it) and publish again.`);
  return { entries, bundled };
}

// Loads one of the extension's bundles as `require` would, but through V8's code cache kept in the
// extension's global storage: compiling the entry (32 KB minified) was a third of activation in the real
// host's profile, and compiling dist/features.js most of a first command's wait. The cache is this
// extension's alone (Node's own compile cache would be the whole, shared extension host's); V8 refuses a
// cache that does not fit the file and the running V8, and the file is then compiled as usual. Written a few
// seconds after the load, so it holds what activation (or the first command) compiled, once per version.
import * as fs from 'node:fs';
import { createRequire, Module } from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';

/** What became of the cache for a bundle: none yet (written later), used, or refused by V8 (written again). */
export type CodeCacheUse = 'used' | 'written later' | 'refused' | 'off';

export interface LoadedBundle {
  exports: unknown;
  cache: CodeCacheUse;
}

/** What dist/boot.js hands the entry: how the entry loaded, and the loader for the features (this file stays out of the entry). */
export interface Boot {
  readonly entryCache: CodeCacheUse;
  /** The caches' folder. */
  readonly cacheDir: string;
  loadBundle(file: string): LoadedBundle;
}

/** How long after a load its cache is written (what ran by then is in it). */
const WRITE_AFTER_MS = 5000;
const WRAPPER = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'];

/** The folder of the caches in the extension's global storage. */
export function codeCacheDir(storage: string): string {
  return path.join(storage, 'code-cache');
}

/** The cache file of a bundle as it is now (its size and time, and this V8): another version never fits it. */
export function cacheFileOf(file: string, storage: string): string {
  const { size, mtimeMs } = fs.statSync(file);
  return path.join(codeCacheDir(storage), `${path.basename(file)}-${size}-${Math.round(mtimeMs)}-${process.arch}-${process.versions.v8}.bin`);
}

/**
 * `require(file)` through the code cache in `cacheDir` (none: a plain require). The module is Node's, in
 * its cache as `require` would put it (`require.cache`, `require.resolve` and `vscode` work inside it).
 */
export function loadBundle(file: string, cacheDir: string | undefined, options: { writeAfterMs?: number } = {}): LoadedBundle {
  const known = require.cache[file];
  if (known) return { exports: known.exports, cache: 'off' };
  if (!cacheDir) return { exports: require(file), cache: 'off' };
  let cacheFile: string;
  let source: string;
  try {
    cacheFile = cacheFileOf(file, cacheDir);
    source = fs.readFileSync(file, 'utf8');
  } catch {
    return { exports: require(file), cache: 'off' };
  }
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // No importModuleDynamically: the bundles are CommonJS, where esbuild makes a bundled import() a require
  // (Node's option for it warns as experimental in every host that loads it).
  const script = new vm.Script(WRAPPER[0] + source + WRAPPER[1], { filename: file, cachedData });
  const mod = new Module(file, module);
  mod.filename = file;
  const local = createRequire(file);
  require.cache[file] = mod;
  try {
    (script.runInThisContext() as (...args: unknown[]) => void).call(mod.exports, mod.exports, local, mod, file, path.dirname(file));
  } catch (error) {
    delete require.cache[file];
    throw error;
  }
  mod.loaded = true;
  const cache: CodeCacheUse = cachedData === undefined ? 'written later' : script.cachedDataRejected ? 'refused' : 'used';
  if (cache !== 'used') setTimeout(() => writeCache(script, cacheFile, `${path.basename(file)}-`), options.writeAfterMs ?? WRITE_AFTER_MS).unref();
  return { exports: mod.exports, cache };
}

/** Writes the cache (whole or not at all), and drops the bundle's caches of other versions. */
function writeCache(script: vm.Script, cacheFile: string, bundle: string): void {
  try {
    const dir = path.dirname(cacheFile);
    fs.mkdirSync(dir, { recursive: true });
    for (const old of fs.readdirSync(dir)) if (old.startsWith(bundle) && old !== path.basename(cacheFile)) fs.rmSync(path.join(dir, old), { force: true });
    const partial = `${cacheFile}.${process.pid}.tmp`;
    fs.writeFileSync(partial, script.createCachedData());
    fs.renameSync(partial, cacheFile);
  } catch {
    // A cache is an optimisation: without it, the next start compiles as this one did.
  }
}

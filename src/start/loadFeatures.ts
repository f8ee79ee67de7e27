// The features' bundle. In the extension this `require.resolve` names dist/features.js (esbuild.mjs);
// compiled by tsc (tests) it is src/features.ts itself. Loaded by dist/boot.js's loader (through V8's code
// cache, src/start/codeCache.ts) when activation was handed one. Only types are imported statically.
import type * as Features from '../features';
import type { CodeCacheUse, LoadedBundle } from './codeCache';

let loader: ((file: string) => LoadedBundle) | undefined;
let features: typeof Features | undefined;
/** What became of the features' code cache when they loaded ('off' before, or without a loader). */
export let featuresCodeCache: CodeCacheUse = 'off';

/** The loader of the bundles (dist/boot.js's), set at activation. */
export function useBundleLoader(load: ((file: string) => LoadedBundle) | undefined): void {
  loader = load;
}

export function requireFeatures(): typeof Features {
  if (features) return features;
  if (loader) {
    const loaded = loader(require.resolve('../features'));
    featuresCodeCache = loaded.cache;
    features = loaded.exports as typeof Features;
  } else {
    features = require('../features') as typeof Features;
  }
  return features;
}

// The features' bundle. In the extension this `require` becomes `require('./features.js')` (esbuild.mjs);
// compiled by tsc (tests) it is src/features.ts itself. Only types are imported statically.
import type * as Features from '../features';

export function requireFeatures(): typeof Features {
  return require('../features') as typeof Features;
}

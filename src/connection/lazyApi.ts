// The API client (src/api with its HTTP stack) is loaded on the first request, not at
// activation: activating for a restored `datagrok:` editor, a JSON file or the view needs none of it.
// In the extension this `require` becomes `require('./api.js')`, the second bundle (esbuild.mjs);
// compiled by tsc (tests, scripts) it is src/api itself. Only types are imported statically.
import type * as Api from '../api';

let loaded: typeof Api | undefined;

/** The API module, loaded now if no request has loaded it yet. */
export function api(): typeof Api {
  loaded ??= require('../api') as typeof Api;
  return loaded;
}

/**
 * The API module if a request has loaded it, without loading it. Both dist/extension.js and
 * dist/features.js hold a copy of this module: Node's module cache knows whether either loaded it.
 */
export function loadedApi(): typeof Api | undefined {
  loaded ??= require.cache[require.resolve('../api')]?.exports as typeof Api | undefined;
  return loaded;
}

// Packages that only some commands need, loaded on their first use rather than at activation. In the
// extension each `require` here becomes a file of its own beside dist/extension.js (esbuild.mjs,
// LAZY_MODULES); compiled by tsc (tests) it is the package itself. Callers import only types statically.
import type * as JsoncParser from 'jsonc-parser';
import type * as PapaParse from 'papaparse';

let papa: typeof PapaParse | undefined;
let jsonc: typeof JsoncParser | undefined;

/** papaparse (CSV parsing for pushes and function outputs): dist/papaparse.js in the extension. */
export function papaparse(): typeof PapaParse {
  papa ??= require('papaparse') as typeof PapaParse;
  return papa;
}

/** jsonc-parser (parameter files, JSON with comments): dist/jsonc-parser.js in the extension. */
export function jsoncParser(): typeof JsoncParser {
  jsonc ??= require('jsonc-parser') as typeof JsoncParser;
  return jsonc;
}

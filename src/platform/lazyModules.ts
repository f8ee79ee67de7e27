// Packages that only some commands need, loaded on their first use rather than at activation. In the
// extension each `require` here becomes a file of its own beside dist/extension.js (esbuild.mjs,
// LAZY_MODULES); compiled by tsc (tests) it is the package itself. Callers import only types statically.
import type IgnoreWalk from 'ignore-walk';
import type * as JsoncParser from 'jsonc-parser';
import type * as PapaParse from 'papaparse';
import type * as Yaml from 'yaml';
import type * as Yazl from 'yazl';

/** `load()`'s value, loaded on the first call (a `require` that throws is tried again next time). */
function onFirstUse<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= load();
    return value;
  };
}

/** papaparse (CSV parsing for pushes and function outputs): dist/papaparse.js in the extension. */
export const papaparse = /* @__PURE__ */ onFirstUse(() => require('papaparse') as typeof PapaParse);

/** jsonc-parser (parameter files, JSON with comments): dist/jsonc-parser.js in the extension. */
export const jsoncParser = /* @__PURE__ */ onFirstUse(() => require('jsonc-parser') as typeof JsoncParser);

/** yaml (grok's ~/.grok/config.yaml: its servers in Sign In, a publish's key): dist/yaml.js in the extension. */
export const yaml = /* @__PURE__ */ onFirstUse(() => require('yaml') as typeof Yaml);

/** yazl (a package's archive for a publish): dist/yazl.js in the extension. */
export const yazl = /* @__PURE__ */ onFirstUse(() => require('yazl') as typeof Yazl);

/** ignore-walk (the files a publish packs, as npm and grok list them): dist/ignore-walk.js in the extension. */
export const ignoreWalk = /* @__PURE__ */ onFirstUse(() => require('ignore-walk') as typeof IgnoreWalk);

/**
 * A part of the extension loaded on first use (`load`, e.g. a `require` of another bundle), at most once:
 * later calls return what the first returned. A failed load is not retried (a half-run bundle may have
 * registered part of itself): every call throws the same error, which names `what` and the cause, and
 * `onFailure` hears of it once.
 */
export function loadOnce<T>(what: string, load: () => T, onFailure?: (error: Error) => void): { get(): T; readonly loaded: boolean } {
  let state: { value: T } | { error: Error } | undefined;
  let loading = false;
  return {
    get loaded() {
      return state !== undefined && 'value' in state;
    },
    get() {
      if (state === undefined) {
        // A stand-in reached while the part is still loading (its own registration) must not load it again.
        if (loading) throw new Error(`${what} is still loading: it was asked for by its own start.`);
        loading = true;
        try {
          state = { value: load() };
        } catch (cause) {
          const message = cause instanceof Error ? cause.message : String(cause);
          state = { error: new Error(`Could not load ${what}: ${message}. Reload the window; if this happens again, reinstall the extension.`, { cause }) };
          onFailure?.(state.error);
        } finally {
          loading = false;
        }
      }
      if ('error' in state) throw state.error;
      return state.value;
    },
  };
}

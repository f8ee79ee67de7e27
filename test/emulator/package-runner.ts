// Runs a published package's function on the emulator: its bundle (`dist/package.js`, else a root
// `package.js`) evaluated in `node:vm`, the way a browser loads it: a webpack/rspack `var` library whose
// global is the package name in lower case (`grok test` looks up `<name>_test` for the test bundle), with
// `datagrok-api` as the externals `grok`, `ui` and `DG`. Only plain JavaScript runs: any use of the
// platform's client API (`grok.shell`, `ui.*`, a `DG` class other than `DG.Package`) is a 501 naming it.
import * as vm from 'node:vm';
import { ApiError } from './http';
import type { PackageFunction } from './package-annotations';
import { scriptTimeLimitMs } from './scriptLanguages';

/** A stand-in for a part of `datagrok-api`: reading it is fine (module set-up), calling it is a 501. */
function platformStub(path: string): unknown {
  const target = function unavailable() {};
  return new Proxy(target, {
    get: (_t, key) => (typeof key === 'symbol' ? undefined : platformStub(`${path}.${key}`)),
    apply: () => {
      throw new ApiError(501, `${path}() is not available on the emulator: it runs a package function's plain JavaScript only`);
    },
    construct: () => {
      throw new ApiError(501, `new ${path}() is not available on the emulator: it runs a package function's plain JavaScript only`);
    },
  });
}

class EmulatedPackage {
  webRoot = '';
  name = '';
  version = '';
  init(): Promise<null> {
    return Promise.resolve(null);
  }
}

function dgStub(): unknown {
  const base = platformStub('DG') as object;
  return new Proxy(base, { get: (t, key) => (key === 'Package' ? EmulatedPackage : Reflect.get(t, key)) });
}

/** The module a bundle defines: its `var` library global, else what it put in `module.exports`. */
function moduleOf(code: string, file: string, packageName: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  const sandbox: Record<string, unknown> = {
    grok: platformStub('grok'),
    ui: platformStub('ui'),
    DG: dgStub(),
    module,
    exports: module.exports,
    console: { log: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined },
    setTimeout,
    clearTimeout,
  };
  sandbox.window = sandbox;
  sandbox.self = sandbox;
  sandbox.globalThis = sandbox;
  const before = new Set(Object.keys(sandbox));
  const context = vm.createContext(sandbox);
  try {
    new vm.Script(code, { filename: file }).runInContext(context, { timeout: scriptTimeLimitMs() });
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw new ApiError(500, `Package ${packageName} failed to load ${file}: ${(e as Error).message}`);
  }
  const library = context[packageName.toLowerCase()];
  if (library && typeof library === 'object') return library as Record<string, unknown>;
  const defined = Object.keys(context).filter((k) => !before.has(k) && context[k] && typeof context[k] === 'object');
  if (defined.length === 1) return context[defined[0]] as Record<string, unknown>;
  return module.exports;
}

/** Calls one function of a package's bundle with its parameters by name, in the order the annotation lists them. */
export async function runPackageFunction(files: Map<string, Buffer>, packageName: string, fn: PackageFunction, params: Record<string, unknown>): Promise<unknown> {
  const file = files.has('dist/package.js') ? 'dist/package.js' : files.has('package.js') ? 'package.js' : undefined;
  if (!file) throw new ApiError(500, `Package ${packageName} has no dist/package.js: build it and publish again`);
  const module = moduleOf((files.get(file) as Buffer).toString('utf8'), file, packageName);
  const f = module[fn.exportName];
  if (typeof f !== 'function') throw new ApiError(500, `Package ${packageName}: ${file} exports no function ${fn.exportName}`);
  const args = fn.inputs.map((p) => params[p.name]);
  const limit = scriptTimeLimitMs();
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await Promise.race([
      Promise.resolve().then(() => (f as (...a: unknown[]) => unknown)(...args)),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new ApiError(500, `${packageName}:${fn.name} timed out after ${limit} ms`)), limit);
      }),
    ]);
    return result === undefined ? null : result;
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw new ApiError(500, `Error in ${packageName}:${fn.name}: ${(e as Error)?.message ?? e}`);
  } finally {
    clearTimeout(timer);
  }
}

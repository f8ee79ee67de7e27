// Bundles the extension into CommonJS files (vscode stays external):
// - dist/boot.js, from src/boot.ts (package.json "main"): loads dist/extension.js through V8's code cache
//   (src/start/codeCache.ts) and hands it the activation;
// - dist/extension.js, from src/extension.ts: what activation loads, kept small: the connection, its
//   status bar, and stand-ins for every other contribution (src/start/lazyFeatures.ts);
// - dist/features.js, from src/features.ts: every feature, loaded by the stand-ins on first use (its
//   `require('../features')` in src/start/loadFeatures.ts becomes `require('./features.js')`);
// - dist/api.js, from src/api/index.ts: the API client with its HTTP stack (the proxy agents), loaded by
//   src/connection/lazyApi.ts on the first request (its `require('../api')` becomes `require('./api.js')`);
// - dist/network.js, from src/api/network.ts: the route logic, loaded by src/connection/networkSettings.ts
//   when a route is first described (after activation);
// - dist/papaparse.js, dist/jsonc-parser.js, dist/yaml.js, dist/yazl.js, dist/ignore-walk.js: packages
//   src/platform/lazyModules.ts loads on first use (LAZY_MODULES): the last three only grok's config and a
//   package's publish need, a fifth of what dist/features.js held;
// - dist/mcp.js, from src/agents/mcp/server.ts: the MCP server, a separate Node process (no vscode), with
//   its own copy of the API client and the agents' operations.
// esbuild splits code only for ES modules, hence more entry points rather than a split.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
/** `--outdir DIR` builds elsewhere (npm run bench measures a production build without touching dist/). */
const outdirAt = process.argv.indexOf('--outdir');
const outdir = outdirAt > 0 ? process.argv[outdirAt + 1] : 'dist';

/** Packages that src/platform/lazyModules.ts loads on first use: each its own file in dist/. */
const LAZY_MODULES = { papaparse: 'papaparse', 'jsonc-parser': 'jsonc-parser', yaml: 'yaml', yazl: 'yazl', 'ignore-walk': 'ignore-walk' };

/** In dist/extension.js and dist/features.js, the lazy loaders' `require`s load the other bundles. */
const lazyLoads = {
  name: 'lazy-loads',
  setup(build) {
    build.onResolve({ filter: /^(\.\.\/api|\.\.\/api\/network|\.\.\/features|papaparse|jsonc-parser|yaml|yazl|ignore-walk)$/ }, (args) => {
      if (args.kind !== 'require-call' && args.kind !== 'require-resolve') return undefined;
      const loader = path.basename(args.importer);
      if (loader === 'lazyApi.ts' && args.path === '../api') return { path: './api.js', external: true };
      if (loader === 'loadFeatures.ts' && args.path === '../features') return { path: './features.js', external: true };
      if (loader === 'networkSettings.ts' && args.path === '../api/network') return { path: './network.js', external: true };
      if (loader === 'lazyModules.ts' && args.path in LAZY_MODULES) return { path: `./${LAZY_MODULES[args.path]}.js`, external: true };
      return undefined;
    });
  },
};

/** The inputs esbuild put into dist/BUNDLE. */
function inputsOf(result, bundle) {
  return result.metafile?.outputs[path.relative('.', path.join(outdir, bundle)).split(path.sep).join('/')]?.inputs ?? {};
}

function listed(files) {
  return `${files.slice(0, 3).join(', ')}${files.length > 3 ? ` and ${files.length - 3} more` : ''}`;
}

/** The proxy agents and src/api's transport load on the first request (dist/api.js); the lazy modules on their first use (LAZY_MODULES). */
const HTTP_STACK =
  /node_modules[\\/](undici|https?-proxy-agent|agent-base|papaparse|jsonc-parser|yaml|yazl|ignore-walk)[\\/]|src[\\/]api[\\/](client|connections|exchange|http)\.ts$/;

/** Fails the build if the HTTP stack or a lazy module slips into dist/BUNDLE. */
const noHttpStack = (bundle) => ({
  name: 'no-http-stack',
  setup(build) {
    build.onEnd((result) => {
      const heavy = Object.keys(inputsOf(result, bundle)).filter((input) => HTTP_STACK.test(input));
      if (heavy.length === 0) return undefined;
      return { errors: [{ text: `dist/${bundle} must not hold the HTTP stack (load it through src/connection/lazyApi.ts or src/platform/lazyModules.ts): ${listed(heavy)}` }] };
    });
  },
});

/**
 * What activation loads (dist/extension.js) is the entry alone: the connection, its status bar, the MCP
 * provider and the stand-ins (src/start). No feature's code (src/groups, src/tables, src/dashboards,
 * src/functions, src/files, the agents' operations and tools), no shared UI (src/ui), no models beyond
 * the known users and the session scope (src/platform), no HTTP stack; and at most LIGHT_START_BUDGET_KB minified. Fails the
 * build otherwise: a feature is loaded on first use through src/start/lazyFeatures.ts.
 */
const LIGHT_START_BUDGET_KB = 32;
const NOT_AT_ACTIVATION =
  /src[\\/](features\.ts|dataView|groups|tables|dashboards|functions|files|ui|agents[\\/](operations|lmTools|register|workspaceFiles)|core[\\/](commands|progress|options|documents|jsonc|parameterFile\.ts)|platform[\\/](?!knownUsers|lazyModules|groups[\\/]names|sessionScope))/;
const lightStart = {
  name: 'light-start',
  setup(build) {
    build.onEnd((result) => {
      const inputs = inputsOf(result, 'extension.js');
      const heavy = Object.keys(inputs).filter((input) => HTTP_STACK.test(input) || NOT_AT_ACTIVATION.test(input));
      if (heavy.length > 0)
        return {
          errors: [
            {
              text: `dist/extension.js must stay light (load these through src/start/lazyFeatures.ts, src/connection/lazyApi.ts or src/platform/lazyModules.ts): ${listed(heavy)}`,
            },
          ],
        };
      const kb = Object.values(inputs).reduce((sum, input) => sum + input.bytesInOutput, 0) / 1024;
      if (production && kb > LIGHT_START_BUDGET_KB)
        return {
          errors: [
            {
              text: `dist/extension.js is ${kb.toFixed(1)} KB of code, above its budget of ${LIGHT_START_BUDGET_KB} KB (esbuild.mjs): load the new code on first use (src/start/lazyFeatures.ts)`,
            },
          ],
        };
      return undefined;
    });
  },
};

/**
 * One `vscode` object in dist/extension.js and dist/features.js: the API object itself. In CommonJS output
 * esbuild wraps each module's `import * as vscode from 'vscode'` in its __toESM helper, which copies every
 * property of the API object (hundreds) into a fresh object: about 70 modules did that at load, a good
 * part of the load time in the real host's profile. The code reads only named members (`vscode.window`),
 * which the API object has itself, so it is required once and used as is, without a copy.
 */
const oneVscodeNamespace = (bundle) => ({
  name: 'one-vscode-namespace',
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length > 0) return undefined;
      const file = path.join(outdir, bundle);
      const text = fs.readFileSync(file, 'utf8');
      // Not `\b`: the minifier may name the helper `$`, before which there is no word boundary.
      const helpers = new Set([...text.matchAll(/(?<![\w$])([A-Za-z_$][\w$]*)\(require\("vscode"\)\)/g)].map((match) => match[1]));
      if (helpers.size !== 1) return { errors: [{ text: `one-vscode-namespace: expected one helper around require("vscode"), found ${[...helpers].join(', ') || 'none'}` }] };
      const [toEsm] = helpers;
      const shared = text.replace('"use strict";', '"use strict";var __dgVscode;').replaceAll(`${toEsm}(require("vscode"))`, '(__dgVscode??=require("vscode"))');
      fs.writeFileSync(file, shared);
      return undefined;
    });
  },
});

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['vscode'],
  // Prefer packages' ES module builds: jsonc-parser's UMD build requires files the bundler cannot see.
  mainFields: ['module', 'main'],
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  metafile: true,
  logLevel: 'warning',
};

const contexts = await Promise.all([
  esbuild.context({ ...common, entryPoints: ['src/boot.ts'], outfile: path.join(outdir, 'boot.js') }),
  esbuild.context({
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: path.join(outdir, 'extension.js'),
    plugins: [lazyLoads, lightStart, oneVscodeNamespace('extension.js')],
  }),
  esbuild.context({
    ...common,
    entryPoints: ['src/features.ts'],
    outfile: path.join(outdir, 'features.js'),
    plugins: [lazyLoads, noHttpStack('features.js'), oneVscodeNamespace('features.js')],
  }),
  esbuild.context({ ...common, entryPoints: ['src/api/index.ts'], outfile: path.join(outdir, 'api.js') }),
  // How requests to a server go (proxy, no-proxy rules), described in the status bar after activation.
  esbuild.context({ ...common, entryPoints: ['src/api/network.ts'], outfile: path.join(outdir, 'network.js') }),
  esbuild.context({ ...common, entryPoints: ['src/agents/mcp/server.ts'], outfile: path.join(outdir, 'mcp.js') }),
  // The data view: its worker thread (Node), and its webview's script and styles (a browser bundle with uPlot).
  esbuild.context({ ...common, entryPoints: ['src/platform/dataView/worker.ts'], outfile: path.join(outdir, 'dataViewWorker.js') }),
  esbuild.context({
    ...common,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    external: [],
    mainFields: ['browser', 'module', 'main'],
    entryPoints: ['src/dataView/webview/main.ts'],
    outfile: path.join(outdir, 'dataViewWebview.js'),
  }),
  // The notebook's table renderer: the same page as an ES module for the output webview, its CSS as text (put in each output's shadow root).
  esbuild.context({
    ...common,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    external: [],
    mainFields: ['browser', 'module', 'main'],
    loader: { '.css': 'text' },
    // charts.ts imports uPlot's CSS for the data view's stylesheet; here the renderer imports it as text.
    logOverride: { 'ignored-bare-import': 'silent' },
    entryPoints: ['src/dataView/webview/notebookRenderer.ts'],
    outfile: path.join(outdir, 'notebookRenderer.js'),
  }),
  ...Object.entries(LAZY_MODULES).map(([pkg, name]) => esbuild.context({ ...common, entryPoints: [pkg], outfile: path.join(outdir, `${name}.js`) })),
]);
if (watch) {
  await Promise.all(contexts.map((ctx) => ctx.watch()));
} else {
  try {
    await Promise.all(contexts.map((ctx) => ctx.rebuild()));
  } catch {
    process.exitCode = 1;
  } finally {
    await Promise.all(contexts.map((ctx) => ctx.dispose()));
  }
}

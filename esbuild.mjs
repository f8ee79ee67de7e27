// Bundles the extension into CommonJS files (vscode stays external):
// - dist/extension.js, from src/extension.ts: what activation loads;
// - dist/api.js, from src/api/index.ts: the API client with its HTTP stack (undici), loaded by
//   src/connection/lazyApi.ts on the first request (its `require('../api')` becomes `require('./api.js')`);
// - dist/papaparse.js, dist/jsonc-parser.js: packages src/platform/lazyModules.ts loads on first use
//   (LAZY_MODULES);
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
const LAZY_MODULES = { papaparse: 'papaparse', 'jsonc-parser': 'jsonc-parser' };

/** In dist/extension.js, the lazy loaders' `require`s load the other bundles. */
const lazyLoads = {
  name: 'lazy-loads',
  setup(build) {
    build.onResolve({ filter: /^(\.\.\/api|papaparse|jsonc-parser)$/ }, (args) => {
      if (args.kind !== 'require-call') return undefined;
      const loader = path.basename(args.importer);
      if (loader === 'lazyApi.ts' && args.path === '../api') return { path: './api.js', external: true };
      if (loader === 'lazyModules.ts' && args.path in LAZY_MODULES) return { path: `./${LAZY_MODULES[args.path]}.js`, external: true };
      return undefined;
    });
  },
};

/**
 * Activation must not load the HTTP stack: fails the build if undici, src/api's transport or a lazy
 * module slips into dist/extension.js.
 */
const lightStart = {
  name: 'light-start',
  setup(build) {
    build.onEnd((result) => {
      const inputs = Object.keys(result.metafile?.outputs[path.relative('.', path.join(outdir, 'extension.js')).split(path.sep).join('/')]?.inputs ?? {});
      const heavy = inputs.filter((input) => /node_modules[\\/](undici|papaparse)[\\/]|src[\\/]api[\\/](client|dispatcher|http)\.ts$/.test(input));
      if (heavy.length === 0) return undefined;
      return { errors: [{ text: `dist/extension.js must stay light (load these through src/connection/lazyApi.ts or src/platform/lazyModules.ts): ${heavy.slice(0, 3).join(', ')}${heavy.length > 3 ? ` and ${heavy.length - 3} more` : ''}` }] };
    });
  },
};

/**
 * One namespace object for `vscode` in dist/extension.js. In CommonJS output esbuild wraps each module's
 * `import * as vscode from 'vscode'` in its __toESM helper, which copies every property of the API object
 * (hundreds) into a fresh object: about 70 modules did that at load, a good part of the load time in the
 * real host's profile. The copies are alike, so the first is kept and shared.
 */
const oneVscodeNamespace = {
  name: 'one-vscode-namespace',
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length > 0) return undefined;
      const file = path.join(outdir, 'extension.js');
      const text = fs.readFileSync(file, 'utf8');
      const helpers = new Set([...text.matchAll(/\b([A-Za-z_$][\w$]*)\(require\("vscode"\)\)/g)].map((match) => match[1]));
      if (helpers.size !== 1) return { errors: [{ text: `one-vscode-namespace: expected one helper around require("vscode"), found ${[...helpers].join(', ') || 'none'}` }] };
      const [toEsm] = helpers;
      const shared = text
        .replace('"use strict";', '"use strict";var __dgVscode;')
        .replaceAll(`${toEsm}(require("vscode"))`, `(__dgVscode??=${toEsm}(require("vscode")))`);
      fs.writeFileSync(file, shared);
      return undefined;
    });
  },
};

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
  esbuild.context({ ...common, entryPoints: ['src/extension.ts'], outfile: path.join(outdir, 'extension.js'), plugins: [lazyLoads, lightStart, oneVscodeNamespace] }),
  esbuild.context({ ...common, entryPoints: ['src/api/index.ts'], outfile: path.join(outdir, 'api.js') }),
  esbuild.context({ ...common, entryPoints: ['src/agents/mcp/server.ts'], outfile: path.join(outdir, 'mcp.js') }),
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

// Light-start benchmark: what activation loads. Builds the production bundles into a temporary folder
// and prints the bytes of dist/extension.js (the entry, loaded at activation) against the parts loaded on
// first use (dist/features.js: every feature; dist/api.js: the client and undici; dist/papaparse.js,
// dist/jsonc-parser.js), and how long a fresh Node process takes to load each (median of --runs). dist/extension.js needs `vscode`, which plain Node lacks: a stub that
// answers every property stands in, so the figure is code loading (parse and top level), not `activate`.
// The real host's figures per activation cause: test/bench/hostActivation.ts. Not a test: it prints figures.
//
//   node out/test/bench/activation.js [--runs 7]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../host/paths';

/** Loads FILE in this fresh process (with `vscode` stubbed) and prints the milliseconds it took. */
const LOADER = `
const Module = require('node:module');
const any = new Proxy(function () {}, {
  get: (_t, key) => (key === 'prototype' ? {} : key === Symbol.toPrimitive ? () => '' : any),
  apply: () => any,
  construct: () => ({}),
  getPrototypeOf: () => anyObject,
});
const anyObject = new Proxy({}, { get: (_t, key) => (key === 'prototype' ? {} : any) });
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? any : load.call(this, request, ...rest); };
const started = performance.now();
require(process.argv[1]);
process.stdout.write(String(performance.now() - started));
`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function loadMs(file: string, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(Number(execFileSync(process.execPath, ['-e', LOADER, file], { encoding: 'utf8' })));
  return median(times);
}

function main(): void {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
  const runs = Math.max(1, Number(values.runs));
  const outdir = mkdtempSync(path.join(tmpdir(), 'dg-bench-bundle-'));
  try {
    execFileSync(process.execPath, [path.join(repoRoot, 'esbuild.mjs'), '--production', '--outdir', outdir], { cwd: repoRoot, stdio: 'inherit' });
    const kb = (file: string) => statSync(path.join(outdir, file)).size / 1024;
    const files = ['extension.js', 'features.js', 'api.js', 'papaparse.js', 'jsonc-parser.js', 'yaml.js', 'yazl.js', 'ignore-walk.js'];
    const total = files.reduce((sum, file) => sum + kb(file), 0);
    console.log(`Light start (production bundles, Node ${process.version}, median of ${runs} fresh processes):`);
    console.log(
      `  loaded at activation: the entry bundle dist/extension.js ${kb('extension.js').toFixed(1)} KB of ${total.toFixed(0)} KB (${((100 * kb('extension.js')) / total).toFixed(0)}%; its budget in esbuild.mjs: 32 KB of code)`,
    );
    for (const file of files) {
      const when = file === 'extension.js' ? 'at activation' : 'on first use';
      console.log(`  dist/${file.padEnd(16)} ${kb(file).toFixed(1).padStart(6)} KB, loads in ${loadMs(path.join(outdir, file), runs).toFixed(1).padStart(6)} ms (${when})`);
    }
    console.log(`  activation time in the host (target <= 20 ms per cause): the next part (hostActivation.js), in the real VS Code host`);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

main();

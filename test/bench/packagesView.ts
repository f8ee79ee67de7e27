// Packages view benchmark: what the view reads when a package file changes — every package of the workspace
// found (src/platform/packages/recognition.ts) and read (inventory.ts: package.json, the functions of the
// files grok walks) — on a monorepo the size of Datagrok's public one: N packages (default 40) under
// packages/*, each from datagrok-tools' template with a 50-function package.ts, 20 more source files, a
// script and a .sql of two queries, and a node_modules of 200 files (never walked).
//   node out/test/bench/packagesView.js [--packages 40] [--runs 10]
// Targets (medians of warm runs): the whole workspace read (at start, a folder added, Refresh) ≤ 500 ms; after
// a save, the package holding the file read again (the view re-reads only it) ≤ 50 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { edit, makePackage } from '../fixtures/packages/faults';
import { type Figure, median, printFigures } from './figures';

const { values } = parseArgs({ options: { packages: { type: 'string', default: '40' }, runs: { type: 'string', default: '10' } } });
const count = Number(values.packages);
const runs = Number(values.runs);

function grownPackage(dir: string, name: string): void {
  makePackage(dir, name);
  const functions = Array.from(
    { length: 50 },
    (_, i) => `
//name: Function${i}
//description: Computes thing ${i}
//tags: panel, widgets
//input: column col {semType: Molecule; caption: Column}
//input: int count = ${i} {min: 0; max: 100}
//output: widget result
export function function${i}(col: DG.Column, count: number): DG.Widget {
  return new DG.Widget(ui.div([col.name, String(count)]));
}
`,
  ).join('');
  edit(dir, 'src/package.ts', (t) => t + functions);
  for (let i = 0; i < 20; i++) edit(dir, `src/widgets/widget${i}.ts`, () => `import * as DG from 'datagrok-api/dg';\n\n${'export const x = 1;\n'.repeat(200)}`);
  edit(dir, 'scripts/stats.py', () => '#name: Stats\n#language: python\n#input: dataframe df\n#output: double mean\nmean = 1\n');
  edit(dir, 'queries/queries.sql', () => '--name: First\n--connection: Db\nselect 1\n\n--name: Second\n--input: int id\nselect 2\n');
  for (let i = 0; i < 200; i++) edit(dir, `node_modules/lib${i % 10}/file${i}.js`, () => 'module.exports = 1;\n');
}

function main(): void {
  const root = mkdtempSync(path.join(tmpdir(), 'bench-packages-view-'));
  for (let i = 0; i < count; i++) grownPackage(path.join(root, 'packages', `Package${i}`), `Package${i}`);
  const { findPackageFolders } = require('../../src/platform/packages/recognition') as typeof import('../../src/platform/packages/recognition');
  const { readPackage } = require('../../src/platform/packages/inventory') as typeof import('../../src/platform/packages/inventory');
  const readAll = () => findPackageFolders(root).map((folder) => readPackage(folder));
  const started = performance.now();
  const first = readAll();
  const firstMs = performance.now() - started;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    readAll();
    times.push(performance.now() - t);
  }
  // After a save: the one package holding the file read again (the others kept).
  const one = path.join(root, 'packages', 'Package0');
  const oneTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    readPackage(one);
    oneTimes.push(performance.now() - t);
  }
  rmSync(root, { recursive: true, force: true });
  const warm = median(times);
  const functions = first.reduce((n, p) => n + p.functions.length, 0);
  const figures: Figure[] = [
    {
      name: `the workspace read (${count} packages), warm (median)`,
      value: `${warm.toFixed(1)} ms (${Math.min(...times).toFixed(1)}–${Math.max(...times).toFixed(1)} over ${runs} runs)`,
      target: '<= 500 ms',
      ok: warm <= 500,
      miss: 'ABOVE',
    },
    {
      name: 'after a save: its package read again (median)',
      value: `${median(oneTimes).toFixed(1)} ms`,
      target: '<= 50 ms',
      ok: median(oneTimes) <= 50,
      miss: 'ABOVE',
    },
    { name: 'first read (modules loaded)', value: `${firstMs.toFixed(1)} ms`, target: 'reported', ok: true },
    { name: 'packages / functions listed', value: `${first.length} / ${functions}`, target: 'reported', ok: true },
  ];
  printFigures(`Packages view: the workspace's packages read (load ${loadavg()[0].toFixed(1)})`, figures);
}

main();

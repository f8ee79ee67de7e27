// Notebook benchmark: a notebook of 10 small function-call cells run as the kernel runs them (the cell's
// call parsed, its inputs taken from the variables, the function's signature read beside the call) against
// the sum of the same 10 calls made directly with the client, in the same minutes. Target: ≤ 1.2×. The
// emulator runs in a child process. Then a cell answering 1,000,000 rows (notebookTable.ts): from the
// server's answer to the output item and to the renderer's first request answered, and the extra memory.
// Not a test: it prints figures.
//
//   node --expose-gc out/test/bench/notebook.js [--runs 5] [--rows 1000000] [--big-runs 3]
import { parseArgs } from 'node:util';
import { parseCallCell } from '../../src/platform/notebook/cells';
import { runCell, variablesOf } from '../../src/platform/notebook/runCell';
import { NotebookVariables } from '../../src/platform/notebook/variables';
import { runBench, withEmulatorClient } from './childEmulator';
import { type BigOutputFigures, bigOutput } from './notebookTable';

const CELLS = Array.from({ length: 10 }, (_, i) => (i === 0 ? 'x0 = Demo:Add(a: 1, b: 2)' : `x${i} = Demo:Add(a: x${i - 1}, b: ${i})`));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, rows: { type: 'string', default: '1000000' }, 'big-runs': { type: 'string', default: '3' } } });
  const runs = Math.max(1, Number(values.runs));
  const rows = Math.max(2, Number(values.rows));
  await withEmulatorClient('bench-key', [], async (client) => {
    const direct: number[] = [];
    const notebook: number[] = [];
    for (let r = 0; r < runs + 1; r++) {
      // The calls alone: each waits for the one before (its input is the last answer).
      let t = performance.now();
      let last = 0;
      for (let i = 0; i < CELLS.length; i++) last = Number(await client.callFunction('Demo:Add', { a: i === 0 ? 1 : last, b: i === 0 ? 2 : i }));
      const directMs = performance.now() - t;
      // The notebook: the same chain, cell by cell.
      const variables = new NotebookVariables();
      const signatures = new Map();
      const signal = new AbortController().signal;
      t = performance.now();
      for (let i = 0; i < CELLS.length; i++) {
        const ran = await runCell(
          { api: client, variables, signal, tablePrefix: 'Bench_', leftBehind: () => undefined, signatures },
          { index: i, language: 'datagrok-call', text: CELLS[i], call: parseCallCell(CELLS[i]) },
        );
        for (const v of variablesOf(i, ran)) variables.set(v);
      }
      const notebookMs = performance.now() - t;
      if (variables.get('x9')?.value !== last) throw new Error(`the notebook's x9 is ${String(variables.get('x9')?.value)}, the calls' ${last}`);
      // The first round warms the connections up.
      if (r > 0) {
        direct.push(directMs);
        notebook.push(notebookMs);
      }
    }
    const ratio = median(notebook) / median(direct);
    console.log(`notebook of 10 call cells: ${median(notebook).toFixed(1)} ms; the 10 calls alone: ${median(direct).toFixed(1)} ms (medians of ${runs})`);
    console.log(`notebook / calls: ${ratio.toFixed(2)} (target ≤ 1.2: ${ratio <= 1.2 ? 'ok' : 'ABOVE'})`);
    // The big output: the first run alone in the process measures its memory; each run its times.
    const big: BigOutputFigures[] = [];
    for (let r = 0; r < Math.max(1, Number(values['big-runs'])); r++) big.push(await bigOutput(client, rows));
    const first = big[0];
    const ms = (f: (b: BigOutputFigures) => number) => `${median(big.map(f)).toFixed(0)} ms (${big.map((b) => f(b).toFixed(0)).join(', ')})`;
    console.log(`a ${rows.toLocaleString('en-US')}-row output (${(first.bytes / 1024 / 1024).toFixed(1)} MiB of CSV; the output item ${(first.itemBytes / 1024).toFixed(1)} KB):`);
    const toItem = median(big.map((b) => b.toItemMs));
    console.log(`  server's answer → output item with the first rows: ${ms((b) => b.toItemMs)} (target ≤ 1 s: ${toItem <= 1000 ? 'ok' : 'ABOVE'})`);
    console.log(`  server's answer → rows from the middle answered by the worker: ${ms((b) => b.toFirstRequestMs)}`);
    console.log(`  extra memory (peak RSS over before the call): ${first.extraMiB.toFixed(1)} MiB (target ≤ 100 MB = 95.4 MiB: ${first.extraMiB <= 95.4 ? 'ok' : 'ABOVE'})`);
    // The same table beside a second output: the answer is an array, its table streamed to its file all the same.
    const two = await bigOutput(client, rows, true);
    console.log(
      `  with a second output (an array answer): server's answer → output item ${two.toItemMs.toFixed(0)} ms; extra memory ${two.extraMiB.toFixed(1)} MiB (target ≤ 95.4 MiB: ${two.extraMiB <= 95.4 ? 'ok' : 'ABOVE'})`,
    );
  });
}

runBench(main);

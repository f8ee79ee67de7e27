// The figures of the benchmarks, each with its target and "ok" or "BELOW"/"ABOVE" beside it, and helpers
// shared by the benchmarks that compare against curl in the same run.
import { execFile } from 'node:child_process';

export interface Figure {
  name: string;
  value: string;
  target: string;
  ok: boolean;
  /** "BELOW" for ratios and speeds, "ABOVE" for memory and times. */
  miss?: 'BELOW' | 'ABOVE';
}

/** What `measure` saw of one run: wall clock, peak RSS above the baseline, this process's CPU seconds. */
export interface Measured {
  seconds: number;
  extraRss: number;
  cpu: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** "0.97 (0.91–1.04 over 3 runs)": the median of per-run client/curl ratios and their range. */
export function ratioText(ratios: number[]): string {
  const m = median(ratios).toFixed(2);
  if (ratios.length === 1) return m;
  return `${m} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)} over ${ratios.length} runs)`;
}

export function ratioFigure(name: string, ratios: number[], min = 0.9): Figure {
  return { name, value: ratioText(ratios), target: `>= ${min}x curl (median)`, ok: median(ratios) >= min, miss: 'BELOW' };
}

export function printFigures(title: string, figures: Figure[]): void {
  const width = Math.max(...figures.map((f) => f.name.length));
  const valueWidth = Math.max(...figures.map((f) => f.value.length));
  console.log(`\n${title}`);
  for (const f of figures) {
    console.log(`  ${f.name.padEnd(width)}  ${f.value.padEnd(valueWidth)}  target ${f.target}: ${f.ok ? 'ok' : (f.miss ?? 'BELOW')}`);
  }
}

/**
 * Writes dirty pages back before a measured transfer. Without it the file the previous transfer wrote
 * (hundreds of MiB waiting for write-back) slows down whichever transfer comes next — on this machine a
 * 512 MiB write took 0.1 s after a sync and 1.5–2.5 s right after another large write — so the order of
 * client and curl, not the client, decided the ratio.
 */
export function settle(): Promise<void> {
  return new Promise((resolve) => execFile('sync', () => resolve()));
}

/**
 * Samples this process's RSS while `run` runs; returns seconds, the peak RSS above the baseline and this
 * process's CPU seconds (user + system, all threads). CPU per GiB does not depend on other load on the
 * machine, so it compares client versions more reliably than throughput on a busy box.
 */
export async function measure(run: () => Promise<unknown>): Promise<Measured> {
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  peak = Math.max(peak, process.memoryUsage.rss());
  const cpu = process.cpuUsage(cpuBefore);
  return { seconds, extraRss: Math.max(0, peak - baseline), cpu: (cpu.user + cpu.system) / 1e6 };
}

// A column's summary from its stored values (columnStore.ts), in one pass: count, missing, distinct,
// min / max / mean for numbers, the most frequent values for text; and a histogram over every value.
// Text is counted per dictionary code, so its distinct count and top values are exact; numbers count
// distinct values exactly up to EXACT_DISTINCT, then by a HyperLogLog estimate. Pure.
import type { ColumnType } from './columnTypes';
import { type StoredColumn, TextColumn } from './columnStore';
import type { ColumnSummary } from './types';

const EXACT_DISTINCT = 1 << 16;
const HLL_BITS = 14;

export type { ColumnSummary } from './types';

const scratch = new Float64Array(1);
const scratchBits = new Uint32Array(scratch.buffer);

/** A number's bits, mixed (murmur3's finalizer) for the HyperLogLog registers. */
function hashNumber(n: number): number {
  scratch[0] = n === 0 ? 0 : n;
  let h = (scratchBits[0] ^ Math.imul(scratchBits[1], 0x9e3779b1)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Distinct numbers: exact up to EXACT_DISTINCT, then a HyperLogLog estimate. */
export class DistinctNumbers {
  private exact: Set<number> | undefined = new Set();
  private readonly registers = new Uint8Array(1 << HLL_BITS);

  add(n: number): void {
    if (this.exact) {
      this.exact.add(n === 0 ? 0 : n);
      if (this.exact.size <= EXACT_DISTINCT) return;
      for (const seen of this.exact) this.register(seen);
      this.exact = undefined;
    } else this.register(n);
  }

  private register(n: number): void {
    const h = hashNumber(n);
    const index = h >>> (32 - HLL_BITS);
    const rest = (h << HLL_BITS) >>> 0;
    const rank = rest === 0 ? 32 - HLL_BITS + 1 : Math.clz32(rest) + 1;
    if (rank > this.registers[index]) this.registers[index] = rank;
  }

  get approximate(): boolean {
    return !this.exact;
  }

  get count(): number {
    if (this.exact) return this.exact.size;
    const m = this.registers.length;
    let sum = 0;
    let zeros = 0;
    for (const r of this.registers) {
      sum += 2 ** -r;
      if (r === 0) zeros++;
    }
    const raw = ((0.7213 / (1 + 1.079 / m)) * m * m) / sum;
    return Math.round(raw <= 2.5 * m && zeros > 0 ? m * Math.log(m / zeros) : raw);
  }
}

/** The summary of the first `rows` values of a stored column. */
export function summarize(name: string, type: ColumnType, column: StoredColumn, rows: number, topN = 10): ColumnSummary {
  if (column instanceof TextColumn) {
    const counts = new Uint32Array(column.dictionary.length);
    for (let id = 0; id < rows; id++) counts[column.get(id)]++;
    let distinct = 0;
    for (let code = 1; code < counts.length; code++) if (counts[code] > 0) distinct++;
    const codes: number[] = [];
    for (let code = 1; code < counts.length; code++) if (counts[code] > 0) codes.push(code);
    codes.sort((a, b) => counts[b] - counts[a] || a - b);
    const top = codes.slice(0, topN).map((code) => ({ value: column.dictionary[code], count: counts[code] }));
    return { column: name, type, count: rows - counts[0], missing: counts[0], distinct, distinctApproximate: false, top };
  }
  let count = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let sum = 0;
  const distinct = new DistinctNumbers();
  for (let id = 0; id < rows; id++) {
    const v = column.get(id);
    if (Number.isNaN(v)) continue;
    count++;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    distinct.add(v);
  }
  const numbers = count > 0 ? { min, max, mean: sum / count } : {};
  return { column: name, type, count, missing: rows - count, distinct: distinct.count, distinctApproximate: distinct.approximate, ...numbers, top: [] };
}

/** Equal-width bins over [min, max] of every value (`bins` counts, and their lower edges). */
export function histogram(values: { get(id: number): number }, rows: number, min: number, max: number, bins = 30): { edges: number[]; counts: number[] } {
  if (!(min <= max)) return { edges: [], counts: [] };
  const width = max > min ? (max - min) / bins : 1;
  const n = max > min ? bins : 1;
  const counts = new Array<number>(n).fill(0);
  for (let id = 0; id < rows; id++) {
    const v = values.get(id);
    if (!Number.isNaN(v)) counts[Math.min(n - 1, Math.floor((v - min) / width))]++;
  }
  return { edges: counts.map((_, i) => min + i * width), counts };
}

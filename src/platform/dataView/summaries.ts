// A column's summary from its stored values (columnStore.ts), in one pass: count, missing, distinct,
// min / max / mean for numbers, the most frequent values for text; and a histogram over every value.
// Text is counted per dictionary code, so its distinct count and top values are exact; numbers count
// distinct values exactly up to EXACT_DISTINCT, then by a HyperLogLog estimate. Each takes the rows to
// describe: every row [0, rows), or the row ids a filter keeps (in file order). Pure.
import type { ColumnType } from './columnTypes';
import { type StoredColumn, TextColumn } from './columnStore';
import type { ColumnSummary, RowScope } from './types';

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

/** The rows to describe: the first `rows`, or only the ids in `kept` (a filter's rows, in file order). */
export interface Rows {
  rows: number;
  kept?: Uint32Array;
}

/** What `rows` describes, for the label ("199,746 of 1,000,000 rows (filtered)"). */
export function scopeOf({ rows, kept }: Rows): RowScope {
  return { rows: kept ? kept.length : rows, of: rows, filtered: kept !== undefined };
}

/** The summary of a stored column over `which` rows. */
export function summarize(name: string, type: ColumnType, column: StoredColumn, which: Rows, topN = 10): ColumnSummary {
  const { kept } = which;
  const scope = scopeOf(which);
  const rows = scope.rows;
  if (column instanceof TextColumn) {
    const counts = new Uint32Array(column.dictionary.length);
    if (kept) for (let i = 0; i < rows; i++) counts[column.get(kept[i])]++;
    else for (let id = 0; id < rows; id++) counts[column.get(id)]++;
    let distinct = 0;
    for (let code = 1; code < counts.length; code++) if (counts[code] > 0) distinct++;
    const codes: number[] = [];
    for (let code = 1; code < counts.length; code++) if (counts[code] > 0) codes.push(code);
    codes.sort((a, b) => counts[b] - counts[a] || a - b);
    const top = codes.slice(0, topN).map((code) => ({ value: column.dictionary[code], count: counts[code] }));
    return { column: name, type, count: rows - counts[0], missing: counts[0], distinct, distinctApproximate: false, top, scope };
  }
  let count = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let sum = 0;
  const distinct = new DistinctNumbers();
  for (let i = 0; i < rows; i++) {
    const v = column.get(kept ? kept[i] : i);
    if (Number.isNaN(v)) continue;
    count++;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    distinct.add(v);
  }
  const numbers = count > 0 ? { min, max, mean: sum / count } : {};
  return { column: name, type, count, missing: rows - count, distinct: distinct.count, distinctApproximate: distinct.approximate, ...numbers, top: [], scope };
}

/** Equal-width bins over [min, max] of the values of `which` rows (`bins` counts, and their lower edges). */
export function histogram(values: { get(id: number): number }, which: Rows, min: number, max: number, bins = 30): { edges: number[]; counts: number[] } {
  if (!(min <= max)) return { edges: [], counts: [] };
  const width = max > min ? (max - min) / bins : 1;
  const n = max > min ? bins : 1;
  const counts = new Array<number>(n).fill(0);
  const { kept } = which;
  const rows = kept ? kept.length : which.rows;
  for (let i = 0; i < rows; i++) {
    const v = values.get(kept ? kept[i] : i);
    if (!Number.isNaN(v)) counts[Math.min(n - 1, Math.floor((v - min) / width))]++;
  }
  return { edges: counts.map((_, i) => min + i * width), counts };
}

// A column's summary, accumulated in one pass over its values: count, missing, distinct (exact up to
// EXACT_DISTINCT values, then a HyperLogLog estimate), min / max / mean for numbers, the most frequent
// values for text, and a uniform sample of numbers (reservoir) for the histogram. Pure.
import { type ColumnType, isMissing, isNumeric, numberOf } from './columnTypes';

const EXACT_DISTINCT = 1 << 16;
const HLL_BITS = 14;
/** Distinct values counted for the top list; beyond it, new values are no longer counted. */
const TOP_TRACKED = 100_000;
export const SAMPLE_SIZE = 100_000;

export interface ColumnSummary {
  column: string;
  type: ColumnType;
  /** Non-missing values. */
  count: number;
  missing: number;
  distinct: number;
  distinctApproximate: boolean;
  min?: number;
  max?: number;
  mean?: number;
  /** The most frequent values, most first. */
  top: { value: string; count: number }[];
}

/** FNV-1a of a string's UTF-16 code units, then a final mix (for the HyperLogLog registers). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export class SummaryBuilder {
  private count = 0;
  private missing = 0;
  private min = Number.POSITIVE_INFINITY;
  private max = Number.NEGATIVE_INFINITY;
  private sum = 0;
  private exact: Set<string> | undefined = new Set();
  private readonly registers = new Uint8Array(1 << HLL_BITS);
  private readonly counts = new Map<string, number>();
  private readonly numeric: boolean;
  /** A uniform sample of the numbers seen (Algorithm R). */
  readonly sample: number[] = [];
  private seenNumbers = 0;
  private random = 0x2545f491;

  constructor(
    readonly column: string,
    readonly type: ColumnType,
  ) {
    this.numeric = isNumeric(type);
  }

  add(value: string | undefined): void {
    if (isMissing(value)) {
      this.missing++;
      return;
    }
    const v = value as string;
    this.count++;
    if (this.exact) {
      this.exact.add(v);
      if (this.exact.size > EXACT_DISTINCT) {
        for (const seen of this.exact) this.register(seen);
        this.exact = undefined;
      }
    } else this.register(v);
    if (this.numeric) {
      const n = numberOf(v, this.type);
      if (Number.isNaN(n)) return;
      if (n < this.min) this.min = n;
      if (n > this.max) this.max = n;
      this.sum += n;
      this.keepSample(n);
    } else {
      const c = this.counts.get(v);
      if (c !== undefined) this.counts.set(v, c + 1);
      else if (this.counts.size < TOP_TRACKED) this.counts.set(v, 1);
    }
  }

  private keepSample(n: number): void {
    this.seenNumbers++;
    if (this.sample.length < SAMPLE_SIZE) {
      this.sample.push(n);
      return;
    }
    // xorshift32: fast, good enough to pick which sample slot to replace.
    this.random ^= this.random << 13;
    this.random ^= this.random >>> 17;
    this.random ^= this.random << 5;
    const j = (this.random >>> 0) % this.seenNumbers;
    if (j < SAMPLE_SIZE) this.sample[j] = n;
  }

  private register(value: string): void {
    const h = hash(value);
    const index = h >>> (32 - HLL_BITS);
    const rest = (h << HLL_BITS) >>> 0;
    const rank = rest === 0 ? 32 - HLL_BITS + 1 : Math.clz32(rest) + 1;
    if (rank > this.registers[index]) this.registers[index] = rank;
  }

  private estimate(): number {
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

  /** Whether the numbers were sampled (more than SAMPLE_SIZE of them). */
  get sampled(): boolean {
    return this.seenNumbers > SAMPLE_SIZE;
  }

  result(topN = 10): ColumnSummary {
    const numbers = this.numeric && this.seenNumbers > 0;
    const top = [...this.counts].sort((a, b) => b[1] - a[1]).slice(0, topN).map(([value, count]) => ({ value, count }));
    return {
      column: this.column,
      type: this.type,
      count: this.count,
      missing: this.missing,
      distinct: this.exact ? this.exact.size : this.estimate(),
      distinctApproximate: !this.exact,
      ...(numbers ? { min: this.min, max: this.max, mean: this.sum / this.seenNumbers } : {}),
      top,
    };
  }
}

/** Equal-width bins over [min, max]: `bins` counts, and their lower edges. */
export function histogram(values: readonly number[], bins = 30): { edges: number[]; counts: number[] } {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (values.length === 0) return { edges: [], counts: [] };
  const width = max > min ? (max - min) / bins : 1;
  const n = max > min ? bins : 1;
  const counts = new Array<number>(n).fill(0);
  for (const v of values) counts[Math.min(n - 1, Math.floor((v - min) / width))]++;
  return { edges: counts.map((_, i) => min + i * width), counts };
}

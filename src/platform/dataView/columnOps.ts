// Sort, filter and scatter over stored columns (columnStore.ts): the row order of a sort (order.ts's radix
// sort over each row's number, or for text the rank of its dictionary code, so only distinct values are
// compared), the rows a filter keeps (for text, each distinct value is tested once), and a scatter's
// points. Pure.
import { type ColumnType, numberOf } from './columnTypes';
import { type NumberColumn, type StoredColumn, TextColumn } from './columnStore';
import { orderByNumbers } from './order';
import type { Filter } from './types';

/** Row ids [0, rows) ordered by the column (missing last; ties in file order). */
export function sortOrder(column: StoredColumn, rows: number, descending = false): Uint32Array {
  if (!(column instanceof TextColumn)) return orderByNumbers(column.toArray(rows), descending);
  const { dictionary } = column;
  const byText = Array.from({ length: dictionary.length - 1 }, (_, i) => i + 1).sort((a, b) => (dictionary[a] < dictionary[b] ? -1 : dictionary[a] > dictionary[b] ? 1 : 0));
  const rank = new Float64Array(dictionary.length);
  rank[0] = Number.NaN;
  for (const [i, code] of byText.entries()) rank[code] = i;
  const keys = new Float64Array(rows);
  for (let id = 0; id < rows; id++) keys[id] = rank[column.get(id)];
  return orderByNumbers(keys, descending);
}

/** Whether a value is kept by one filter (text: contains, case-insensitive; range: inclusive; values: one of). */
function textTest(filter: Filter, type: ColumnType): (value: string) => boolean {
  if (filter.kind === 'text') {
    const text = filter.text.toLowerCase();
    return (value) => value.toLowerCase().includes(text);
  }
  if (filter.kind === 'range') {
    const min = filter.min ?? Number.NEGATIVE_INFINITY;
    const max = filter.max ?? Number.POSITIVE_INFINITY;
    return (value) => {
      const v = numberOf(value, type);
      return v >= min && v <= max;
    };
  }
  const values = new Set(filter.values);
  return (value) => values.has(value);
}

/** A number's text as the filter "contains" sees it (dates as ISO text). */
function numberText(v: number, type: ColumnType): string {
  if (Number.isNaN(v)) return '';
  if (type === 'datetime') return new Date(v).toISOString();
  if (type === 'bool') return v ? 'true' : 'false';
  return String(v);
}

/** Clears `mask[id]` for each row [0, rows) the filter rejects. */
export function applyFilter(mask: Uint8Array, column: StoredColumn, type: ColumnType, filter: Filter, rows: number): void {
  if (column instanceof TextColumn) {
    const test = textTest(filter, type);
    const accept = Uint8Array.from(column.dictionary, (value) => (test(value) ? 1 : 0));
    for (let id = 0; id < rows; id++) if (mask[id] && !accept[column.get(id)]) mask[id] = 0;
    return;
  }
  let test: (v: number) => boolean;
  if (filter.kind === 'range') {
    const min = filter.min ?? Number.NEGATIVE_INFINITY;
    const max = filter.max ?? Number.POSITIVE_INFINITY;
    test = (v) => v >= min && v <= max;
  } else if (filter.kind === 'values') {
    const values = new Set(filter.values.map((value) => numberOf(value, type)).filter((v) => !Number.isNaN(v)));
    test = (v) => values.has(v);
  } else {
    const text = filter.text.toLowerCase();
    test = (v) => numberText(v, type).toLowerCase().includes(text);
  }
  for (let id = 0; id < rows; id++) if (mask[id] && !test(column.get(id))) mask[id] = 0;
}

/** Every step-th row's (x, y) of the first `rows` (or of the ids in `kept`), rows where both are present (step 1 up to `points` rows). */
export function scatterPoints(x: NumberColumn, y: NumberColumn, rows: number, points: number, kept?: Uint32Array): { x: number[]; y: number[]; step: number } {
  const n = kept ? kept.length : rows;
  const step = Math.max(1, Math.ceil(n / points));
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < n; i += step) {
    const id = kept ? kept[i] : i;
    const a = x.get(id);
    const b = y.get(id);
    if (!Number.isNaN(a) && !Number.isNaN(b)) {
      xs.push(a);
      ys.push(b);
    }
  }
  return { x: xs, y: ys, step };
}

// What a notebook's table output carries into the notebook document: its shape, its columns (typed as the
// data view types them) and the first screen of rows, within a byte budget whatever the table's size. The
// rows themselves stay in the output's file. Pure.
import { inferType } from '../dataView/columnTypes';
import type { ColumnInfo } from '../dataView/types';
import { papaparse } from '../lazyModules';

/** Rows the grid's first screen shows (one block of the grid, src/dataView/webview/grid.ts). */
export const HEAD_ROWS = 200;
/** Rows the column types are inferred from. */
const TYPE_ROWS = 1000;
/** The most characters of the first rows carried in the output item (their JSON). */
export const HEAD_BUDGET = 32 * 1024;

export interface TableHead {
  rows: number;
  columns: ColumnInfo[];
  /** The first rows, all of HEAD_ROWS (or of the table) — none when they would pass HEAD_BUDGET. */
  first: string[][];
}

/** Rows of CSV text after its header, counting line breaks outside quotes; empty lines are not rows. */
export function countCsvRows(text: string): number {
  let lines = 0;
  if (text.indexOf('"') < 0) {
    // No quotes: every non-empty line is a row (the common case, read fast).
    let at = 0;
    while (at < text.length) {
      let end = text.indexOf('\n', at);
      if (end < 0) end = text.length;
      if (end > at && !(end === at + 1 && text.charCodeAt(at) === 13)) lines++;
      at = end + 1;
    }
  } else {
    let quoted = false;
    let empty = true;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 34) quoted = !quoted;
      if (c === 10 && !quoted) {
        if (!empty) lines++;
        empty = true;
      } else if (c !== 13) empty = false;
    }
    if (!empty) lines++;
  }
  return Math.max(0, lines - 1);
}

/** The header, the types and the first rows of CSV text (read from its start only). */
export function tableHead(text: string): TableHead {
  // Enough text for TYPE_ROWS rows of up to 1 KB each; the last row read may be cut: left out.
  const slice = text.length > TYPE_ROWS * 1024 ? text.slice(0, TYPE_ROWS * 1024) : text;
  const parsed = papaparse().parse<string[]>(slice, { skipEmptyLines: true, preview: TYPE_ROWS + 1 });
  const [header = [], ...rows] = parsed.data;
  if (slice.length < text.length && rows.length < TYPE_ROWS) rows.pop();
  const columns = header.map((name, c) => ({ name, type: inferType(rows.map((r) => r[c])) }));
  let first = rows.slice(0, HEAD_ROWS);
  if (JSON.stringify(first).length > HEAD_BUDGET) first = [];
  return { rows: countCsvRows(text), columns, first };
}

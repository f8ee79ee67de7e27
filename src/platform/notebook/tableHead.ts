// What a notebook's table output carries into the notebook document: its shape, its columns (typed as the
// data view types them) and the first screen of rows, within a byte budget whatever the table's size. The
// rows themselves stay in the output's file. No vscode.
import * as fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
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

/** Counts CSV rows over chunks of bytes: line breaks outside quotes; empty lines are not rows. */
class RowCounter {
  private lines = 0;
  private quoted = false;
  private empty = true;

  add(chunk: Uint8Array): void {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (!this.quoted && bytes.indexOf(34) < 0) {
      // No quotes: line breaks found natively (the common case, several times faster).
      let at = 0;
      while (at < bytes.length) {
        const nl = bytes.indexOf(10, at);
        const end = nl < 0 ? bytes.length : nl;
        if (end > at && !(end === at + 1 && bytes[at] === 13)) this.empty = false;
        if (nl < 0) break;
        if (!this.empty) this.lines++;
        this.empty = true;
        at = nl + 1;
      }
      return;
    }
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i];
      if (c === 34) this.quoted = !this.quoted;
      if (c === 10 && !this.quoted) {
        if (!this.empty) this.lines++;
        this.empty = true;
      } else if (c !== 13) this.empty = false;
    }
  }

  /** Rows after the header. */
  rows(): number {
    return Math.max(0, this.lines + (this.empty ? 0 : 1) - 1);
  }
}

/** Rows of a CSV file after its header (read a megabyte at a time). */
export async function countCsvFileRows(file: string): Promise<number> {
  const counter = new RowCounter();
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1024 * 1024 })) counter.add(chunk as Buffer);
  return counter.rows();
}

/** The start of a CSV file as text (enough for tableHead), and whether that is all of it. */
export async function fileStart(file: string): Promise<{ text: string; whole: boolean }> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buffer = Buffer.alloc(TYPE_ROWS * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { text: new StringDecoder('utf8').write(buffer.subarray(0, bytesRead)), whole: bytesRead < buffer.length };
  } finally {
    await handle.close();
  }
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

/**
 * The header, the types and the first rows of CSV text, read from its start only. `known`: the text is the
 * start of a file (`whole`: all of it) whose rows were counted.
 */
export function tableHead(text: string, known?: { rows: number; whole: boolean }): TableHead {
  // Enough text for TYPE_ROWS rows of up to 1 KB each; the last row read may be cut: left out.
  const slice = text.length > TYPE_ROWS * 1024 ? text.slice(0, TYPE_ROWS * 1024) : text;
  const whole = known ? known.whole && slice.length === text.length : slice.length === text.length;
  const parsed = papaparse().parse<string[]>(slice, { skipEmptyLines: true, preview: TYPE_ROWS + 1 });
  const [header = [], ...sample] = parsed.data;
  if (!whole && sample.length < TYPE_ROWS && !/\n\s*$/.test(slice)) sample.pop();
  const columns = header.map((name, c) => ({ name, type: inferType(sample.map((r) => r[c])) }));
  let first = sample.slice(0, HEAD_ROWS);
  if (JSON.stringify(first).length > HEAD_BUDGET) first = [];
  return { rows: known?.rows ?? countCsvRows(text), columns, first };
}

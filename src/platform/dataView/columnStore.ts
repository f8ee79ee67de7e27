// The table's columns in memory, in compact typed arrays, filled while the file is read (dataSource.ts
// feeds it each block of rows the row index has found): numbers straight from the bytes (no string made
// for a plain decimal), ints as Int32Array until a value does not fit, bools as bytes, datetimes as
// milliseconds, text as codes into a dictionary of its distinct values. Sort, filter, summaries and
// charts (columnOps.ts) then never read the file again. Memory is bounded: a column whose next chunk
// would pass the budget, or text with more than MAX_DISTINCT distinct values, is dropped (its chunks
// freed) and rebuilt by one read of the file when an operation needs it (with no limit then), then let go. Pure.
import { type ColumnType, isMissing } from './columnTypes';
import { fieldText, scanSpans } from './fieldScanner';

export const CHUNK_BITS = 16;
export const CHUNK_ROWS = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_ROWS - 1;
/** Memory the columns may hold (typed arrays and dictionaries). */
export const COLUMN_BUDGET = 768 * 1024 * 1024;
export const MAX_DISTINCT = 1 << 20;
const INT_MISSING = -2147483648;
const BOOL_MISSING = 255;
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

type NumberChunk = Uint8Array | Int32Array | Float64Array;
/** Stores one field of row `row` (of the block being added). */
type Sink = (row: number, start: number, end: number, quoted: boolean) => void;

/** Numbers by row id (int, double, datetime as ms, bool as 0/1); NaN is missing. */
export class NumberColumn {
  readonly kind = 'number';
  chunks: NumberChunk[] = [];
  width: 'u8' | 'i32' | 'f64';
  rows = 0;

  constructor(readonly type: ColumnType) {
    this.width = type === 'bool' ? 'u8' : type === 'int' ? 'i32' : 'f64';
  }

  get(id: number): number {
    const v = this.chunks[id >>> CHUNK_BITS][id & CHUNK_MASK];
    if (this.width === 'f64') return v;
    return v === (this.width === 'i32' ? INT_MISSING : BOOL_MISSING) ? Number.NaN : v;
  }

  /** Every value in row order, as doubles. */
  toArray(n = this.rows): Float64Array {
    const out = new Float64Array(n);
    for (let id = 0; id < n; id++) out[id] = this.get(id);
    return out;
  }
}

/** Text by row id as codes into `dictionary` (code 0 is missing). */
export class TextColumn {
  readonly kind = 'text';
  chunks: (Uint16Array | Uint32Array)[] = [];
  readonly dictionary: string[] = [''];
  readonly codes = new Map<string, number>();
  dictionaryBytes = 0;
  rows = 0;

  get(id: number): number {
    return this.chunks[id >>> CHUNK_BITS][id & CHUNK_MASK];
  }
}

export type StoredColumn = NumberColumn | TextColumn;

/** A plain decimal (sign, up to 15 digits, a point) read from bytes; NaN for anything else (read as text then). */
function decimal(b: Buffer, s: number, e: number): number {
  let i = s;
  let c = b[i];
  const negative = c === 45;
  if (negative || c === 43) i++;
  let mantissa = 0;
  let digits = 0;
  let scale = 0;
  for (; i < e; i++) {
    c = b[i];
    if (c < 48 || c > 57) break;
    mantissa = mantissa * 10 + (c - 48);
    digits++;
  }
  if (i < e && b[i] === 46) {
    for (i++; i < e; i++) {
      c = b[i];
      if (c < 48 || c > 57) break;
      mantissa = mantissa * 10 + (c - 48);
      digits++;
      scale++;
    }
  }
  if (i !== e || digits === 0 || digits > 15) return Number.NaN;
  // Both exact below 2^53: one correctly rounded division (Clinger's fast path).
  const v = scale === 0 ? mantissa : mantissa / POW10[scale];
  return negative ? -v : v;
}

/** A `YYYY-MM-DD` date read from bytes as UTC milliseconds (what Date.parse gives); NaN for anything else. */
function isoDate(b: Buffer, s: number, e: number): number {
  if (e - s !== 10 || b[s + 4] !== 45 || b[s + 7] !== 45) return Number.NaN;
  const y = decimal(b, s, s + 4);
  const m = decimal(b, s + 5, s + 7);
  const d = decimal(b, s + 8, s + 10);
  if (!(m >= 1 && m <= 12 && d >= 1 && d <= 28)) return Number.NaN;
  return Date.UTC(y, m - 1, d);
}

/** The columns being filled, and the memory they hold. */
export class ColumnStore {
  readonly columns: (StoredColumn | undefined)[];
  rows = 0;
  bytes = 0;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly sinks: Sink[] = [];
  private readonly wanted: number[];
  private readonly dates = new Map<string, number>();

  constructor(
    readonly types: readonly ColumnType[],
    readonly budget = COLUMN_BUDGET,
    only?: number,
  ) {
    this.columns = types.map((type, c) => (only !== undefined && c !== only ? undefined : type === 'string' ? new TextColumn() : new NumberColumn(type)));
    this.wanted = [];
    for (const [c, column] of this.columns.entries()) {
      if (!column) continue;
      this.wanted.push(c);
      this.sinks.push(column instanceof TextColumn ? this.textSink(c, column) : this.numberSink(c, column));
    }
  }

  /** Reads `rows` rows of `buffer` (which starts at a row's start) into every kept column. */
  add(buffer: Buffer, rows: number): void {
    if (rows <= 0) return;
    this.buffer = buffer;
    const wanted = this.wanted.filter((c) => this.columns[c]);
    const sinks = wanted.map((c) => this.sinks[this.wanted.indexOf(c)]);
    const first = this.rows;
    // Each column grows by whole chunks: make room for these rows first.
    for (const c of wanted) this.reserve(c, first + rows);
    if (wanted.length > 0) scanSpans(buffer, wanted, rows, (row, w, start, end, quoted) => sinks[w](row, start, end, quoted));
    this.rows = first + rows;
    for (const column of this.columns) if (column) column.rows = this.rows;
    this.buffer = Buffer.alloc(0);
  }

  private reserve(c: number, rows: number): void {
    const column = this.columns[c] as StoredColumn;
    while (column.chunks.length * CHUNK_ROWS < rows) {
      const chunk =
        column instanceof TextColumn
          ? column.dictionary.length > 65_536
            ? new Uint32Array(CHUNK_ROWS)
            : new Uint16Array(CHUNK_ROWS)
          : column.width === 'u8'
            ? new Uint8Array(CHUNK_ROWS)
            : column.width === 'i32'
              ? new Int32Array(CHUNK_ROWS)
              : new Float64Array(CHUNK_ROWS);
      if (this.bytes + chunk.byteLength > this.budget) {
        this.drop(c);
        return;
      }
      this.bytes += chunk.byteLength;
      (column.chunks as (NumberChunk | Uint16Array | Uint32Array)[]).push(chunk);
    }
  }

  /** Frees a column: operations read it again from the file. */
  private drop(c: number): void {
    const column = this.columns[c];
    if (!column) return;
    for (const chunk of column.chunks) this.bytes -= chunk.byteLength;
    if (column instanceof TextColumn) this.bytes -= column.dictionaryBytes;
    this.columns[c] = undefined;
  }

  private numberSink(c: number, column: NumberColumn): Sink {
    const type = column.type;
    const put = (id: number, v: number) => {
      const chunk = column.chunks[id >>> CHUNK_BITS];
      if (!chunk) return; // dropped meanwhile
      const at = id & CHUNK_MASK;
      if (column.width === 'f64') chunk[at] = v;
      else if (column.width === 'u8') chunk[at] = Number.isNaN(v) ? BOOL_MISSING : v;
      else if (Number.isNaN(v)) chunk[at] = INT_MISSING;
      else if ((v | 0) === v && v !== INT_MISSING && !Object.is(v, -0)) chunk[at] = v;
      else {
        this.widen(c, column);
        (column.chunks[id >>> CHUNK_BITS] as Float64Array)[at] = v;
      }
    };
    return (row, start, end, quoted) => {
      const id = this.rows + row;
      const b = this.buffer;
      if (start === end) return put(id, Number.NaN);
      if (type === 'bool') {
        const t = b[start] | 0x20;
        return put(
          id,
          end - start === 4 && t === 0x74 && (b[start + 1] | 0x20) === 0x72 && (b[start + 2] | 0x20) === 0x75 && (b[start + 3] | 0x20) === 0x65
            ? 1
            : this.slowBool(b, start, end, quoted),
        );
      }
      let v = quoted ? Number.NaN : type === 'datetime' ? isoDate(b, start, end) : decimal(b, start, end);
      if (Number.isNaN(v)) {
        const text = fieldText(b, start, end, quoted);
        v = isMissing(text) ? Number.NaN : type === 'datetime' ? this.date(text) : Number(text.trim() || Number.NaN);
      }
      put(id, v);
    };
  }

  private slowBool(b: Buffer, start: number, end: number, quoted: boolean): number {
    const text = fieldText(b, start, end, quoted);
    return isMissing(text) ? Number.NaN : /^\s*true\s*$/i.test(text) ? 1 : 0;
  }

  private date(text: string): number {
    let ms = this.dates.get(text);
    if (ms === undefined) {
      ms = Date.parse(text);
      if (this.dates.size < 65_536) this.dates.set(text, ms);
    }
    return ms;
  }

  /** An int column met a value that is not a 32-bit int: its chunks become doubles. */
  private widen(c: number, column: NumberColumn): void {
    const chunks = column.chunks as Int32Array[];
    column.width = 'f64';
    column.chunks = [];
    for (const chunk of chunks) {
      const wide = new Float64Array(CHUNK_ROWS);
      for (let i = 0; i < CHUNK_ROWS; i++) wide[i] = chunk[i] === INT_MISSING ? Number.NaN : chunk[i];
      this.bytes += wide.byteLength - chunk.byteLength;
      column.chunks.push(wide);
    }
    if (this.bytes > this.budget) this.drop(c);
  }

  private textSink(c: number, column: TextColumn): Sink {
    return (row, start, end, quoted) => {
      const id = this.rows + row;
      const chunk = column.chunks[id >>> CHUNK_BITS];
      if (!chunk) return;
      if (start === end) {
        chunk[id & CHUNK_MASK] = 0;
        return;
      }
      const text = fieldText(this.buffer, start, end, quoted);
      let code = column.codes.get(text);
      if (code === undefined) {
        if (isMissing(text)) {
          code = 0;
          column.codes.set(text, code);
        } else {
          code = column.dictionary.length;
          column.dictionary.push(text);
          column.codes.set(text, code);
          const size = 2 * text.length + 80;
          column.dictionaryBytes += size;
          this.bytes += size;
          if (code === 65_536) this.widenCodes(column);
          if ((code >= MAX_DISTINCT && Number.isFinite(this.budget)) || this.bytes > this.budget) {
            this.drop(c);
            return;
          }
        }
      }
      (column.chunks[id >>> CHUNK_BITS] as Uint32Array)[id & CHUNK_MASK] = code;
    };
  }

  private widenCodes(column: TextColumn): void {
    column.chunks = column.chunks.map((chunk) => {
      const wide = new Uint32Array(CHUNK_ROWS);
      wide.set(chunk);
      this.bytes += wide.byteLength - chunk.byteLength;
      return wide;
    });
  }
}

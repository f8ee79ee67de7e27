// What a CSV looks like before it is pushed: parsed from a sample (the first 64 KB) with papaparse, so
// a garbage or empty file is refused before a single byte goes to the server. Pure: no vscode here.
import { open } from 'node:fs/promises';
import { papaparse } from '../lazyModules';
import { badInput } from '../../api/errors';

/** How much of a file is read to judge it. */
export const SAMPLE_BYTES = 64 * 1024;
/** In-memory text up to this size is parsed whole (an exact row count); larger text is sampled. */
const EXACT_LIMIT = 16 * 1024 * 1024;

export interface CsvShape {
  columns: number;
  /** Data rows (the header excluded): exact when `exact`, estimated from the sample otherwise. */
  rows: number;
  exact: boolean;
  /** Total size in bytes. */
  bytes: number;
  /** Rows whose field count differs from the header's, in what was parsed (shown, not refused). */
  ragged: number;
}

/** "1,234 rows × 5 columns" or "~1,200,000 rows × 5 columns". */
export function describeShape(shape: CsvShape): string {
  const rows = `${shape.exact ? '' : '~'}${shape.rows.toLocaleString('en-US')} row${shape.rows === 1 ? '' : 's'}`;
  return `${rows} × ${shape.columns} column${shape.columns === 1 ? '' : 's'}`;
}

/** Reads the first SAMPLE_BYTES of a file and its size, without reading the rest. */
export async function sampleFile(file: string): Promise<{ sample: Uint8Array; size: number }> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.min(size, SAMPLE_BYTES));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { sample: buffer.subarray(0, filled), size };
  } finally {
    await handle.close();
  }
}

/** Refuses binary data: NUL bytes, or more than 1% control characters other than tab, CR, LF, FF. */
function checkText(text: string, what: string): void {
  if (text.includes('\0')) {
    throw badInput(`${what} is not CSV text: it contains binary data (NUL bytes). Nothing was uploaded.`);
  }
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) || c === 0xfffd) control++;
  }
  if (control > Math.max(2, text.length / 100)) {
    throw badInput(`${what} is not CSV text: it looks like binary data. Nothing was uploaded.`);
  }
}

/**
 * Judges CSV text. `complete` says whether `text` is the whole CSV or a sample of `totalBytes`; a sample's
 * last line may be cut off, so it is not counted and its errors are ignored. Throws a badInput error for
 * an empty, binary or unparsable CSV.
 */
export function inspectCsv(text: string, what: string, complete: boolean, totalBytes: number): CsvShape {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') {
    throw badInput(`${what} is empty: there is no header and no data to push. Nothing was uploaded.`);
  }
  checkText(body, what);
  if (/^\s*[[{]/.test(body)) {
    throw badInput(`${what} looks like JSON, not CSV: its first line starts with "${body.trim()[0]}". Nothing was uploaded.`);
  }
  const parsed = papaparse().parse<string[]>(body, { skipEmptyLines: true });
  let rows = parsed.data;
  let errors = parsed.errors;
  if (!complete && rows.length > 1) {
    // The cut-off last line of a sample.
    rows = rows.slice(0, -1);
    errors = errors.filter((e) => e.row === undefined || e.row < rows.length);
  }
  const quoting = errors.find((e) => e.type === 'Quotes');
  if (quoting) {
    const row = quoting.row === undefined ? '' : ` (row ${quoting.row + 1})`;
    throw badInput(`${what} is not valid CSV: ${quoting.message}${row}. Nothing was uploaded.`);
  }
  const header = rows[0] ?? [];
  const columns = header.length;
  if (columns === 0 || header.every((f) => f.trim() === '')) {
    throw badInput(`${what} has no header row with column names. Nothing was uploaded.`);
  }
  const dataRows = rows.length - 1;
  const ragged = rows.slice(1).filter((r) => r.length !== columns).length;
  if (complete) {
    return { columns, rows: dataRows, exact: true, bytes: totalBytes, ragged };
  }
  // Estimate from the bytes the counted rows took in the sample (the header excluded).
  const encoder = new TextEncoder();
  const headerEnd = body.search(/\r?\n/);
  const headerBytes = headerEnd < 0 ? 0 : encoder.encode(body.slice(0, headerEnd + 1)).length;
  const lastNewline = body.lastIndexOf('\n');
  const sampledBytes = encoder.encode(body.slice(0, lastNewline + 1)).length - headerBytes;
  const estimate = dataRows > 0 && sampledBytes > 0 ? Math.round(((totalBytes - headerBytes) * dataRows) / sampledBytes) : dataRows;
  return { columns, rows: estimate, exact: false, bytes: totalBytes, ragged };
}

/** Judges CSV text held in memory: parsed whole when it is not huge. */
export function inspectText(text: string, what: string): CsvShape {
  const bytes = Buffer.byteLength(text);
  if (text.length <= EXACT_LIMIT) return inspectCsv(text, what, true, bytes);
  return inspectCsv(text.slice(0, SAMPLE_BYTES), what, false, bytes);
}

/** Judges a file on disk from its first 64 KB. */
export async function inspectFile(file: string, what: string): Promise<CsvShape> {
  const { sample, size } = await sampleFile(file);
  return inspectBytes(sample, what, size);
}

/** Judges bytes (a whole file or a sample of `totalBytes`). */
export function inspectBytes(bytes: Uint8Array, what: string, totalBytes: number): CsvShape {
  const complete = bytes.length >= totalBytes;
  // A sample may end inside a multi-byte character: the decoder's replacement at the very end is dropped.
  let text = new TextDecoder('utf-8').decode(bytes);
  if (!complete) text = text.replace(/\uFFFD+$/, '');
  return inspectCsv(text, what, complete, totalBytes);
}

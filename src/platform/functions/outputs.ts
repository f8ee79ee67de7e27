// Telling a function's outputs apart. Pure: no vscode here.
//
// The server answers one output as that value and several as an array, so an array result is read as
// several outputs (a single array-valued output looks the same; it is shown the same way).
//
// A dataframe output arrives as CSV text. A string is taken for CSV when (heuristic, kept strict so that
// ordinary text stays text):
//   - it has at least one line break and its first line is not blank and does not start like JSON;
//   - papaparse (delimiters `,` tab `;` `|`) reads its first 50 lines without quoting errors, giving a
//     header and at least one data row;
//   - with two or more header fields, every sampled row has exactly the header's number of fields;
//   - with a single header field, the header looks like a column name (a letter or `_` first, no spaces,
//     at most 64 characters) and every sampled row has one field.
// So "a,b\n1,2" is a dataframe and "Hello, world\nSecond line" is text. A header-only CSV without a line
// break is not recognised.
import { papaparse } from '../lazyModules';

const SAMPLE_LINES = 50;

export function outputsOf(result: unknown): unknown[] {
  return Array.isArray(result) ? result : [result];
}

export function looksLikeCsv(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const newline = value.indexOf('\n');
  if (newline < 0) return false;
  const header = value.slice(0, newline).replace(/\r$/, '');
  if (header.trim() === '' || /^\s*[[{]/.test(header) || header.length > 64 * 1024) return false;
  const sample = value.slice(0, 256 * 1024);
  const parsed = papaparse().parse<string[]>(sample, {
    preview: SAMPLE_LINES,
    skipEmptyLines: true,
    delimitersToGuess: [',', '\t', ';', '|'],
  });
  if (parsed.errors.some((e) => e.type === 'Quotes')) return false;
  let rows = parsed.data;
  // A sample cut short may end mid-row.
  if (sample.length < value.length && rows.length > 2) rows = rows.slice(0, -1);
  if (rows.length < 2) return false;
  const columns = rows[0].length;
  if (columns >= 2) return rows.every((r) => r.length === columns) && rows[0].some((f) => f.trim() !== '');
  return /^[\p{L}_][\p{L}\p{N}_.()-]{0,63}$/u.test(rows[0][0] ?? '') && rows.every((r) => r.length === 1);
}

/** "12 rows × 3 columns" of CSV text (parsed whole; dataframe outputs are already in memory). */
export function csvShape(csv: string): { rows: number; columns: number } {
  const parsed = papaparse().parse<string[]>(csv, { skipEmptyLines: true, delimitersToGuess: [',', '\t', ';', '|'] });
  return { rows: Math.max(0, parsed.data.length - 1), columns: parsed.data[0]?.length ?? 0 };
}

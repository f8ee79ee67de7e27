// What a dataframe output (CSV text) is, for a test's expectation: its row count, its columns with types
// inferred from their values, a checksum of its content and its rows. Pure: no vscode here.
import { createHash } from 'node:crypto';
import { papaparse } from '../lazyModules';

export type ColumnType = 'int' | 'double' | 'bool' | 'datetime' | 'string';

export interface DataframeFacts {
  rows: number;
  columns: { name: string; type: ColumnType }[];
  /** `sha256:<hex>` of the header and cells (independent of quoting and line endings). */
  checksum: string;
  /** The rows as objects, cells as text. */
  records: Record<string, string>[];
}

/** The keys a dataframe expectation may have. */
export const DATAFRAME_KEYS = ['rows', 'columns', 'checksum', 'firstRows'] as const;

const INT = /^[+-]?\d+$/;
const DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The type of a column from its values: the narrowest of int, double, bool, datetime that fits every non-empty value. */
export function columnTypeOf(values: readonly string[]): ColumnType {
  const present = values.map((v) => v.trim()).filter((v) => v !== '');
  if (present.length === 0) return 'string';
  if (present.every((v) => INT.test(v))) return 'int';
  if (present.every((v) => Number.isFinite(Number(v)))) return 'double';
  if (present.every((v) => /^(true|false)$/i.test(v))) return 'bool';
  if (present.every((v) => DATE.test(v) && !Number.isNaN(Date.parse(v)))) return 'datetime';
  return 'string';
}

/** Whether a column of type `actual` satisfies an expected type (an int column is also a double one). */
export function typeFits(expected: string, actual: ColumnType): boolean {
  const e = expected.trim().toLowerCase();
  const wanted = e === 'number' || e === 'float' || e === 'num' ? 'double' : e === 'boolean' ? 'bool' : e === 'integer' ? 'int' : e;
  return wanted === actual || (wanted === 'double' && actual === 'int');
}

export function dataframeFacts(csv: string): DataframeFacts {
  const parsed = papaparse().parse<string[]>(csv.replace(/\r\n/g, '\n'), { skipEmptyLines: true, delimitersToGuess: [',', '\t', ';', '|'] });
  const [header = [], ...body] = parsed.data;
  const columns = header.map((name, i) => ({ name, type: columnTypeOf(body.map((r) => r[i] ?? '')) }));
  const hash = createHash('sha256');
  // Cells are joined with the unit separator and rows with the record separator, which cells lose.
  const [unit, record] = [String.fromCharCode(0x1f), String.fromCharCode(0x1e)];
  for (const row of [header, ...body]) hash.update(`${row.map((c) => c.split(unit).join('').split(record).join('')).join(unit)}${record}`);
  const records = body.map((r) => Object.fromEntries(header.map((name, i) => [name, r[i] ?? ''])));
  return { rows: body.length, columns, checksum: `sha256:${hash.digest('hex')}`, records };
}

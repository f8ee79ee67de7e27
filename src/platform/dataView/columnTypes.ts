// Column types inferred from a sample of values, as Datagrok names them: int, double, bool, datetime,
// string. An empty field is a missing value and says nothing about the type. Pure.
export type ColumnType = 'int' | 'double' | 'bool' | 'datetime' | 'string';

const INT = /^[-+]?\d+$/;
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const BOOL = /^(true|false)$/i;
const DATE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
/** Words that mean "no value" in numeric columns (pandas, R and Datagrok write these). */
const MISSING_WORDS = new Set(['', 'na', 'nan', 'null', 'none', 'n/a']);

export function isMissing(value: string | undefined): boolean {
  if (value === undefined || value === '') return true;
  // Most values start with a digit or a sign: not a missing word (checked first, as scans call this per value).
  const first = value.charCodeAt(0);
  if ((first >= 48 && first <= 57) || first === 45 || first === 43) return false;
  return value.length <= 4 && MISSING_WORDS.has(value.trim().toLowerCase());
}

/** The narrowest type every non-missing value fits (int within ±2^53; int and double mix as double). */
export function inferType(values: Iterable<string | undefined>): ColumnType {
  let int = true;
  let num = true;
  let bool = true;
  let date = true;
  let seen = 0;
  for (const raw of values) {
    if (isMissing(raw)) continue;
    const v = (raw as string).trim();
    seen++;
    if (int && !(INT.test(v) && Number.isSafeInteger(Number(v)))) int = false;
    if (num && !NUMBER.test(v)) num = false;
    if (bool && !BOOL.test(v)) bool = false;
    if (date && !(DATE.test(v) && !Number.isNaN(Date.parse(v)))) date = false;
    if (!int && !num && !bool && !date) return 'string';
  }
  if (seen === 0) return 'string';
  return int ? 'int' : num ? 'double' : bool ? 'bool' : date ? 'datetime' : 'string';
}

export function isNumeric(type: ColumnType): boolean {
  return type === 'int' || type === 'double' || type === 'datetime';
}

/** A value as a number for sorting, ranges and charts (datetimes as milliseconds); NaN when missing or not a number. */
export function numberOf(value: string | undefined, type: ColumnType): number {
  if (isMissing(value)) return Number.NaN;
  if (type === 'datetime') return Date.parse(value as string);
  if (type === 'bool') return /^true$/i.test((value as string).trim()) ? 1 : 0;
  return Number(value);
}

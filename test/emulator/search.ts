// Datagrok "smart search" (`text=` of the list routes), the subset real clients use, on any record:
//   name contains "chem"    name = "Chemists"    name starts with "Ch"    source = "script"
//   personal = false        hidden = true        createdOn > -1w         createdOn < 2024-01-01
//   #demo                   (a tag)              plain words             (substring of name, friendly name or nqName)
// Any string field of the record can be compared (field names case-insensitive); booleans with = / !=.
// Conditions may be joined with `and`.

/** What a record offers to the search: its fields (strings, booleans, dates as ISO strings) and tags. */
export type Searchable = object & { name: string; friendlyName?: string; tags?: string[] };

const FIELD = /^([A-Za-z#]+)\s+(contains|starts\s+with|ends\s+with)\s+(.+)$/i;
const COMPARE = /^([A-Za-z#]+)\s*(>=|<=|!=|=|>|<)\s*(.+)$/i;

export function searchMatches(text: string, record: Searchable): boolean {
  return text
    .split(/\s+and\s+/i)
    .map((c) => c.trim())
    .filter(Boolean)
    .every((condition) => conditionMatches(condition, record));
}

function unquote(s: string): string {
  const t = s.trim();
  return /^(".*"|'.*')$/.test(t) ? t.slice(1, -1) : t;
}

/** The record's field of that name, case-insensitively. */
function field(record: Searchable, name: string): unknown {
  const lower = name.toLowerCase();
  const key = Object.keys(record).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : (record as Record<string, unknown>)[key];
}

function conditionMatches(condition: string, record: Searchable): boolean {
  let m = FIELD.exec(condition);
  if (m && typeof field(record, m[1]) === 'string') {
    const value = String(field(record, m[1])).toLowerCase();
    const wanted = unquote(m[3]).toLowerCase();
    const op = m[2].toLowerCase().replace(/\s+/g, ' ');
    if (op === 'contains') return value.includes(wanted);
    if (op === 'starts with') return value.startsWith(wanted);
    return value.endsWith(wanted);
  }
  m = COMPARE.exec(condition);
  if (m) {
    const actual = field(record, m[1]);
    const op = m[2];
    const wanted = unquote(m[3]);
    if (typeof actual === 'boolean' && /^(true|false)$/i.test(wanted) && (op === '=' || op === '!=')) {
      const equal = actual === (wanted.toLowerCase() === 'true');
      return op === '=' ? equal : !equal;
    }
    const isDate = /^(createdon|updatedon)$/i.test(m[1]);
    if (isDate && typeof actual === 'string') {
      const when = parseWhen(wanted);
      if (when !== undefined) return compareDates(Date.parse(actual), op, when);
    }
    if (typeof actual === 'string' && (op === '=' || op === '!=')) {
      const equal = actual.toLowerCase() === wanted.toLowerCase();
      return op === '=' ? equal : !equal;
    }
  }
  if (condition.startsWith('#')) {
    const tag = condition.slice(1).toLowerCase();
    return (record.tags ?? []).some((t) => t.toLowerCase() === tag);
  }
  const word = unquote(condition).toLowerCase();
  const names = [record.name, record.friendlyName, field(record, 'nqName')].filter((x): x is string => typeof x === 'string');
  return names.some((n) => n.toLowerCase().includes(word));
}

function compareDates(actual: number, op: string, when: number): boolean {
  if (op === '>') return actual > when;
  if (op === '<') return actual < when;
  if (op === '>=') return actual >= when;
  if (op === '<=') return actual <= when;
  if (op === '!=') return new Date(actual).toDateString() !== new Date(when).toDateString();
  return new Date(actual).toDateString() === new Date(when).toDateString();
}

const UNIT_MS: Record<string, number> = { h: 3600e3, d: 86400e3, w: 7 * 86400e3, m: 30 * 86400e3, y: 365 * 86400e3 };

/** `-1w`, `-3d`, `-2h` relative to now, or an absolute date. */
function parseWhen(s: string): number | undefined {
  const rel = /^-(\d+)([hdwmy])$/i.exec(s);
  if (rel) return Date.now() - Number(rel[1]) * UNIT_MS[rel[2].toLowerCase()];
  const abs = Date.parse(unquote(s));
  return Number.isNaN(abs) ? undefined : abs;
}

/** The records matching `text` (all when it is empty). */
export function search<T extends Searchable>(records: Iterable<T>, text: string | null): T[] {
  const all = [...records];
  return text?.trim() ? all.filter((r) => searchMatches(text, r)) : all;
}

// Datagrok "smart search" for GET /groups?text=..., the subset real clients use:
//   name contains "chem"    name = "Chemists"    name starts with "Ch"    friendlyName contains "x"
//   personal = false        hidden = true        createdOn > -1w         createdOn < 2024-01-01
//   plain words             (substring of name or friendly name)
// Conditions may be joined with `and`.
import type { GroupRecord } from './groups';

const FIELD = /^(name|friendlyname|description)\s+(contains|starts\s+with|ends\s+with|=|!=)\s+(.+)$/i;
const FLAG = /^(personal|hidden)\s*(=|!=)\s*(true|false)$/i;
const DATE = /^(createdon|updatedon)\s*(>=|<=|>|<|=)\s*(\S+)$/i;

export function searchMatches(text: string, g: GroupRecord): boolean {
  return text
    .split(/\s+and\s+/i)
    .map((c) => c.trim())
    .filter(Boolean)
    .every((condition) => conditionMatches(condition, g));
}

function unquote(s: string): string {
  const t = s.trim();
  return /^(".*"|'.*')$/.test(t) ? t.slice(1, -1) : t;
}

function conditionMatches(condition: string, g: GroupRecord): boolean {
  let m = FIELD.exec(condition);
  if (m) {
    const key = m[1].toLowerCase();
    const value = (key === 'name' ? g.name : key === 'friendlyname' ? g.friendlyName : g.description).toLowerCase();
    const wanted = unquote(m[3]).toLowerCase();
    const op = m[2].toLowerCase().replace(/\s+/g, ' ');
    if (op === 'contains') return value.includes(wanted);
    if (op === 'starts with') return value.startsWith(wanted);
    if (op === 'ends with') return value.endsWith(wanted);
    if (op === '=') return value === wanted;
    return value !== wanted;
  }
  m = FLAG.exec(condition);
  if (m) {
    const actual = m[1].toLowerCase() === 'personal' ? g.personal : g.hidden;
    const equal = actual === (m[3].toLowerCase() === 'true');
    return m[2] === '=' ? equal : !equal;
  }
  m = DATE.exec(condition);
  if (m) {
    const when = parseWhen(m[3]);
    if (when !== undefined) {
      const actual = Date.parse(m[1].toLowerCase() === 'createdon' ? g.createdOn : g.updatedOn);
      const op = m[2];
      if (op === '>') return actual > when;
      if (op === '<') return actual < when;
      if (op === '>=') return actual >= when;
      if (op === '<=') return actual <= when;
      return new Date(actual).toDateString() === new Date(when).toDateString();
    }
  }
  if (condition.startsWith('#')) return false; // tags: no group in the emulator has any
  const word = unquote(condition).toLowerCase();
  return g.name.toLowerCase().includes(word) || g.friendlyName.toLowerCase().includes(word);
}

const UNIT_MS: Record<string, number> = { h: 3600e3, d: 86400e3, w: 7 * 86400e3, m: 30 * 86400e3, y: 365 * 86400e3 };

/** `-1w`, `-3d`, `-2h` relative to now, or an absolute date. */
function parseWhen(s: string): number | undefined {
  const rel = /^-(\d+)([hdwmy])$/i.exec(s);
  if (rel) return Date.now() - Number(rel[1]) * UNIT_MS[rel[2].toLowerCase()];
  const abs = Date.parse(unquote(s));
  return Number.isNaN(abs) ? undefined : abs;
}

// A small scanner of JavaScript/TypeScript text, enough for what the annotations need: where a bracket
// closes (strings, template literals and comments skipped), a parameter list split into its parameters,
// and an object literal of plain values (what `@grok.decorators.*({...})` is given, as func-gen-plugin's
// `_evalLiteral` reads it). Not a parser: TypeScript's compiler is not bundled, and these are the few
// shapes Datagrok reads. Offsets are into the text given. Pure.

const PAIRS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** The offset after a string, template literal or comment starting at `i`; `i` itself when none starts there. */
export function skipNonCode(text: string, i: number): number {
  const c = text[i];
  if (c === '/' && text[i + 1] === '/') {
    const end = text.indexOf('\n', i);
    return end < 0 ? text.length : end;
  }
  if (c === '/' && text[i + 1] === '*') {
    const end = text.indexOf('*/', i + 2);
    return end < 0 ? text.length : end + 2;
  }
  if (c === '"' || c === "'") {
    for (let j = i + 1; j < text.length; j++) {
      if (text[j] === '\\') j++;
      else if (text[j] === c || text[j] === '\n') return j + 1;
    }
    return text.length;
  }
  if (c === '`') {
    for (let j = i + 1; j < text.length; j++) {
      if (text[j] === '\\') j++;
      else if (text[j] === '`') return j + 1;
      else if (text[j] === '$' && text[j + 1] === '{') {
        const end = closingOf(text, j + 1);
        if (end < 0) return text.length;
        j = end;
      }
    }
    return text.length;
  }
  return i;
}

/** The offset of the bracket closing the one at `open`, or -1 when it is not closed. */
export function closingOf(text: string, open: number): number {
  const stack: string[] = [];
  for (let i = open; i < text.length; i++) {
    const skipped = skipNonCode(text, i);
    if (skipped !== i) {
      i = skipped - 1;
      continue;
    }
    const c = text[i];
    if (PAIRS[c]) stack.push(PAIRS[c]);
    else if (c === ')' || c === ']' || c === '}') {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/** `text` from `from` to `to` split at the top-level `separator`s, each part with its offset. */
export function splitTopLevel(text: string, from: number, to: number, separator = ','): { text: string; start: number }[] {
  const parts: { text: string; start: number }[] = [];
  let start = from;
  let depth = 0;
  for (let i = from; i < to; i++) {
    const skipped = skipNonCode(text, i);
    if (skipped !== i) {
      i = skipped - 1;
      continue;
    }
    const c = text[i];
    if (c === '(' || c === '[' || c === '{' || c === '<') depth++;
    else if (c === ')' || c === ']' || c === '}' || (c === '>' && text[i - 1] !== '=')) depth--;
    else if (c === separator && depth === 0) {
      parts.push({ text: text.slice(start, i), start });
      start = i + 1;
    }
  }
  if (text.slice(start, to).trim()) parts.push({ text: text.slice(start, to), start });
  return parts;
}

/** A plain value as func-gen-plugin evaluates it: strings, numbers, booleans, arrays, objects; other code as its text. */
export type PlainValue = string | number | boolean | null | PlainValue[] | ObjectLiteral;

export interface LiteralEntry {
  key: string;
  keyStart: number;
  keyEnd: number;
  value: PlainValue;
  valueStart: number;
  valueEnd: number;
}

export interface ObjectLiteral {
  start: number;
  /** The offset of the closing `}` (or the text's end when it is not closed yet). */
  end: number;
  entries: LiteralEntry[];
}

function unquoted(text: string): string {
  return text.slice(1, -1).replace(/\\(.)/g, '$1');
}

/** The value written at `text.slice(start, end)`. */
export function plainValue(text: string, start: number, end: number): PlainValue {
  const raw = text.slice(start, end).trim();
  const at = start + (text.slice(start, end).length - text.slice(start, end).trimStart().length);
  if (/^(['"`]).*\1$/s.test(raw)) return unquoted(raw);
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (raw === 'null' || raw === 'undefined') return null;
  if (raw !== '' && Number.isFinite(Number(raw))) return Number(raw);
  if (raw.startsWith('{')) return objectLiteral(text, at);
  if (raw.startsWith('[')) {
    const close = closingOf(text, at);
    return splitTopLevel(text, at + 1, close < 0 ? end : close).map((p) => plainValue(text, p.start, p.start + p.text.length));
  }
  return raw;
}

/** The object literal whose `{` is at `open`: its `key: value` entries (quoted keys unquoted). */
export function objectLiteral(text: string, open: number): ObjectLiteral {
  const close = closingOf(text, open);
  const end = close < 0 ? text.length : close;
  const entries: LiteralEntry[] = [];
  for (const part of splitTopLevel(text, open + 1, end)) {
    const m = /^(\s*)(?:(['"])((?:[^\\]|\\.)*?)\2|([\w$.-]+))\s*(:?)/.exec(part.text);
    if (!m?.[3] && !m?.[4]) continue;
    const keyStart = part.start + m[1].length;
    const keyEnd = keyStart + (m[3] !== undefined ? m[3].length + 2 : m[4].length);
    const key = m[3] ?? m[4];
    const valueStart = part.start + m[0].length;
    const valueEnd = part.start + part.text.trimEnd().length;
    // `{ name }` (a shorthand) has no value of its own.
    entries.push({ key, keyStart, keyEnd, value: m[5] ? plainValue(text, valueStart, valueEnd) : key, valueStart, valueEnd });
  }
  return { start: open, end, entries };
}

export function isObjectLiteral(value: PlainValue | undefined): value is ObjectLiteral {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The 0-based line and column of each offset, by a table of line starts made once per text. */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }
  at(offset: number): { line: number; character: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - this.starts[lo] };
  }
  offset(line: number, character = 0): number {
    return (this.starts[line] ?? this.starts[this.starts.length - 1]) + character;
  }
}

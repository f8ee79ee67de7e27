// What both conversions of a package function share (comments → decorator in toDecorator.ts, decorator →
// comments in toComments.ts): the edit they return, where a function's code ends, the class a method is
// in, and JS literals written the way Datagrok's packages write them. Pure: offsets into the file's text.
import type { PackageFunction } from './functionModel';
import { closingOf, splitTopLevel } from './jsScan';

/** Replaces `start`..`end` of the text with `text`. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** A conversion: its edits, or why the function cannot be converted without changing what it declares. */
export type Conversion = { edits: TextEdit[] } | { refused: string };

/** The offsets of a function's (or method's) parameters, its code after them, and the end of its body. */
export function codeOf(text: string, f: PackageFunction): { paramsOpen: number; paramsClose: number; bodyOpen: number; bodyClose: number } | undefined {
  if (f.paramsOpen === undefined) return undefined;
  const paramsClose = closingOf(text, f.paramsOpen);
  if (paramsClose < 0) return undefined;
  let bodyOpen = paramsClose + 1;
  // Past a return type (which may hold braces of its own: `Promise<{a: string}>`) to the body's `{`.
  for (let depth = 0; bodyOpen < text.length; bodyOpen++) {
    const c = text[bodyOpen];
    if (c === '<') depth++;
    else if (c === '>' && text[bodyOpen - 1] !== '=') depth--;
    else if (c === '{' && depth <= 0) break;
    else if (c === '{') bodyOpen = Math.max(bodyOpen, closingOf(text, bodyOpen));
    else if (c === ';') return undefined;
  }
  const bodyClose = closingOf(text, bodyOpen);
  return bodyClose < 0 ? undefined : { paramsOpen: f.paramsOpen, paramsClose, bodyOpen, bodyClose };
}

/** The parameters' texts as written, without their decorators. */
export function paramTexts(text: string, open: number, close: number): string[] {
  return splitTopLevel(text, open + 1, close).map((p) => {
    let t = p.text.trim();
    for (;;) {
      const m = /^@[\w.$]+\s*/.exec(t);
      if (!m) return t;
      t = t.slice(m[0].length);
      if (t.startsWith('(')) t = t.slice(closingOf(t, 0) + 1).trim();
    }
  });
}

/** The class whose body holds `offset`: its first offset, the offsets of its `{` and `}`, and its name. */
export function enclosingClass(text: string, offset: number): { start: number; open: number; close: number; name: string } | undefined {
  let found: { start: number; open: number; close: number; name: string } | undefined;
  for (const m of text.matchAll(/^[ \t]*(?:export\s+)?(?:default\s+)?class\s+([A-Za-z_$][\w$]*)[^{]*\{/gm)) {
    const start = m.index ?? 0;
    if (start > offset) break;
    const open = start + m[0].length - 1;
    const close = closingOf(text, open);
    if (close > offset) found = { start, open, close, name: m[1] };
  }
  return found;
}

/** The offset where line `offset` is on starts. */
export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset after the line break ending the line `offset` is on. */
export function lineEnd(text: string, offset: number): number {
  const end = text.indexOf('\n', offset);
  return end < 0 ? text.length : end + 1;
}

/** `end` past the blank line after a removed block when a blank line is before it too (one blank line stays). */
export function extendOverBlankLine(text: string, start: number, end: number): number {
  const blankBefore = start === 0 || /\n\s*\n$/.test(text.slice(Math.max(0, start - 200), start)) || /^\s*\n$/.test(text.slice(0, start));
  const next = /^[ \t]*\n/.exec(text.slice(end, end + 200));
  return blankBefore && next ? end + next[0].length : end;
}

/** Lines shifted right (`by` > 0) or left by `by` spaces, blank lines left empty. */
export function indent(code: string, by: number): string {
  return code
    .split('\n')
    .map((line, i) => {
      if (i === 0 || line.trim() === '') return i === 0 ? line : line.trimEnd();
      if (by >= 0) return ' '.repeat(by) + line;
      const lead = line.length - line.trimStart().length;
      return line.slice(Math.min(lead, -by));
    })
    .join('\n');
}

/** A key of an object literal: bare when it can be, else quoted. */
export function jsKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : `'${key}'`;
}

/** A string as a single-quoted JS literal. */
export function jsString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** An annotation option's value as JS: numbers, booleans and lists as written, the rest as a string. */
export function jsValue(written: string): string {
  const t = written.trim();
  if (/^(true|false|-?\d+(\.\d+)?)$/.test(t)) return t;
  if (/^\[.*\]$/.test(t)) {
    try {
      return JSON.stringify(JSON.parse(t)).replace(/"/g, "'");
    } catch {
      return jsString(t);
    }
  }
  return jsString(/^(['"]).*\1$/.test(t) ? t.slice(1, -1) : t);
}

/** `{a: 1, b: 'x'}` of entries already written as JS. */
export function jsObject(entries: [string, string][]): string {
  return `{${entries.map(([k, v]) => `${jsKey(k)}: ${v}`).join(', ')}}`;
}

// Reading a JSON document (dashboard layout, parameter file) with comments allowed, and saying exactly
// where it is broken. Pure: no vscode here.
// The ESM build: the package's UMD main requires './impl/format' at run time, which the bundle lacks.
import type { ParseError } from 'jsonc-parser';
import { badInput } from '../api/errors';
import { jsoncParser } from '../platform/lazyModules';

/** Line and column (1-based) of an offset in text. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return { line, column };
}

/** Parses JSON with comments and trailing commas allowed; the root must be an object. */
export function parseJsonObject(text: string, what: string): Record<string, unknown> {
  const errors: ParseError[] = [];
  const { parse, printParseErrorCode } = jsoncParser();
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  if (errors.length > 0) {
    const first = errors[0];
    const { line, column } = positionOf(text, first.offset);
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? 's' : ''})` : '';
    throw badInput(`${what} is not valid JSON: ${printParseErrorCode(first.error)} at line ${line}, column ${column}${more}.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badInput(`${what} must contain a JSON object ({ … }).`);
  }
  return value as Record<string, unknown>;
}

/** A change to a text: `length` characters at `offset` replaced by `content`. */
export interface TextChange {
  offset: number;
  length: number;
  content: string;
}

/** The change without the characters it would leave as they are at its start and end. */
function trimmed(text: string, change: TextChange): TextChange {
  const old = text.slice(change.offset, change.offset + change.length);
  let start = 0;
  while (start < old.length && start < change.content.length && old[start] === change.content[start]) start++;
  let end = 0;
  while (end < old.length - start && end < change.content.length - start && old[old.length - 1 - end] === change.content[change.content.length - 1 - end]) end++;
  return { offset: change.offset + start, length: old.length - start - end, content: change.content.slice(start, change.content.length - end) };
}

/**
 * The smallest changes that set each path's value in JSONC text (the key added where there is none),
 * comments and the rest of the text kept: one change per value, in the text's order, all against `text`
 * itself (so an editor applies them at once and one Undo reverts them). Paths that touch the same part
 * of the text are set one after the other, as one change.
 */
export function valueChanges(text: string, writes: readonly { path: (string | number)[]; value: unknown }[]): TextChange[] {
  const { applyEdits, modify } = jsoncParser();
  const indent = /\n( +)["{]/.exec(text)?.[1].length ?? 2;
  const formattingOptions = { insertSpaces: true, tabSize: Math.min(indent, 4), eol: text.includes('\r\n') ? '\r\n' : '\n' };
  const changes = writes
    .flatMap((w) => modify(text, w.path, w.value, { formattingOptions }))
    .map((c) => trimmed(text, c))
    .filter((c) => c.length > 0 || c.content !== '')
    .sort((a, b) => a.offset - b.offset);
  if (changes.every((c, i) => i === 0 || changes[i - 1].offset + changes[i - 1].length < c.offset)) return changes;
  let next = text;
  for (const w of writes) next = applyEdits(next, modify(next, w.path, w.value, { formattingOptions }));
  if (next === text) return [];
  return [trimmed(text, { offset: 0, length: text.length, content: next })];
}

// Where the cursor is in a header line: before the key, in a value, at an input's type, inside its
// options. Pure; the completion of script headers and of package annotations reads it.
import type { CommentPrefix } from './header';

export type HeaderSpot =
  | { kind: 'key'; typed: string; start: number }
  | { kind: 'value'; key: string; typed: string; start: number }
  | { kind: 'type'; direction: 'input' | 'output'; typed: string; start: number }
  | { kind: 'option'; typed: string; start: number }
  | { kind: 'none' };

/** Whether line `line` is in the text's first comment block (blank lines before it skipped). */
export function inFirstCommentBlock(lines: readonly string[], line: number, prefix: CommentPrefix): boolean {
  let first = 0;
  while (first < lines.length && (lines[first].trim() === '' || (first === 0 && lines[0].startsWith('#!')))) first++;
  for (let i = first; i <= line; i++) if (!lines[i]?.trimStart().startsWith(prefix)) return false;
  return line >= first;
}

/** What the text of a header line before the cursor (`before`) is completing. */
export function headerSpot(before: string, prefix: CommentPrefix): HeaderSpot {
  const at = before.indexOf(prefix);
  if (at < 0 || before.slice(0, at).trim() !== '') return { kind: 'none' };
  const rest = before.slice(at + prefix.length);
  const keyOnly = /^\s*([\w.-]*)$/.exec(rest);
  if (keyOnly) return { kind: 'key', typed: keyOnly[1], start: before.length - keyOnly[1].length };
  const entry = /^\s*([\w.-]+)\s*:\s*/.exec(rest);
  if (!entry) return { kind: 'none' };
  const key = entry[1];
  const value = rest.slice(entry[0].length);
  if (key === 'input' || key === 'output') {
    const type = /^([\w<>]*)$/.exec(value);
    if (type) return { kind: 'type', direction: key, typed: type[1], start: before.length - type[1].length };
    const open = value.lastIndexOf('{');
    if (open >= 0 && value.indexOf('}', open) < 0) {
      const option = /(?:^|[{;,])\s*([\w]*)$/.exec(value.slice(open));
      if (option) return { kind: 'option', typed: option[1], start: before.length - option[1].length };
    }
    return { kind: 'none' };
  }
  return { kind: 'value', key, typed: value, start: before.length - value.length };
}

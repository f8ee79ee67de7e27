// Where the cursor is in a decorator, for completion: after `@grok.decorators.` (a decorator's name), at a
// key of its options object (the function's options, `meta`'s, a `@grok.decorators.param`'s or its
// `options`'), or in the string value of `role`. Pure: `offset` into the file's text.
import { closingOf, skipNonCode } from './jsScan';

export type DecoratorSpot =
  | { kind: 'decorator'; typed: string; start: number }
  | { kind: 'key'; object: 'function' | 'param' | 'meta' | 'paramOptions'; typed: string; start: number; quoted: boolean }
  | { kind: 'role'; typed: string; start: number }
  | { kind: 'none' };

const NONE: DecoratorSpot = { kind: 'none' };
const REACH = 4000;

export function decoratorSpot(text: string, offset: number): DecoratorSpot {
  const from = Math.max(0, offset - REACH);
  const before = text.slice(from, offset);
  const name = /@grok\.decorators\.(\w*)$/.exec(before);
  if (name) return { kind: 'decorator', typed: name[1], start: offset - name[1].length };
  const at = before.lastIndexOf('@grok.decorators.');
  if (at < 0) return NONE;
  const call = /^@grok\.decorators\.(\w+)\s*\(/.exec(before.slice(at));
  if (!call) return NONE;
  const paren = from + at + call[0].length - 1;
  const close = closingOf(text, paren);
  if (close >= 0 && close < offset) return NONE;
  // The objects open at the cursor, each with the key it is the value of.
  const stack: (string | undefined)[] = [];
  let itemStart = paren + 1;
  for (let i = paren + 1; i < offset; i++) {
    const skipped = skipNonCode(text, i);
    if (skipped !== i) {
      if (skipped > offset) {
        // In a string: a role's value is completed.
        const key = /['"]?([\w.-]+)['"]?\s*:\s*$/.exec(text.slice(itemStart, i))?.[1];
        const typed = text.slice(i + 1, offset);
        if (key === 'role' && /^[\w,\s-]*$/.test(typed)) {
          const last = typed.lastIndexOf(',') + 1;
          return { kind: 'role', typed: typed.slice(last).trimStart(), start: offset - typed.slice(last).trimStart().length };
        }
        return NONE;
      }
      i = skipped - 1;
      continue;
    }
    const c = text[i];
    if (c === '{') {
      stack.push(/['"]?([\w.-]+)['"]?\s*:\s*$/.exec(text.slice(itemStart, i))?.[1]);
      itemStart = i + 1;
    } else if (c === '}') {
      stack.pop();
      itemStart = i + 1;
    } else if (c === ',') itemStart = i + 1;
    else if (c === '[' || c === '(') {
      const end = closingOf(text, i);
      if (end < 0 || end >= offset) return NONE;
      i = end;
    }
  }
  if (stack.length === 0) return NONE;
  const typing = /^\s*(['"]?)([\w.-]*)$/.exec(text.slice(itemStart, offset));
  if (!typing) return NONE;
  const isParam = call[1] === 'param';
  const inner = stack[stack.length - 1];
  let object: 'function' | 'param' | 'meta' | 'paramOptions' | undefined;
  if (stack.length === 1) object = isParam ? 'param' : 'function';
  else if (stack.length === 2 && inner === 'meta' && !isParam) object = 'meta';
  else if (stack.length === 2 && inner === 'options' && isParam) object = 'paramOptions';
  if (!object) return NONE;
  return { kind: 'key', object, typed: typing[2], start: offset - typing[2].length, quoted: typing[1] !== '' };
}

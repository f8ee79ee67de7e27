// A package's functions as written in one JS/TS file, in one model whichever way they are annotated: a
// `//` comment block above an exported function (read by the script-header grammar, annotations.ts), or a
// `@grok.decorators.<kind>({...})` on a class's static method or on a class (decorators.ts, read as
// datagrok-tools' func-gen-plugin reads them). Each function knows its JS parameters and return type, so
// the rules can hold the annotation to the code below it. Pure; lines 0-based.
import type { HeaderParam, ScriptHeader } from '../scripts/header';
import { closingOf, type LineIndex, type ObjectLiteral, objectLiteral, splitTopLevel } from './jsScan';

export interface DecoratorCall {
  /** `func`, `panel`, `fileViewer`…: the name after `grok.decorators.`. */
  kind: string;
  line: number;
  /** Columns of the kind's name. */
  start: number;
  end: number;
  /** Offsets of the `@` and of the call's `)`. */
  at: number;
  close: number;
  options?: ObjectLiteral;
  /** What it decorates. */
  target: 'method' | 'class';
  /** The method's modifiers as written (`static async `). */
  modifiers: string;
}

/** A parameter of the JS function, as written. */
export interface JsParam {
  name: string;
  /** The TypeScript type as written, when one is. */
  type?: string;
  optional: boolean;
  rest: boolean;
  line: number;
  /** Columns of the name on its line. */
  start: number;
  end: number;
  /** `@grok.decorators.param({...})` of a method's parameter. */
  decorator?: ObjectLiteral;
}

export interface PackageFunction {
  form: 'comment' | 'decorator';
  /** The name the platform knows it by: the annotation's `name`, else the JS name. */
  name: string;
  /** The JS function's (or method's, or class's) name, and where it is written. */
  declared: { name: string; line: number; start: number; end: number };
  /** The annotation's lines: the comment block, or the decorator call. */
  firstLine: number;
  lastLine: number;
  tags: string[];
  /** `meta.role` values and the role a role decorator gives. */
  roles: string[];
  description?: string;
  inputs: HeaderParam[];
  outputs: HeaderParam[];
  params: JsParam[];
  returnType?: string;
  /** The offset of the `(` of the JS parameters (none for a decorated class). */
  paramsOpen?: number;
  header?: ScriptHeader;
  decorator?: DecoratorCall;
}

export function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/** The parameters between the `(` at `open` and its `)`, and the return type written after it. */
export function jsSignature(text: string, open: number, index: LineIndex): { params: JsParam[]; returnType?: string; close: number } {
  const close = closingOf(text, open);
  const end = close < 0 ? text.length : close;
  const params: JsParam[] = [];
  for (const part of splitTopLevel(text, open + 1, end)) {
    let at = part.start;
    let rest = part.text;
    let decorator: ObjectLiteral | undefined;
    for (;;) {
      const m = /^\s*@[\w.]+\s*\(/.exec(rest);
      if (!m) break;
      const paren = at + m[0].length - 1;
      const brace = text.slice(paren + 1, paren + 200).search(/\S/) + paren + 1;
      if (text[brace] === '{') decorator = objectLiteral(text, brace);
      const closeParen = closingOf(text, paren);
      if (closeParen < 0) break;
      rest = text.slice(closeParen + 1, part.start + part.text.length);
      at = closeParen + 1;
    }
    const lead = rest.length - rest.trimStart().length;
    if (/^[{[]/.test(rest.trimStart())) {
      // A destructured parameter: the generator names it `value`.
      const pos = index.at(at + lead);
      params.push({ name: 'value', optional: false, rest: false, line: pos.line, start: pos.character, end: pos.character + 1, decorator });
      continue;
    }
    const m = /^(\s*(?:(?:public|private|protected|readonly)\s+)*)(\.\.\.)?\s*([A-Za-z_$][\w$]*)\s*(\?)?\s*(?::\s*([^=]+?))?\s*(=.*)?$/s.exec(rest);
    if (!m) continue;
    const afterDots = rest.slice(m[1].length + (m[2] ? 3 : 0));
    const pos = index.at(at + rest.length - afterDots.trimStart().length);
    params.push({
      name: m[3],
      type: m[5]?.trim(),
      optional: !!m[4] || !!m[6] || /\|\s*undefined\s*$/.test(m[5] ?? ''),
      rest: !!m[2],
      line: pos.line,
      start: pos.character,
      end: pos.character + m[3].length,
      decorator,
    });
  }
  let returnType: string | undefined;
  if (close >= 0) {
    const after = /^\s*:\s*/.exec(text.slice(close + 1, close + 500));
    if (after) {
      const from = close + 1 + after[0].length;
      const stop = text.slice(from, from + 500).search(/\s*(\{|=>|;|$)/m);
      returnType = text.slice(from, stop < 0 ? undefined : from + stop).trim() || undefined;
    }
  }
  return { params, returnType, close };
}

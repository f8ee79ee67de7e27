// A Datagrok script's or query's header: the first comment block, `#name:`, `#language:`,
// `#input: <type> <name> [= initial] [{options}] [[description]]`, `#output: ...` (the function-parameter
// annotation format, datagrok-ai/public help/datagrok/concepts/functions/func-params-annotation.md).
// `#` for Python, R, Julia and Octave, `//` for JavaScript, `--` for SQL. Pure: no vscode here; positions
// are 0-based lines and UTF-16 columns, for the editor's features to place what they show.
// The words it is made of are in vocabulary.ts; what a header declares as a function, in signature.ts.
import type { CommentPrefix } from './vocabulary';

export type { CommentPrefix };

/** A `key: value` line of the header. */
export interface HeaderEntry {
  key: string;
  value: string;
  line: number;
  /** Columns of the key (after the comment prefix) and of the value. */
  keyStart: number;
  keyEnd: number;
  valueStart: number;
}

export interface HeaderParam {
  direction: 'input' | 'output';
  /** As written, e.g. `list<string>`. */
  type: string;
  /** The type without its element type: `list`. */
  baseType: string;
  name: string;
  /** The initial value as written (after `=`), and as a JSON value of the parameter's type. */
  initialText?: string;
  initial?: unknown;
  /** The options (`{...}`), each value as written; `choices` also as a list when it is one. */
  options: Record<string, string>;
  choices?: string[];
  description?: string;
  line: number;
  typeStart: number;
  typeEnd: number;
  nameStart: number;
  nameEnd: number;
}

export interface HeaderProblem {
  line: number;
  start: number;
  end: number;
  message: string;
}

export interface ScriptHeader {
  prefix: CommentPrefix;
  /** The header's lines: from `firstLine` to `lastLine` (inclusive). */
  firstLine: number;
  lastLine: number;
  entries: HeaderEntry[];
  inputs: HeaderParam[];
  outputs: HeaderParam[];
  /** The first value of a key (`name`, `language`, `connection`, `meta.x`…), when present. */
  value(key: string): string | undefined;
  /** What does not follow the format (the types and names are checked by `headerProblems`). */
  problems: HeaderProblem[];
}

/** Keys that make a comment block a Datagrok header. */
const HEADER_MARKERS = new Set(['name', 'language', 'input', 'output', 'connection']);
const ENTRY = /^(\s*)([A-Za-z][\w.-]*)\s*:/;

/** The index of the character closing the bracket at `start`, honoring quotes and nesting; -1 if none. */
function closing(text: string, start: number): number {
  const stack: string[] = [];
  const pairs: Record<string, string> = { '{': '}', '[': ']', '(': ')' };
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (pairs[c]) {
      stack.push(pairs[c]);
    } else if (c === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/** Splits `{a: 1; b: [2, 3], c: x}` into its options: `;` always separates, `,` when a key follows. */
export function parseOptions(inner: string): Record<string, string> {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '"' || c === "'") {
      const end = inner.indexOf(c, i + 1);
      if (end >= 0) i = end;
    } else if ('{[('.includes(c)) depth++;
    else if ('}])'.includes(c)) depth--;
    else if (depth === 0 && (c === ';' || (c === ',' && /^\s*[A-Za-z][\w.]*\s*:/.test(inner.slice(i + 1))))) {
      parts.push(inner.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(inner.slice(from));
  const options: Record<string, string> = {};
  for (const part of parts) {
    const colon = part.indexOf(':');
    if (colon < 0) {
      if (part.trim()) options[part.trim()] = 'true';
      continue;
    }
    options[part.slice(0, colon).trim()] = part.slice(colon + 1).trim();
  }
  return options;
}

/** `["A", 'B']` as a list of strings; undefined for choices a function or query gives. */
export function choiceList(value: string): string[] | undefined {
  const v = value.trim();
  if (!v.startsWith('[') || !v.endsWith(']')) return undefined;
  const items = [...v.slice(1, -1).matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^,\s][^,]*)/g)];
  return items.map((m) => (m[1] ?? m[2] ?? m[3]).trim());
}

function unquote(text: string): string {
  const t = text.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t[t.length - 1] === t[0]) return t.slice(1, -1);
  return t;
}

/** An initial value as the JSON a call sends: numbers, booleans, lists; strings unquoted. */
export function initialValue(baseType: string, text: string): unknown {
  const t = text.trim();
  switch (baseType) {
    case 'int':
    case 'double':
    case 'bigint':
    case 'num':
    case 'qnum': {
      const n = Number(t);
      return t !== '' && Number.isFinite(n) ? n : unquote(t);
    }
    case 'bool':
      return t === 'true' ? true : t === 'false' ? false : t;
    case 'list':
    case 'column_list':
    case 'string_list':
      return choiceList(t) ?? unquote(t);
    default:
      return unquote(t);
  }
}

/** Parses `<type> <name> [= initial] [{options}] [[description]]` at `column` of `line`. */
function parseParam(direction: HeaderParam['direction'], text: string, line: number, column: number, problems: HeaderProblem[]): HeaderParam | undefined {
  const typeMatch = /^\s*([A-Za-z_][\w]*(?:<[^>]*>)?)/.exec(text);
  if (!typeMatch) {
    problems.push({ line, start: column, end: column + text.length, message: `An ${direction} needs a type and a name: "${direction}: <type> <name>".` });
    return undefined;
  }
  const type = typeMatch[1];
  const typeStart = column + typeMatch[0].length - type.length;
  let rest = text.slice(typeMatch[0].length);
  let offset = column + typeMatch[0].length;
  const nameMatch = /^\s*([A-Za-z_$][\w$]*)/.exec(rest);
  const name = nameMatch?.[1] ?? '';
  const nameStart = nameMatch ? offset + nameMatch[0].length - name.length : offset;
  if (nameMatch) {
    rest = rest.slice(nameMatch[0].length);
    offset += nameMatch[0].length;
  }
  const param: HeaderParam = {
    direction,
    type,
    baseType: type.replace(/<.*$/, '').toLowerCase(),
    name,
    options: {},
    line,
    typeStart,
    typeEnd: typeStart + type.length,
    nameStart,
    nameEnd: nameStart + name.length,
  };
  const eq = /^\s*=\s*/.exec(rest);
  if (eq) {
    rest = rest.slice(eq[0].length);
    offset += eq[0].length;
    let end: number;
    if (rest.startsWith('"') || rest.startsWith("'")) end = rest.indexOf(rest[0], 1) + 1;
    else if (rest.startsWith('[')) end = closing(rest, 0) + 1;
    else {
      const stop = rest.search(/\s[{[]|\s*$/);
      end = stop < 0 ? rest.length : stop;
    }
    if (end <= 0) end = rest.length;
    param.initialText = rest.slice(0, end).trim();
    param.initial = initialValue(param.baseType, param.initialText);
    rest = rest.slice(end);
    offset += end;
  }
  const brace = /^\s*\{/.exec(rest);
  if (brace) {
    const start = brace[0].length - 1;
    const end = closing(rest, start);
    if (end < 0) {
      problems.push({ line, start: offset + start, end: offset + rest.length, message: 'The options are not closed: add "}".' });
      rest = '';
    } else {
      param.options = parseOptions(rest.slice(start + 1, end));
      rest = rest.slice(end + 1);
      offset += end + 1;
    }
  }
  const description = /^\s*\[(.*)\]\s*$/.exec(rest);
  if (description) param.description = description[1].trim();
  else if (rest.trim())
    problems.push({
      line,
      start: offset,
      end: offset + rest.length,
      message: `Unexpected "${rest.trim()}": after the name come "= initial", "{options}" and "[description]", in that order.`,
    });
  if (param.options.choices !== undefined) param.choices = choiceList(param.options.choices);
  if (param.options.description !== undefined && param.description === undefined) param.description = unquote(param.options.description);
  return param;
}

/**
 * The header of a script's text: its first comment block (blank lines before it, and a `#!` line, are
 * skipped), when that block has a `name`, `language`, `input`, `output` or `connection` line. Undefined
 * for any other text.
 */
export function parseScriptHeader(text: string, prefix: CommentPrefix): ScriptHeader | undefined {
  const lines = text.split(/\r?\n/);
  let first = 0;
  while (first < lines.length && (lines[first].trim() === '' || (first === 0 && lines[0].startsWith('#!')))) first++;
  let last = first - 1;
  while (last + 1 < lines.length && lines[last + 1].trimStart().startsWith(prefix)) last++;
  if (last < first) return undefined;
  const header = parseHeaderBlock(lines, first, last, prefix);
  return header.entries.some((e) => HEADER_MARKERS.has(e.key)) ? header : undefined;
}

/**
 * The annotation lines `first`..`last` (inclusive) of `lines`, each a `prefix` comment: a script's header,
 * or the comment block above a package function (src/platform/packages/annotations.ts). Lines that are no
 * `key: value` entry are skipped.
 */
export function parseHeaderBlock(lines: readonly string[], first: number, last: number, prefix: CommentPrefix): ScriptHeader {
  const entries: HeaderEntry[] = [];
  const inputs: HeaderParam[] = [];
  const outputs: HeaderParam[] = [];
  const problems: HeaderProblem[] = [];
  for (let line = first; line <= last; line++) {
    const raw = lines[line];
    const afterPrefix = raw.indexOf(prefix) + prefix.length;
    const m = ENTRY.exec(raw.slice(afterPrefix));
    if (!m) continue;
    const keyStart = afterPrefix + m[1].length;
    const keyEnd = keyStart + m[2].length;
    const valueText = raw.slice(afterPrefix + m[0].length);
    const valueStart = afterPrefix + m[0].length + (valueText.length - valueText.trimStart().length);
    entries.push({ key: m[2], value: valueText.trim(), line, keyStart, keyEnd, valueStart });
    if (m[2] === 'input' || m[2] === 'output') {
      const param = parseParam(m[2], raw.slice(afterPrefix + m[0].length), line, afterPrefix + m[0].length, problems);
      if (param) (m[2] === 'input' ? inputs : outputs).push(param);
    }
  }
  return {
    prefix,
    firstLine: first,
    lastLine: last,
    entries,
    inputs,
    outputs,
    problems,
    value: (key) => entries.find((e) => e.key === key)?.value,
  };
}

// What a notebook cell is by its language, and the function-call cell's own syntax. No vscode.
//
//   Chem:Descriptors(table: scored, column: "smiles", limit: 10)
//   top = Demo:TopRows(table: orders, count: 5)
//
// An argument's value is JSON (a string in double quotes, a number, true, false, null, a list, an object)
// or a bare name: a variable of the notebook (a table an earlier cell made, or its scalar). `name =` before
// the call names its (first) output; without it the outputs keep the function's output names.

export type CellKind = 'markdown' | 'script' | 'query' | 'call';

/** The language of a function-call cell (`Pkg:Func(arg: value)`); a JSON cell is a parameter-file object. */
export const CALL_LANGUAGE = 'datagrok-call';
export const SCRIPT_LANGUAGES = ['python', 'r', 'javascript', 'julia', 'octave'];

export function cellKind(language: string): CellKind {
  if (language === 'markdown') return 'markdown';
  if (language === 'sql') return 'query';
  if (language === CALL_LANGUAGE || language === 'json' || language === 'jsonc') return 'call';
  return 'script';
}

/** A script cell's file extension (what the server's language is read from when the header says none). */
export function scriptExtension(language: string): string {
  return { python: 'py', r: 'R', javascript: 'js', julia: 'jl', octave: 'm', sql: 'sql' }[language] ?? language;
}

export type ArgumentValue = { value: unknown } | { variable: string };

export interface CallCell {
  /** `Package:Name` as written. */
  function: string;
  /** The name given by `name =`, when there is one. */
  assignTo?: string;
  args: Record<string, ArgumentValue>;
}

/** A stretch of a cell's text: offsets, end exclusive. */
export interface Span {
  start: number;
  end: number;
}

export class CellSyntaxError extends Error {
  constructor(
    message: string,
    /** The line inside the cell (0-based). */
    readonly line: number,
    /** The offending text, when known (offsets in the cell's text). */
    readonly span?: Span,
  ) {
    super(message);
  }
}

/** A call cell's argument where it is written: for completion, hover and checks. */
export interface ArgumentLayout {
  key: string;
  keySpan: Span;
  value: ArgumentValue;
  valueSpan: Span;
}

/** A call cell's call where it is written. */
export interface CallLayout {
  function: string;
  functionSpan: Span;
  assignTo?: string;
  assignSpan?: Span;
  /** The offsets of "(" and ")". */
  open: number;
  close: number;
  args: ArgumentLayout[];
}

const IDENTIFIER = /^[A-Za-z_][\w]*$/;
const FUNCTION_NAME = /^[A-Za-z_][\w-]*(?::[A-Za-z_][\w-]*)+$|^[A-Za-z_][\w-]*$/;

/** The cell's text with comment lines (`//`, `#`) blanked, keeping the offsets of the rest. */
export function withoutComments(text: string): string {
  return text.replace(/^[ \t]*(\/\/|#).*$/gm, (m) => ' '.repeat(m.length));
}

/** The top-level pieces of `text` split at `,` (quotes and brackets respected), each with its offset; `keepLast`: the last piece even when blank. */
export function splitArguments(text: string, offset: number, keepLast = false): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '[' || c === '{' || c === '(') depth++;
    else if (c === ']' || c === '}' || c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push({ text: text.slice(start, i), at: offset + start });
      start = i + 1;
    }
  }
  // A trailing comma is allowed (a call written one argument a line).
  if (keepLast || text.slice(start).trim() !== '') out.push({ text: text.slice(start), at: offset + start });
  return out;
}

const spanOf = (at: number, text: string): Span => {
  const lead = text.search(/\S|$/);
  return { start: at + lead, end: at + text.trimEnd().length };
};

/** Reads a function-call cell with where each part is; a CellSyntaxError says what is wrong, on which line and text. */
export function parseCallLayout(text: string): CallLayout {
  const lineAt = (offset: number) => text.slice(0, offset).split('\n').length - 1;
  const fail = (message: string, span: Span): never => {
    throw new CellSyntaxError(message, lineAt(span.start), span);
  };
  const code = withoutComments(text);
  const open = code.indexOf('(');
  const headText = open < 0 ? code : code.slice(0, open);
  const head = headText.trim();
  if (head === '') fail('The cell is empty: write a call such as Package:Function(arg: value).', { start: 0, end: 0 });
  const headSpan = spanOf(0, headText);
  const assign = /^([A-Za-z_]\w*)(\s*=\s*)(.*)$/s.exec(head);
  const name = (assign ? assign[3] : head).trim();
  const functionSpan = assign ? { start: headSpan.start + assign[1].length + assign[2].length, end: headSpan.end } : headSpan;
  if (open < 0 || !FUNCTION_NAME.test(name)) fail(`"${head.slice(0, 60)}" is not a function call: write Package:Function(arg: value, …).`, open < 0 ? headSpan : functionSpan);
  const close = code.lastIndexOf(')');
  if (close < open) fail(`The call of ${name} has no closing ")".`, { start: open, end: open + 1 });
  const rest = code.slice(close + 1);
  if (rest.trim() !== '') fail(`Text after the call of ${name}: a cell holds one call.`, spanOf(close + 1, rest));
  const args: ArgumentLayout[] = [];
  for (const piece of splitArguments(code.slice(open + 1, close), open + 1)) {
    const span = spanOf(piece.at, piece.text);
    const m = /^(\s*)([A-Za-z_$][\w$]*)(\s*:\s*)([\s\S]*?)\s*$/.exec(piece.text);
    if (!m) fail(`Each argument is "name: value" ("${piece.text.trim().slice(0, 40)}" is not).`, span);
    const [, lead, key, colon, raw] = m as RegExpExecArray;
    const keySpan = { start: piece.at + lead.length, end: piece.at + lead.length + key.length };
    const valueSpan = { start: keySpan.end + colon.length, end: keySpan.end + colon.length + raw.length };
    if (args.some((a) => a.key === key)) fail(`The argument ${key} is given twice.`, keySpan);
    if (raw === '') fail(`The argument ${key} has no value.`, keySpan);
    if (IDENTIFIER.test(raw) && !['true', 'false', 'null'].includes(raw)) {
      args.push({ key, keySpan, value: { variable: raw }, valueSpan });
      continue;
    }
    try {
      args.push({ key, keySpan, value: { value: JSON.parse(raw) }, valueSpan });
    } catch {
      fail(`The value of ${key} is neither JSON (text in double quotes, a number, true, false, a list) nor a variable's name: ${raw.slice(0, 40)}`, valueSpan);
    }
  }
  return {
    function: name,
    functionSpan,
    ...(assign ? { assignTo: assign[1], assignSpan: { start: headSpan.start, end: headSpan.start + assign[1].length } } : {}),
    open,
    close,
    args,
  };
}

/** Parses a function-call cell; a CellSyntaxError says what is wrong and on which line. */
export function parseCallCell(text: string): CallCell {
  const layout = parseCallLayout(text);
  return { function: layout.function, assignTo: layout.assignTo, args: Object.fromEntries(layout.args.map((a) => [a.key, a.value])) };
}

/** The variables a call cell reads. */
export function callVariables(call: CallCell): string[] {
  return Object.values(call.args).flatMap((a) => ('variable' in a ? [a.variable] : []));
}

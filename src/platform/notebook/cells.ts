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

export class CellSyntaxError extends Error {
  constructor(
    message: string,
    /** The line inside the cell (0-based). */
    readonly line: number,
  ) {
    super(message);
  }
}

const IDENTIFIER = /^[A-Za-z_][\w]*$/;
const FUNCTION_NAME = /^[A-Za-z_][\w-]*(?::[A-Za-z_][\w-]*)+$|^[A-Za-z_][\w-]*$/;

/** The top-level pieces of `text` split at `,` (quotes and brackets respected), each with its offset. */
function splitArguments(text: string, offset: number): { text: string; at: number }[] {
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
  if (text.slice(start).trim() !== '') out.push({ text: text.slice(start), at: offset + start });
  return out;
}

/** Parses a function-call cell; a CellSyntaxError says what is wrong and on which line. */
export function parseCallCell(text: string): CallCell {
  const lineAt = (offset: number) => text.slice(0, offset).split('\n').length - 1;
  // Comment lines (`//`, `#`) are left out, keeping the offsets of the rest.
  const code = text.replace(/^[ \t]*(\/\/|#).*$/gm, (m) => ' '.repeat(m.length));
  const open = code.indexOf('(');
  const head = (open < 0 ? code : code.slice(0, open)).trim();
  if (head === '') throw new CellSyntaxError('The cell is empty: write a call such as Package:Function(arg: value).', 0);
  const assign = /^([A-Za-z_]\w*)\s*=\s*(.*)$/s.exec(head);
  const name = (assign ? assign[2] : head).trim();
  if (open < 0 || !FUNCTION_NAME.test(name))
    throw new CellSyntaxError(`"${head.slice(0, 60)}" is not a function call: write Package:Function(arg: value, …).`, lineAt(code.search(/\S/)));
  const close = code.lastIndexOf(')');
  if (close < open) throw new CellSyntaxError(`The call of ${name} has no closing ")".`, lineAt(code.length));
  if (code.slice(close + 1).trim() !== '')
    throw new CellSyntaxError(`Text after the call of ${name}: a cell holds one call.`, lineAt(close + 1 + code.slice(close + 1).search(/\S/)));
  const args: Record<string, ArgumentValue> = {};
  for (const piece of splitArguments(code.slice(open + 1, close), open + 1)) {
    const m = /^\s*([A-Za-z_$][\w$]*)\s*:\s*([\s\S]*?)\s*$/.exec(piece.text);
    const line = lineAt(piece.at + piece.text.search(/\S|$/));
    if (!m) throw new CellSyntaxError(`Each argument is "name: value" ("${piece.text.trim().slice(0, 40)}" is not).`, line);
    const [, key, raw] = m;
    if (key in args) throw new CellSyntaxError(`The argument ${key} is given twice.`, line);
    if (raw === '') throw new CellSyntaxError(`The argument ${key} has no value.`, line);
    if (IDENTIFIER.test(raw) && !['true', 'false', 'null'].includes(raw)) {
      args[key] = { variable: raw };
      continue;
    }
    try {
      args[key] = { value: JSON.parse(raw) };
    } catch {
      throw new CellSyntaxError(`The value of ${key} is neither JSON (text in double quotes, a number, true, false, a list) nor a variable's name: ${raw.slice(0, 40)}`, line);
    }
  }
  return { function: name, assignTo: assign?.[1], args };
}

/** The variables a call cell reads. */
export function callVariables(call: CallCell): string[] {
  return Object.values(call.args).flatMap((a) => ('variable' in a ? [a.variable] : []));
}

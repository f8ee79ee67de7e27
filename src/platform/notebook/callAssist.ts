// A function-call cell as the user types it: where the cursor is (the function's name, an argument's name,
// an argument's value) and what is wrong with the call (unreadable, an unknown function, an argument naming
// no input, a required input missing, a variable no cell above makes), with the offending text's offsets.
// Script and query cells: a table input no cell above makes. No vscode.
import type { FuncInfo, FuncParam } from '../../api/types';
import { inputsOf, isRequired } from '../functions/signature';
import { closest } from '../scripts/signature';
import { type CallLayout, CellSyntaxError, parseCallLayout, type Span, splitArguments, withoutComments } from './cells';
import { type CellText, cellHeader, type KnownVariable } from './notebookFlow';

export type CallSpot =
  | { kind: 'function'; span: Span }
  | { kind: 'argument'; function: string; span: Span; given: string[]; index: number }
  | { kind: 'value'; function: string; key: string; span: Span; given: string[]; index: number }
  | { kind: 'none' };

const KEY = /^(\s*)([A-Za-z_$][\w$]*)(\s*:\s*)/;

/** The offset of the ")" that closes the "(" at `open` (quotes and brackets respected), or -1. */
function closingParen(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const c = code[i];
    if (c === '"') {
      for (i++; i < code.length && code[i] !== '"'; i++) if (code[i] === '\\') i++;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return c === ')' ? i : -1;
    }
  }
  return -1;
}

/** The extent of the word of `chars` around `offset` in `code`, from `start`. */
function wordEnd(code: string, offset: number, chars: RegExp): number {
  let end = offset;
  while (end < code.length && chars.test(code[end])) end++;
  return end;
}

/** What the cursor at `offset` is on, in a call cell's text (written or half written). */
export function callSpotAt(text: string, offset: number): CallSpot {
  const code = withoutComments(text);
  if (code.slice(0, offset).split('\n').pop() !== text.slice(0, offset).split('\n').pop()) return { kind: 'none' };
  const open = code.indexOf('(');
  if (open < 0 || offset <= open) {
    const m = /^\s*(?:[A-Za-z_]\w*\s*=\s*)?([\w:-]*)$/.exec(code.slice(0, offset));
    if (!m) return { kind: 'none' };
    return { kind: 'function', span: { start: offset - m[1].length, end: wordEnd(code, offset, /[\w:-]/) } };
  }
  const close = closingParen(code, open);
  if (close >= 0 && offset > close) return { kind: 'none' };
  const head = code.slice(0, open).trim();
  const name = (/^[A-Za-z_]\w*\s*=\s*(.*)$/s.exec(head)?.[1] ?? head).trim();
  const pieces = splitArguments(code.slice(open + 1, close < 0 ? code.length : close), open + 1, true);
  const index = pieces.findIndex((p) => p.at <= offset && offset <= p.at + p.text.length);
  if (index < 0) return { kind: 'none' };
  const piece = pieces[index];
  const given = pieces.flatMap((p, i) => {
    const key = i === index ? undefined : KEY.exec(p.text)?.[2];
    return key ? [key] : [];
  });
  const before = code.slice(piece.at, offset);
  const key = KEY.exec(before);
  if (key) {
    const start = piece.at + key[0].length;
    return { kind: 'value', function: name, key: key[2], span: { start, end: Math.max(offset, piece.at + piece.text.trimEnd().length) }, given, index };
  }
  const typed = /^\s*([A-Za-z_$][\w$]*)?$/.exec(before);
  if (!typed) return { kind: 'none' };
  const start = offset - (typed[1]?.length ?? 0);
  return { kind: 'argument', function: name, span: { start, end: wordEnd(code, offset, /[\w$]/) }, given, index };
}

export interface CellProblem {
  span: Span;
  message: string;
  severity: 'error' | 'warning';
}

/** What is known where the cell is: the function (when known), and the variables above and below. */
export interface CallFacts {
  /** The function's signature, when known. */
  func?: FuncInfo;
  /** The server said it has no such function. */
  missing?: boolean;
  /** The server's functions' names (for "did you mean"), when known. */
  functionNames?: readonly string[];
  above: ReadonlyMap<string, KnownVariable>;
  below: ReadonlyMap<string, number>;
}

/** Why no cell above makes `name`, and what to do: the cell below that would, or the closest name made above. */
function notAbove(name: string, facts: Pick<CallFacts, 'above' | 'below'>): string {
  const below = facts.below.get(name);
  if (below !== undefined) return `No cell above makes "${name}": cell ${below + 1}, below this one, does. Move this cell below it.`;
  const near = closest(name, facts.above.keys());
  return `No cell above makes "${name}"${near ? `: did you mean "${near}"?` : ': add and run the cell that makes it first, or fix the name.'}`;
}

const TABLE_TYPES = new Set(['dataframe']);
const ANY_TYPES = new Set(['dynamic', 'object', 'list', 'map', '']);

/** A variable's type that the input cannot take (a table for a number, a number for a table), if so. */
function typeMismatch(input: FuncParam, v: KnownVariable): string | undefined {
  const want = input.propertyType.toLowerCase();
  if (ANY_TYPES.has(want) || ANY_TYPES.has(v.type)) return undefined;
  if (TABLE_TYPES.has(want) === TABLE_TYPES.has(v.type)) return undefined;
  return `"${v.name}" is a ${v.type} (cell ${v.cell + 1}), but the input ${input.name} takes a ${want}.`;
}

function argumentProblems(layout: CallLayout, facts: CallFacts): CellProblem[] {
  const problems: CellProblem[] = [];
  const func = facts.func;
  const inputs = func ? inputsOf(func) : [];
  for (const arg of layout.args) {
    const input = inputs.find((p) => p.name === arg.key);
    if (func && !input) {
      const near = closest(
        arg.key,
        inputs.map((p) => p.name),
      );
      const list = inputs.map((p) => p.name).join(', ') || 'none';
      problems.push({ span: arg.keySpan, severity: 'error', message: `${func.nqName} has no input "${arg.key}"${near ? `: did you mean "${near}"?` : '.'} Its inputs: ${list}.` });
    }
    if ('variable' in arg.value) {
      const v = facts.above.get(arg.value.variable);
      if (!v) problems.push({ span: arg.valueSpan, severity: 'error', message: notAbove(arg.value.variable, facts) });
      else if (input) {
        const mismatch = typeMismatch(input, v);
        if (mismatch) problems.push({ span: arg.valueSpan, severity: 'warning', message: mismatch });
      }
    } else if (input?.choices?.length && typeof arg.value.value === 'string' && !input.choices.includes(arg.value.value)) {
      const choices = input.choices.map((c) => JSON.stringify(c)).join(', ');
      problems.push({ span: arg.valueSpan, severity: 'warning', message: `${input.name} is one of ${choices} (not ${JSON.stringify(arg.value.value)}).` });
    }
  }
  const given = new Set(layout.args.map((a) => a.key));
  for (const p of inputs)
    if (isRequired(p) && !given.has(p.name))
      problems.push({ span: layout.functionSpan, severity: 'error', message: `${func!.nqName} needs its input ${p.name} (${p.propertyType}): add "${p.name}: <value>".` });
  return problems;
}

/** The problems of a call cell's text (`facts` from the catalog and the notebook; what is not known is not checked). */
export function callProblems(text: string, facts: CallFacts): CellProblem[] {
  let layout: CallLayout;
  try {
    layout = parseCallLayout(text);
  } catch (e) {
    if (!(e instanceof CellSyntaxError)) throw e;
    const lineStart = text.split('\n').slice(0, e.line).join('\n').length + (e.line > 0 ? 1 : 0);
    const lineEnd = text.indexOf('\n', lineStart) < 0 ? text.length : text.indexOf('\n', lineStart);
    const span = e.span && e.span.end > e.span.start ? e.span : { start: lineStart, end: Math.max(lineEnd, lineStart) };
    return [{ span, severity: 'error', message: `Line ${e.line + 1}: ${e.message}` }];
  }
  if (facts.missing) {
    const near = facts.functionNames ? closest(layout.function, facts.functionNames) : undefined;
    const problem: CellProblem = {
      span: layout.functionSpan,
      severity: 'error',
      message: `The server has no function "${layout.function}"${near ? `: did you mean ${near}?` : '.'}`,
    };
    return [problem, ...argumentProblems(layout, { ...facts, func: undefined })];
  }
  return argumentProblems(layout, facts);
}

/** A script or query cell's table inputs no cell above makes (a run would fail on them). */
export function scriptCellProblems(cell: CellText, facts: Pick<CallFacts, 'above' | 'below'>): CellProblem[] {
  const header = cellHeader(cell);
  if (!header) return [];
  const lineStarts = [0];
  for (let i = 0; i < cell.text.length; i++) if (cell.text[i] === '\n') lineStarts.push(i + 1);
  return header.inputs
    .filter((p) => p.name && p.baseType.toLowerCase() === 'dataframe' && p.initialText === undefined && !facts.above.has(p.name))
    .map((p) => ({
      span: { start: lineStarts[p.line] + p.nameStart, end: lineStarts[p.line] + p.nameEnd },
      severity: 'error' as const,
      message: notAbove(p.name, facts),
    }));
}

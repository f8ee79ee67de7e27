// What is wrong with a parameter file, given its function's signature, and the edits that fix it: unknown
// inputs, missing required inputs, values of the wrong JSON type or outside the choices, `$csv` files that
// do not exist. Pure: no vscode here; positions are offsets into the text.
import type { Node } from 'jsonc-parser';
import type { FuncInfo, FuncParam } from '../api/types';
import { jsoncParser } from '../platform/lazyModules';
import { inputsOf, isRequired, jsonTypeOf, outputsOf, placeholderOf } from '../platform/functions/signature';
import { EXPECT_KEY } from '../platform/tests/cases';
import { expectationProblem } from '../platform/tests/expect';
import { FUNCTION_KEY, TOOLING_KEYS } from './parameterFile';

export type ProblemCode =
  | 'unknownInput'
  | 'missingInput'
  | 'wrongType'
  | 'notAChoice'
  | 'missingCsv'
  | 'unknownFunction'
  | 'placeholder'
  | 'missingTable'
  | 'missingColumn'
  | 'badExpect';

export interface ParameterProblem {
  code: ProblemCode;
  message: string;
  offset: number;
  length: number;
  /** The input the problem is about, when there is one. */
  input?: string;
}

const CSV_KEY = '$csv';

export function rootOf(text: string): Node | undefined {
  const root = jsoncParser().parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  return root?.type === 'object' ? root : undefined;
}

/** The root's properties as [key node, value node] pairs. */
export function propertiesOf(root: Node): { key: Node; value: Node | undefined; property: Node }[] {
  return (root.children ?? []).filter((p) => p.type === 'property' && p.children?.[0]?.type === 'string').map((p) => ({ key: p.children![0], value: p.children![1], property: p }));
}

function jsonValueOf(node: Node | undefined): unknown {
  if (!node) return undefined;
  switch (node.type) {
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const { key, value } of propertiesOf(node)) object[String(key.value)] = jsonValueOf(value);
      return object;
    }
    case 'array':
      return (node.children ?? []).map(jsonValueOf);
    default:
      return node.value;
  }
}

/** Why a value does not fit an input's JSON type, or undefined when it does. */
export function typeProblem(p: FuncParam, value: unknown): string | undefined {
  if (value === null) return isRequired(p) ? `"${p.name}" is required: null is not a value for it.` : undefined;
  const expected = jsonTypeOf(p.propertyType);
  const type = p.propertyType.toLowerCase();
  let ok: boolean;
  if (type === 'dataframe') ok = (typeof value === 'string' && value !== '') || (isObject(value) && typeof value[CSV_KEY] === 'string');
  else if (expected === 'number') ok = typeof value === 'number' && (type !== 'int' || Number.isInteger(value));
  else if (expected === 'boolean') ok = typeof value === 'boolean';
  else if (expected === 'array') ok = Array.isArray(value);
  else if (expected === 'object') ok = isObject(value);
  else if (expected === 'any JSON value') ok = true;
  else ok = typeof value === 'string';
  if (ok) return undefined;
  const article: Record<string, string> = { number: 'a number', boolean: 'a boolean', array: 'an array', object: 'an object', string: 'a string' };
  const wanted = type === 'int' ? 'an integer' : (article[expected] ?? expected);
  return `"${p.name}" (${p.propertyType}) expects ${wanted}, not ${describe(value)}.`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === '') return 'an empty string';
  if (typeof value === 'number' && !Number.isInteger(value)) return `the number ${value}`;
  return typeof value === 'object' ? 'an object' : `the ${typeof value} ${JSON.stringify(value)}`;
}

/**
 * The problems of a parameter file for `func`. `csvExists` says whether a `$csv` path (as written,
 * relative to the file) exists; without it `$csv` paths are not checked.
 */
export function checkParameters(text: string, func: FuncInfo, csvExists?: (path: string) => boolean): ParameterProblem[] {
  const root = rootOf(text);
  if (!root) return [];
  const inputs = new Map(inputsOf(func).map((p) => [p.name, p]));
  const problems: ParameterProblem[] = [];
  const present = new Set<string>();
  for (const { key, value } of propertiesOf(root)) {
    const name = String(key.value);
    if (name === EXPECT_KEY && value) {
      // A test's expectation, checked against the function's outputs.
      const wrong = expectationProblem(jsonValueOf(value), outputsOf(func));
      if (wrong) problems.push({ code: 'badExpect', message: wrong, offset: value.offset, length: value.length });
    }
    if (TOOLING_KEYS.has(name)) continue;
    present.add(name);
    const p = inputs.get(name);
    if (!p) {
      const known = [...inputs.keys()].join(', ') || 'none';
      problems.push({ code: 'unknownInput', message: `${func.nqName} has no input "${name}" (its inputs: ${known}).`, offset: key.offset, length: key.length, input: name });
      continue;
    }
    if (!value) continue;
    const v = jsonValueOf(value);
    const wrong = typeProblem(p, v);
    if (wrong) {
      problems.push({ code: 'wrongType', message: wrong, offset: value.offset, length: value.length, input: name });
      continue;
    }
    if (p.choices && p.choices.length > 0 && v !== null && !p.choices.includes(String(v))) {
      problems.push({
        code: 'notAChoice',
        message: `"${name}" must be one of ${p.choices.map((c) => JSON.stringify(c)).join(', ')}.`,
        offset: value.offset,
        length: value.length,
        input: name,
      });
    }
    const csv = p.propertyType.toLowerCase() === 'dataframe' && value.type === 'object' ? jsoncParser().findNodeAtLocation(value, [CSV_KEY]) : undefined;
    if (csv?.type === 'string' && csvExists && !csvExists(String(csv.value))) {
      problems.push({
        code: 'missingCsv',
        message: `The CSV file "${String(csv.value)}" does not exist (paths are relative to this file).`,
        offset: csv.offset,
        length: csv.length,
        input: name,
      });
    }
  }
  const missing = missingInputs(func, present);
  if (missing.length > 0) {
    const where = (root.children ?? []).find((p) => p.type === 'property' && p.children?.[0]?.value === FUNCTION_KEY)?.children?.[0] ?? { offset: root.offset, length: 1 };
    const names = missing.map((p) => `"${p.name}"`).join(', ');
    problems.push({
      code: 'missingInput',
      message: `${func.nqName} needs ${missing.length === 1 ? 'the input' : 'the inputs'} ${names}.`,
      offset: where.offset,
      length: where.length,
    });
  }
  return problems;
}

function missingInputs(func: FuncInfo, present: Set<string>): FuncParam[] {
  return inputsOf(func).filter((p) => isRequired(p) && !present.has(p.name));
}

/** The value an input gets when added: its default, else a placeholder of its type. */
export function initialValue(p: FuncParam): unknown {
  return p.defaultValue !== undefined && p.defaultValue !== null ? p.defaultValue : placeholderOf(p);
}

/** The text with the required inputs it lacks added (defaults or placeholders), or undefined if none lack. */
export function withMissingInputs(text: string, func: FuncInfo): string | undefined {
  const root = rootOf(text);
  if (!root) return undefined;
  const present = new Set(propertiesOf(root).map(({ key }) => String(key.value)));
  const missing = missingInputs(func, present);
  if (missing.length === 0) return undefined;
  const formattingOptions = { insertSpaces: true, tabSize: indentOf(text), eol: text.includes('\r\n') ? '\r\n' : '\n' };
  let result = text;
  const { applyEdits, modify } = jsoncParser();
  for (const p of missing) result = applyEdits(result, modify(result, [p.name], initialValue(p), { formattingOptions }));
  return result;
}

/** The text without the root property `name`. */
export function withoutInput(text: string, name: string): string {
  const formattingOptions = { insertSpaces: true, tabSize: indentOf(text), eol: text.includes('\r\n') ? '\r\n' : '\n' };
  const { applyEdits, modify } = jsoncParser();
  return applyEdits(text, modify(text, [name], undefined, { formattingOptions }));
}

function indentOf(text: string): number {
  const match = /\n( +)"/.exec(text);
  return match ? match[1].length : 2;
}

/** The smallest edit turning `before` into `after`: the offset, length replaced and the new text. */
export function smallestEdit(before: string, after: string): { offset: number; length: number; text: string } {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  return { offset: start, length: before.length - start - end, text: after.slice(start, after.length - end) };
}

/** The known name closest to `name` (case-insensitive edit distance), if close enough to be a near miss. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const target = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const d = distance(target, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(target.length / 3)) ? best : undefined;
}

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}

// Judging a function's answer against a test case's "$expect", and the "$expect" that records an answer.
// Pure: no vscode here.
//
// "$expect" is one of:
//   - {"$error": "text"}: the call must fail with a message containing the text (case-insensitive);
//     "/pattern/flags" is a regular expression instead;
//   - for a dataframe output (CSV text): an object with any of `rows` (a count), `columns` (names, or
//     { name: type } with types int, double, bool, datetime, string), `checksum` ("sha256:…") and
//     `firstRows` (objects by column; numbers compared within the tolerance), or the CSV text itself;
//   - for several outputs: an object keyed by output names (the ones given are checked), or an array;
//   - otherwise a value, deep-equal, numbers within the case's "$tolerance".
import type { FuncParam } from '../../api/types';
import { type DataframeFacts, DATAFRAME_KEYS, dataframeFacts, typeFits } from './dataframeFacts';
import { looksLikeCsv, outputsOf } from '../functions/outputs';
import { ERROR_KEY } from './cases';

export type CallOutcome = { ok: true; result: unknown } | { ok: false; error: string };

export interface Verdict {
  pass: boolean;
  /** One line: what differs (empty when passed). */
  message: string;
  /** Expected and actual as JSON text in the same shape, for a diff. */
  expected: string;
  actual: string;
}

export interface JudgeOptions {
  tolerance?: number;
  /** The function's outputs, when its signature is known. */
  outputs?: readonly FuncParam[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const json = (value: unknown) => (value === undefined ? 'undefined' : JSON.stringify(value, null, 2));

export function isErrorExpectation(expect: unknown): expect is { $error: string } {
  return isObject(expect) && typeof expect[ERROR_KEY] === 'string' && Object.keys(expect).length === 1;
}

/** Whether `message` matches an "$error" text: a substring (case-insensitive), or `/pattern/flags`. */
export function errorMatches(expected: string, message: string): boolean {
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(expected);
  if (regex) {
    try {
      return new RegExp(regex[1], regex[2]).test(message);
    } catch {
      return false;
    }
  }
  return message.toLowerCase().includes(expected.toLowerCase());
}

function isDataframeExpectation(expect: unknown): expect is Record<string, unknown> {
  return isObject(expect) && Object.keys(expect).length > 0 && Object.keys(expect).every((k) => (DATAFRAME_KEYS as readonly string[]).includes(k));
}

/** The first difference between two JSON values (numbers within `tolerance`), or undefined when equal. */
export function difference(expected: unknown, actual: unknown, tolerance = 0, at = ''): string | undefined {
  const where = at || 'the value';
  if (typeof expected === 'number' && typeof actual === 'number') {
    const equal = expected === actual || (Number.isNaN(expected) && Number.isNaN(actual)) || Math.abs(expected - actual) <= tolerance;
    return equal ? undefined : `${where}: expected ${expected}, got ${actual}${tolerance ? ` (tolerance ${tolerance})` : ''}`;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) return `${where}: expected ${expected.length} items, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const d = difference(expected[i], actual[i], tolerance, `${at}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (isObject(expected) && isObject(actual)) {
    const missing = Object.keys(expected).filter((k) => !(k in actual));
    if (missing.length) return `${where}: missing key ${JSON.stringify(missing[0])}`;
    const extra = Object.keys(actual).filter((k) => !(k in expected));
    if (extra.length) return `${where}: unexpected key ${JSON.stringify(extra[0])}`;
    for (const key of Object.keys(expected)) {
      const d = difference(expected[key], actual[key], tolerance, at ? `${at}.${key}` : key);
      if (d) return d;
    }
    return undefined;
  }
  if (expected === actual) return undefined;
  const type = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v);
  if (type(expected) !== type(actual)) return `${where}: expected ${type(expected)} ${JSON.stringify(expected)}, got ${type(actual)} ${JSON.stringify(actual)}`;
  return `${where}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

function cellDifference(expected: unknown, cell: string, tolerance: number, at: string): string | undefined {
  if (typeof expected === 'number') {
    const n = Number(cell);
    return cell.trim() !== '' && Math.abs(n - expected) <= tolerance ? undefined : `${at}: expected ${expected}, got ${JSON.stringify(cell)}`;
  }
  const text = expected === null ? '' : typeof expected === 'boolean' ? String(expected) : String(expected);
  const same = typeof expected === 'boolean' ? cell.toLowerCase() === text : cell === text;
  return same ? undefined : `${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(cell)}`;
}

/** The actual dataframe described in the shape of the expectation (same keys, same column form). */
function describedLike(expect: Record<string, unknown>, facts: DataframeFacts): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  if ('rows' in expect) shown.rows = facts.rows;
  if ('columns' in expect) shown.columns = Array.isArray(expect.columns) ? facts.columns.map((c) => c.name) : Object.fromEntries(facts.columns.map((c) => [c.name, c.type]));
  if ('checksum' in expect) shown.checksum = facts.checksum;
  if ('firstRows' in expect) {
    const wanted = Array.isArray(expect.firstRows) ? expect.firstRows : [];
    shown.firstRows = facts.records.slice(0, wanted.length).map((r, i) => {
      const keys = isObject(wanted[i]) ? Object.keys(wanted[i] as object) : Object.keys(r);
      return Object.fromEntries(keys.map((k) => [k, typedCell(r[k], (wanted[i] as Record<string, unknown> | undefined)?.[k])]));
    });
  }
  return shown;
}

/** A cell as the expectation wrote its value (a number for a number), so the diff shows only real changes. */
function typedCell(cell: string | undefined, like: unknown): unknown {
  if (cell === undefined) return null;
  if (typeof like === 'number' && cell.trim() !== '' && Number.isFinite(Number(cell))) return Number(cell);
  if (typeof like === 'boolean' && /^(true|false)$/i.test(cell)) return cell.toLowerCase() === 'true';
  if (like === null && cell === '') return null;
  return cell;
}

function dataframeDifference(expect: Record<string, unknown>, facts: DataframeFacts, tolerance: number): string | undefined {
  if ('rows' in expect && expect.rows !== facts.rows) return `rows: expected ${JSON.stringify(expect.rows)}, got ${facts.rows}`;
  if ('columns' in expect) {
    const names = facts.columns.map((c) => c.name);
    if (Array.isArray(expect.columns)) {
      const d = difference(expect.columns, names, 0, 'columns');
      if (d) return d;
    } else if (isObject(expect.columns)) {
      const wanted = Object.keys(expect.columns);
      if (wanted.join('\u0000') !== names.join('\u0000')) return `columns: expected ${JSON.stringify(wanted)}, got ${JSON.stringify(names)}`;
      for (const c of facts.columns) {
        const type = String(expect.columns[c.name]);
        if (!typeFits(type, c.type)) return `column "${c.name}": expected type ${type}, got ${c.type}`;
      }
    } else return 'columns: expected column names (an array) or { name: type }';
  }
  if ('checksum' in expect && String(expect.checksum).toLowerCase() !== facts.checksum) return `checksum: expected ${JSON.stringify(expect.checksum)}, got "${facts.checksum}"`;
  if ('firstRows' in expect) {
    if (!Array.isArray(expect.firstRows)) return 'firstRows: expected an array of rows';
    if (facts.rows < expect.firstRows.length) return `firstRows: expected at least ${expect.firstRows.length} rows, got ${facts.rows}`;
    for (let i = 0; i < expect.firstRows.length; i++) {
      const row = expect.firstRows[i];
      if (!isObject(row)) return `firstRows[${i}]: expected an object of cells by column`;
      for (const [column, value] of Object.entries(row)) {
        const cell = facts.records[i][column];
        if (cell === undefined) return `firstRows[${i}]: no column ${JSON.stringify(column)}`;
        const d = cellDifference(value, cell, tolerance, `firstRows[${i}].${column}`);
        if (d) return d;
      }
    }
  }
  return undefined;
}

function isDataframeOutput(value: unknown, output: FuncParam | undefined): value is string {
  return typeof value === 'string' && (output?.propertyType.toLowerCase() === 'dataframe' || looksLikeCsv(value));
}

/** One output judged: [difference or undefined, the actual in the expectation's shape]. */
function judgeOutput(expect: unknown, value: unknown, output: FuncParam | undefined, tolerance: number, at: string): [string | undefined, unknown] {
  if (isDataframeOutput(value, output)) {
    if (isDataframeExpectation(expect)) {
      const facts = dataframeFacts(value);
      const d = dataframeDifference(expect, facts, tolerance);
      return [d && (at ? `${at}: ${d}` : d), describedLike(expect, facts)];
    }
    if (typeof expect === 'string') {
      const same = expect.replace(/\r\n/g, '\n').trimEnd() === value.replace(/\r\n/g, '\n').trimEnd();
      return [same ? undefined : `${at || 'the dataframe'}: the CSV text differs`, value];
    }
  }
  return [difference(expect, value, tolerance, at), value];
}

/** Judges an answer (or a failure) against "$expect". */
export function judge(expect: unknown, outcome: CallOutcome, options: JudgeOptions = {}): Verdict {
  const tolerance = options.tolerance ?? 0;
  const outputs = options.outputs ?? [];
  const expected = json(expect);
  if (isErrorExpectation(expect)) {
    if (outcome.ok)
      return {
        pass: false,
        message: `expected the call to fail with "${expect.$error}", but it answered ${JSON.stringify(outcome.result)}`,
        expected,
        actual: json({ result: outcome.result }),
      };
    const pass = errorMatches(expect.$error, outcome.error);
    return { pass, message: pass ? '' : `expected an error with "${expect.$error}", got "${outcome.error}"`, expected, actual: json({ [ERROR_KEY]: outcome.error }) };
  }
  if (!outcome.ok) return { pass: false, message: `the call failed: ${outcome.error}`, expected, actual: json({ [ERROR_KEY]: outcome.error }) };
  const result = outcome.result;
  // Several outputs, expected by name: each named output is judged on its own.
  if (outputs.length > 1 && isObject(expect) && Array.isArray(result) && Object.keys(expect).length > 0 && Object.keys(expect).every((k) => outputs.some((o) => o.name === k))) {
    const shown: Record<string, unknown> = {};
    let first: string | undefined;
    for (const [name, value] of Object.entries(expect)) {
      const i = outputs.findIndex((o) => o.name === name);
      const [d, actual] = judgeOutput(value, result[i], outputs[i], tolerance, name);
      shown[name] = actual;
      first ??= d;
    }
    return { pass: !first, message: first ?? '', expected, actual: json(shown) };
  }
  const [d, actual] = judgeOutput(expect, result, outputs.length === 1 ? outputs[0] : undefined, tolerance, '');
  return { pass: !d, message: d ?? '', expected, actual: json(actual) };
}

/** A dataframe output recorded: its rows, columns with types and checksum. */
function recordedDataframe(csv: string): Record<string, unknown> {
  const facts = dataframeFacts(csv);
  return { rows: facts.rows, columns: Object.fromEntries(facts.columns.map((c) => [c.name, c.type])), checksum: facts.checksum };
}

/** The "$expect" that records an answer ("Accept Actual"): several outputs by name when their names are known. */
export function recordedExpectation(outcome: CallOutcome, outputs: readonly FuncParam[] = []): unknown {
  if (!outcome.ok) return { [ERROR_KEY]: outcome.error };
  const record = (value: unknown, output: FuncParam | undefined) => (isDataframeOutput(value, output) ? recordedDataframe(value) : value);
  if (outputs.length > 1 && Array.isArray(outcome.result) && outcome.result.length === outputs.length) {
    return Object.fromEntries(outputs.map((o, i) => [o.name, record((outcome.result as unknown[])[i], o)]));
  }
  if (outputs.length <= 1) return record(outcome.result, outputs[0]);
  return outputsOf(outcome.result);
}

function scalarProblem(expect: unknown, output: FuncParam): string | undefined {
  const type = output.propertyType.toLowerCase();
  if (type === 'dataframe') {
    if (typeof expect === 'string' || isDataframeExpectation(expect)) return undefined;
    return `"${output.name}" is a dataframe: expect { "rows", "columns", "checksum", "firstRows" } (any of them) or its CSV text.`;
  }
  const wanted = ['int', 'double', 'num', 'bigint', 'qnum'].includes(type) ? 'number' : type === 'bool' ? 'boolean' : type === 'string' ? 'string' : undefined;
  if (!wanted || expect === null || typeof expect === wanted) return undefined;
  return `"${output.name}" is ${type}: expect a ${wanted}, not ${Array.isArray(expect) ? 'an array' : typeof expect === 'object' ? 'an object' : JSON.stringify(expect)}.`;
}

/** What is wrong with "$expect" for these outputs (undefined when it fits, or when nothing can be said). */
export function expectationProblem(expect: unknown, outputs: readonly FuncParam[]): string | undefined {
  if (isObject(expect) && ERROR_KEY in expect) {
    if (typeof expect[ERROR_KEY] !== 'string') return '"$error" is the text (or /pattern/) the error message must contain.';
    return Object.keys(expect).length === 1 ? undefined : '{"$error": …} takes no other keys.';
  }
  if (outputs.length === 1) return scalarProblem(expect, outputs[0]);
  if (outputs.length > 1) {
    if (Array.isArray(expect))
      return expect.length === outputs.length ? undefined : `The function has ${outputs.length} outputs: expect an array of ${outputs.length} values, or an object by output name.`;
    if (!isObject(expect)) return `The function has ${outputs.length} outputs (${outputs.map((o) => o.name).join(', ')}): expect an object by output name, or an array.`;
    const unknown = Object.keys(expect).find((k) => !outputs.some((o) => o.name === k));
    if (unknown !== undefined) return `The function has no output "${unknown}" (its outputs: ${outputs.map((o) => o.name).join(', ')}).`;
    for (const o of outputs)
      if (o.name in expect) {
        const problem = scalarProblem(expect[o.name], o);
        if (problem) return problem;
      }
  }
  return undefined;
}

/** An "$expect" to start from, shaped by the outputs (what completion inserts). */
export function expectationSkeleton(outputs: readonly FuncParam[]): unknown {
  const one = (o: FuncParam): unknown => {
    const type = o.propertyType.toLowerCase();
    if (type === 'dataframe') return { rows: 0, columns: {} };
    if (['int', 'double', 'num', 'bigint', 'qnum'].includes(type)) return 0;
    if (type === 'bool') return false;
    if (type === 'string') return '';
    return null;
  };
  if (outputs.length === 0) return { [ERROR_KEY]: '' };
  if (outputs.length === 1) return one(outputs[0]);
  return Object.fromEntries(outputs.map((o) => [o.name, one(o)]));
}

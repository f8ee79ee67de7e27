// Test cases: parameter files with an expectation. A file is a test when it holds "$expect": either one
// case (the parameter file's object) or several (an array of such objects, each with a "$name"; a case
// without "$function" takes the previous case's). A parameter file without "$expect" is not a test.
// Pure: no vscode here.
import type { ParseError } from 'jsonc-parser';
import { jsoncParser } from '../lazyModules';

export const EXPECT_KEY = '$expect';
export const NAME_KEY = '$name';
export const WRITES_KEY = '$writes';
export const TOLERANCE_KEY = '$tolerance';
export const ERROR_KEY = '$error';
/** Keys of a test case that are never inputs (beside "$function" and "$schema"). */
export const TEST_KEYS = [EXPECT_KEY, NAME_KEY, WRITES_KEY, TOLERANCE_KEY] as const;

export interface TestCase {
  /** The case's name: its "$name", else the function's name (single-case files) or "case N". */
  name: string;
  /** Set for the cases of an array file: the id is then `<file>#<name>`. */
  inArray: boolean;
  /** The position of the case in the file (0 for a single-case file). */
  index: number;
  functionName?: string;
  /** The inputs as written ("$csv" objects included), tooling and test keys removed. */
  params: Record<string, unknown>;
  expect: unknown;
  /** Whether the case has an "$expect" key (an array file may hold a case still to be recorded). */
  hasExpect: boolean;
  /** "$writes": true: the function changes data; run only when asked for explicitly. */
  writes: boolean;
  /** Absolute tolerance for numbers (0: exact). */
  tolerance: number;
  /** Why the case cannot run, when it cannot (a bad "$function", a bad "$tolerance"). */
  problem?: string;
}

export interface TestFile {
  cases: TestCase[];
  /** A file that cannot be read as JSON: the reason. */
  problem?: string;
}

const NOT_INPUTS = new Set<string>(['$function', '$schema', ...TEST_KEYS]);

/** Cheap: whether the text may hold a test (mentions "$expect"). */
export function mayHoldTests(text: string): boolean {
  return text.includes(`"${EXPECT_KEY}"`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function caseOf(object: Record<string, unknown>, index: number, inArray: boolean, inherited: string | undefined): TestCase {
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) if (!NOT_INPUTS.has(key)) params[key] = value;
  const rawFunction = object.$function;
  const functionName = typeof rawFunction === 'string' && rawFunction.trim() !== '' ? rawFunction.trim() : inherited;
  const rawName = object[NAME_KEY];
  const name = typeof rawName === 'string' && rawName.trim() !== '' ? rawName.trim() : inArray ? `case ${index + 1}` : (functionName ?? 'case');
  const rawTolerance = object[TOLERANCE_KEY];
  const tolerance = typeof rawTolerance === 'number' && rawTolerance >= 0 ? rawTolerance : 0;
  let problem: string | undefined;
  if (rawFunction !== undefined && (typeof rawFunction !== 'string' || !/^[^:\s/\\]+(:[^:\s/\\]+)+$/.test(rawFunction.trim())))
    problem = `"$function" must be Package:Name, not ${JSON.stringify(rawFunction)}.`;
  else if (!functionName) problem = 'The case names no function: add "$function": "Package:Name".';
  else if (rawTolerance !== undefined && tolerance !== rawTolerance) problem = '"$tolerance" must be a number ≥ 0.';
  else if (object[WRITES_KEY] !== undefined && typeof object[WRITES_KEY] !== 'boolean') problem = '"$writes" must be true or false.';
  return { name, inArray, index, functionName, params, expect: object[EXPECT_KEY], hasExpect: EXPECT_KEY in object, writes: object[WRITES_KEY] === true, tolerance, problem };
}

/**
 * The cases of a test file. A single object without "$expect" has none (not a test); an array file's
 * cases are its objects, named uniquely (a repeated name gets " (2)", …).
 */
export function parseTestFile(text: string): TestFile {
  if (!mayHoldTests(text)) return { cases: [] };
  const errors: ParseError[] = [];
  const { parse, printParseErrorCode } = jsoncParser();
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) return { cases: [], problem: `Not valid JSON: ${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset}.` };
  if (isObject(value)) {
    if (!(EXPECT_KEY in value)) return { cases: [] };
    return { cases: [caseOf(value, 0, false, undefined)] };
  }
  if (!Array.isArray(value)) return { cases: [], problem: 'A test file holds an object (one case) or an array of cases.' };
  if (!value.some((c) => isObject(c) && EXPECT_KEY in c)) return { cases: [] };
  const cases: TestCase[] = [];
  const seen = new Map<string, number>();
  let inherited: string | undefined;
  value.forEach((element, index) => {
    if (!isObject(element)) {
      cases.push({
        name: `case ${index + 1}`,
        inArray: true,
        index,
        params: {},
        expect: undefined,
        hasExpect: false,
        writes: false,
        tolerance: 0,
        problem: 'A case must be an object.',
      });
      return;
    }
    const c = caseOf(element, index, true, inherited);
    inherited = c.functionName;
    const count = (seen.get(c.name) ?? 0) + 1;
    seen.set(c.name, count);
    if (count > 1) c.name = `${c.name} (${count})`;
    cases.push(c);
  });
  return { cases };
}

/** The test id of a case: the file's workspace-relative path, plus `#<case name>` for array files. */
export function caseId(relativePath: string, c: Pick<TestCase, 'name' | 'inArray'>): string {
  return c.inArray ? `${relativePath}#${c.name}` : relativePath;
}

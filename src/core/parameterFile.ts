// Parameter files: a JSON object (comments allowed) whose keys are a function's inputs, with an optional
// "$function": "Package:Name" naming the function. Pure: no vscode here.
// The ESM build: the package's UMD main requires './impl/format' at run time, which the bundle lacks.
import { badInput } from '../api/errors';
import { jsoncParser } from '../platform/lazyModules';
import { functionNameProblem } from '../platform/functions/lookups';
import { TEST_KEYS } from '../platform/tests/cases';
import { parseJsonObject } from './jsonc';
import { FUNCTION_KEY, PARAMETER_FILE_NAME, SCRIPT_KEY } from './parameterFileNames';

export { FUNCTION_KEY, functionNameProblem, PARAMETER_FILE_NAME, SCRIPT_KEY };

/** Keys for editors, tooling and tests ("$expect", "$name", …), never inputs: stripped before the call. */
export const TOOLING_KEYS: ReadonlySet<string> = new Set([FUNCTION_KEY, SCRIPT_KEY, '$schema', ...TEST_KEYS]);

export interface ParameterFile {
  /** The `$function` value, when the file has one. */
  functionName?: string;
  /** The inputs, as the server receives them (tooling keys removed). */
  params: Record<string, unknown>;
}

export function checkFunctionName(name: unknown, where: string): string {
  const problem = functionNameProblem(name);
  if (problem) throw badInput(`Invalid function "${String(name)}" in ${where}: ${problem}`);
  return (name as string).trim();
}

/** Parses a parameter file; a syntax error, a non-object root or a bad `$function` is refused. */
export function parseParameterFile(text: string, what: string): ParameterFile {
  if (text.trim() === '') return { params: {} };
  const object = parseJsonObject(text, what);
  const raw = object[FUNCTION_KEY];
  const functionName = raw === undefined ? undefined : checkFunctionName(raw, `the "${FUNCTION_KEY}" key of ${what}`);
  return { functionName, params: withoutToolingKeys(object) };
}

export function withoutToolingKeys(object: Record<string, unknown>): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (!TOOLING_KEYS.has(key)) params[key] = value;
  }
  return params;
}

/**
 * The `$function` string at the root of a JSON text, cheaply: texts that do not mention "$function"
 * are not parsed at all. Undefined when absent or not a string.
 */
export function declaredFunction(text: string): { name: string; offset: number } | undefined {
  if (!text.includes(`"${FUNCTION_KEY}"`)) return undefined;
  const { findNodeAtLocation, parseTree } = jsoncParser();
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (root?.type !== 'object') return undefined;
  const node = findNodeAtLocation(root, [FUNCTION_KEY]);
  if (node?.type !== 'string' || typeof node.value !== 'string') return undefined;
  return { name: node.value, offset: node.parent?.offset ?? node.offset };
}

/** The `$script` string at the root of a JSON text (a local script the file's inputs are for), cheaply. */
export function declaredScript(text: string): { path: string; offset: number } | undefined {
  if (!text.includes(`"${SCRIPT_KEY}"`)) return undefined;
  const { findNodeAtLocation, parseTree } = jsoncParser();
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (root?.type !== 'object') return undefined;
  const node = findNodeAtLocation(root, [SCRIPT_KEY]);
  if (node?.type !== 'string' || typeof node.value !== 'string' || node.value.trim() === '') return undefined;
  return { path: node.value, offset: node.parent?.offset ?? node.offset };
}

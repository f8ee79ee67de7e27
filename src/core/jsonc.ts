// Reading a JSON document (dashboard layout, parameter file) with comments allowed, and saying exactly
// where it is broken. Pure: no vscode here.
// The ESM build: the package's UMD main requires './impl/format' at run time, which the bundle lacks.
import type { ParseError } from 'jsonc-parser';
import { badInput } from '../api/errors';
import { jsoncParser } from '../platform/lazyModules';

/** Line and column (1-based) of an offset in text. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return { line, column };
}

/** Parses JSON with comments and trailing commas allowed; the root must be an object. */
export function parseJsonObject(text: string, what: string): Record<string, unknown> {
  const errors: ParseError[] = [];
  const { parse, printParseErrorCode } = jsoncParser();
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  if (errors.length > 0) {
    const first = errors[0];
    const { line, column } = positionOf(text, first.offset);
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? 's' : ''})` : '';
    throw badInput(`${what} is not valid JSON: ${printParseErrorCode(first.error)} at line ${line}, column ${column}${more}.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badInput(`${what} must contain a JSON object ({ … }).`);
  }
  return value as Record<string, unknown>;
}

// Reading the options object a script passes to a command (`executeCommand(id, { ... })`).
import { badInput } from '../api/errors';

/**
 * An optional text option, trimmed: undefined when absent or null, '' when blank (the caller decides
 * whether blank means "absent" or is an error); anything but text is bad input.
 */
export function optionalText(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badInput(`${name} must be text.`);
  return value.trim();
}

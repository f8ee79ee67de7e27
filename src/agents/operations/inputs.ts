// Checking a model's input before anything is sent: every problem is a badInput error naming the field.
import { badInput } from '../../api/errors';

export type Input = Record<string, unknown>;

/** The input as an object (a model may send nothing for a tool without inputs). */
export function inputObject(input: unknown): Input {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) throw badInput('The input must be a JSON object.');
  return input as Input;
}

export function text(input: Input, key: string): string {
  const value = input[key];
  if (typeof value !== 'string' || value.trim() === '') throw badInput(`"${key}" is required: a non-empty string.`);
  return value.trim();
}

export function optionalText(input: Input, key: string): string | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badInput(`"${key}" must be a string.`);
  return value.trim() === '' ? undefined : value.trim();
}

export function integer(input: Input, key: string, fallback: number, min: number, max: number): number {
  const value = input[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw badInput(`"${key}" must be a whole number from ${min} to ${max}.`);
  }
  return value;
}

export function texts(input: Input, key: string): string[] {
  const value = input[key];
  if (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== 'string' || v.trim() === '')) {
    throw badInput(`"${key}" is required: a non-empty array of non-empty strings.`);
  }
  return value.map((v: string) => v.trim());
}

export function plainObject(input: Input, key: string): Record<string, unknown> | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw badInput(`"${key}" must be an object keyed by input name.`);
  return value as Record<string, unknown>;
}

export function bool(input: Input, key: string): boolean {
  const value = input[key];
  if (typeof value !== 'boolean') throw badInput(`"${key}" is required: true or false.`);
  return value;
}

/** Compact JSON for a model. */
export function json(value: unknown): string {
  return JSON.stringify(value);
}

/** Shortens long text for a message. */
export function clip(value: string, max = 200): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

interface PropertySchema {
  type?: string;
  enum?: unknown[];
  items?: { type?: string };
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && Number.isInteger(value)) return `the number ${value}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function fits(value: unknown, type: string | undefined): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    default:
      return true;
  }
}

/**
 * The input against the tool's advertised schema, before anything runs: an unknown key, a missing
 * required one or a value of the wrong type is refused with the key named (ranges and formats are the
 * operation's own checks, with their own messages).
 */
export function checkInput(tool: string, schema: { properties: Record<string, object>; required?: string[] }, input: Input): void {
  const known = Object.keys(schema.properties);
  for (const key of Object.keys(input)) {
    if (!(key in schema.properties)) {
      throw badInput(`Unknown input "${key}" for ${tool}: it takes ${known.length ? known.map((k) => `"${k}"`).join(', ') : 'no inputs'}.`);
    }
  }
  for (const key of schema.required ?? []) {
    if (input[key] === undefined || input[key] === null) throw badInput(`"${key}" is required for ${tool}.`);
  }
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    const property = schema.properties[key] as PropertySchema;
    if (!fits(value, property.type))
      throw badInput(
        `"${key}" must be ${property.type === 'integer' ? 'a whole number' : `${/^[aeiou]/.test(property.type ?? '') ? 'an' : 'a'} ${property.type}`}, not ${typeName(value)}.`,
      );
    if (property.enum && !property.enum.includes(value)) throw badInput(`"${key}" must be one of ${property.enum.map((v) => JSON.stringify(v)).join(', ')}.`);
    if (Array.isArray(value) && property.items?.type && value.some((v) => !fits(v, property.items?.type))) throw badInput(`"${key}" must be an array of ${property.items.type}s.`);
  }
}

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

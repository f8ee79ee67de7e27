// Reading JSON answers whose shape is a list or an object, failing clearly when it is not.
import { DatagrokError } from './errors';
import type { RequestSpec, Transport } from './http';

export function expectList<T>(value: unknown, what: string): T[] {
  if (!Array.isArray(value)) throw new DatagrokError('server', `${what} failed: the server's answer was not a list.`);
  return value as T[];
}

export function expectObject<T>(value: unknown, what: string): T {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new DatagrokError('server', `${what} failed: the server's answer was not an object.`);
  }
  return value as T;
}

export async function list<T>(http: Transport, spec: RequestSpec): Promise<T[]> {
  return expectList<T>(await http.json<unknown>(spec), spec.what);
}

export async function one<T>(http: Transport, spec: RequestSpec): Promise<T> {
  return expectObject<T>(await http.json<unknown>(spec), spec.what);
}

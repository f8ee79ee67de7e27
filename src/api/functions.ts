// Calling platform functions with JSON parameters.
import { badInput, DatagrokError } from './errors';
import type { Transport } from './http';
import { nameSegment } from './names';
import type { RequestSpec } from './request';
import type { RouteChoice } from './routes';
import type { CallOptions } from './types';

/**
 * A function call's request on either route (`POST /{name}/call`, older servers; `POST /functions/{name}/call`):
 * the name encoded, the parameters checked and written as JSON once. Shared by callFunction and callToFile.ts.
 */
export function callRequest(name: string, params: Record<string, unknown> | null | undefined, signal?: AbortSignal): (route: 0 | 1, afterMissing: boolean) => RequestSpec {
  const segment = nameSegment(name, 'function name');
  const what = `Calling function ${name}`;
  const values = params ?? {};
  if (typeof values !== 'object' || Array.isArray(values)) {
    throw badInput(`${what} failed: the parameters must be an object of name: value pairs.`);
  }
  let body: string;
  try {
    body = JSON.stringify(values);
  } catch (err) {
    throw new DatagrokError('badInput', `${what} failed: the parameters cannot be written as JSON (${(err as Error).message}).`, { cause: err });
  }
  return (r, afterMissing) => ({
    method: 'POST',
    path: r === 0 ? `/public/v1/${segment}/call` : `/public/v1/functions/${segment}/call`,
    what,
    signal,
    body,
    contentType: 'application/json',
    hintMissingApi: afterMissing || undefined,
  });
}

export async function callFunction(http: Transport, route: RouteChoice, name: string, params: Record<string, unknown>, options: CallOptions = {}): Promise<unknown> {
  const request = callRequest(name, params, options.signal);
  // A dataframe output comes back as CSV text, not JSON: `lenient` returns such text as is.
  return route.run((r, afterMissing) => http.json<unknown>(request(r, afterMissing), true));
}

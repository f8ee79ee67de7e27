// Calling platform functions with JSON parameters.
import { badInput, DatagrokError } from './errors';
import type { Transport } from './http';
import { nameSegment } from './names';
import type { RouteChoice } from './routes';
import type { CallOptions } from './types';

export async function callFunction(http: Transport, route: RouteChoice, name: string, params: Record<string, unknown>, options: CallOptions = {}): Promise<unknown> {
  const segment = nameSegment(name, 'function name');
  const what = `Calling function ${name}`;
  if (params === undefined || params === null) params = {};
  if (typeof params !== 'object' || Array.isArray(params)) {
    throw badInput(`${what} failed: the parameters must be an object of name: value pairs.`);
  }
  let body: string;
  try {
    body = JSON.stringify(params);
  } catch (err) {
    throw new DatagrokError('badInput', `${what} failed: the parameters cannot be written as JSON (${(err as Error).message}).`, {
      cause: err,
    });
  }
  return route.run((r, afterMissing) =>
    // A dataframe output comes back as CSV text, not JSON: `lenient` returns such text as is.
    http.json<unknown>(
      {
        method: 'POST',
        path: r === 0 ? `/public/v1/${segment}/call` : `/public/v1/functions/${segment}/call`,
        what,
        signal: options.signal,
        body,
        contentType: 'application/json',
        hintMissingApi: afterMissing || undefined,
      },
      true,
    ),
  );
}

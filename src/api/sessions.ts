// A browser session for the key: the dev-key login the grok CLI makes before it signs a browser in
// (datagrok-tools `bin/utils/test-utils.js` getToken: `POST <api>/users/login/dev` with
// `Authorization: Dev <key>`; the answer's `token` goes into the browser's `auth` cookie and
// `localStorage.auth`). The token is a credential: it is never logged or put in a message.
import { DatagrokError } from './errors';
import type { Transport } from './http';
import type { CallOptions } from './types';

export async function sessionToken(http: Transport, options: CallOptions = {}): Promise<string> {
  const what = 'Signing a browser in (a session token for the key)';
  const answer = await http.json<unknown>({ method: 'POST', path: '/users/login/dev', what, authScheme: 'Dev', signal: options.signal });
  const o = typeof answer === 'object' && answer !== null ? (answer as { token?: unknown; isSuccess?: unknown }) : {};
  // Servers answer a refused key with 401, or with 200 and `isSuccess: false` (what grok test checks).
  if (o.isSuccess === false) throw new DatagrokError('unauthorized', `${what} failed: the server refused the key. Sign in again with a valid key.`, { status: 200 });
  if (typeof o.token !== 'string' || o.token === '') throw new DatagrokError('unexpectedAnswer', `${what} failed: the server's answer has no token.`);
  return o.token;
}

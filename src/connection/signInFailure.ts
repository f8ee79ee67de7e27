// Why a sign-in failed, said in terms of sign-in: the probe's error (wrong key, not a Datagrok API,
// unreachable) turned into what to do, keeping its kind so the command layer offers the right actions.
import { DatagrokError } from '../api/errors';
import { hostOf } from '../api/names';
import { loadedApi } from './lazyApi';

/**
 * A sign-in probe failed: says what to do in terms of sign-in (a wrong key, a URL that is not a
 * Datagrok API, a server that cannot be reached), keeping the kind so the command layer offers the
 * right actions.
 */
export function signInFailure(error: unknown, baseUrl: string): unknown {
  if (!(error instanceof DatagrokError)) return error;
  const host = hostOf(baseUrl);
  const detail = error.serverMessage ? ` The server said: ${error.serverMessage}` : '';
  let message: string;
  // A certificate, proxy or gateway failure already says what to do.
  // Setup failures are recorded by the API bundle that made them (an error before it loaded is none).
  if (loadedApi()?.isNetworkSetupFailure(error)) return new DatagrokError(error.kind, `${error.message} Nothing was stored.`, { ...error.details, cause: error });
  switch (error.kind) {
    case 'unauthorized':
      message = `${host} rejected the API key (401). Copy the whole key again from your Datagrok profile (API Key link); nothing was stored.`;
      break;
    case 'notFound':
      message = `${baseUrl} is not a Datagrok API (404). Check the server URL: it must end with /api, e.g. https://public.datagrok.ai/api. Nothing was stored.${detail}`;
      break;
    case 'network':
      message = `Cannot reach ${host}: the server did not answer. Check the server URL and your network; nothing was stored.`;
      break;
    case 'timeout':
      message = `${host} did not answer in time. Check the server URL and your network; nothing was stored.`;
      break;
    case 'unavailable':
      message = `${host} is unavailable${error.status ? ` (${error.status})` : ''}: the server or its proxy is down. Try again later; nothing was stored.`;
      break;
    case 'cancelled':
      return error;
    default:
      message = `Signing in to ${host} failed: ${error.message} Nothing was stored.`;
  }
  return new DatagrokError(error.kind, message, { ...error.details, cause: error });
}

/** Whether a sign-in failure is about the key itself (rejected, or not a key): the key box stays open for another. */
export function keyToRetry(error: unknown): boolean {
  return error instanceof DatagrokError && (error.kind === 'unauthorized' || error.kind === 'badInput');
}

/**
 * The one answer of everything that needs a server the user is not signed in to: the connection's
 * client, a command called with options while signed out, a load that was running at sign-out.
 */
export function notSignedIn(baseUrl: string): DatagrokError {
  return new DatagrokError('unauthorized', `You are not signed in to ${hostOf(baseUrl)}. Run "Datagrok: Sign In" and paste your API key.`);
}

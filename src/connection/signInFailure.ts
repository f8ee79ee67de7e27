// Not signed in: the one answer of everything that needs a key the user has not given, and which sign-in
// failures leave the key box open for another key.
import { DatagrokError } from '../api/errors';
import { hostOf } from '../api/names';

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

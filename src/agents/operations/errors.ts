// Errors as a model (and through it the user) reads them: the client's messages are already specific
// and never hold the key; a missing sign-in says which command to run.
import { isDatagrokError } from '../../api/errors';

export const SIGN_IN = 'Not signed in to a Datagrok server: run "Datagrok: Sign In" in VS Code (Command Palette) and paste your API key, then try again.';

export function errorMessage(e: unknown): string {
  if (isDatagrokError(e) && e.kind === 'unauthorized' && /not signed in/i.test(e.message)) return SIGN_IN;
  return e instanceof Error ? e.message : String(e);
}

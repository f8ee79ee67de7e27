// Checking a key before it is stored (Connection.signIn): the key as pasted made plain, refused when it
// cannot be a key, then a probe of the server (the current user's group); a failure said in terms of
// sign-in. Loaded with the features (src/features.ts), on the first sign-in: activation does not need it.
import type * as vscode from 'vscode';
import { badInput, DatagrokError } from '../api/errors';
import { apiKeyProblem, hostOf, normalizeApiKey } from '../api/names';
import type { Group } from '../api/types';
import { createApiClient } from './clientFactory';
import { loadedApi } from './lazyApi';

/** The key as it is stored (without a pasted "Bearer " prefix) and the user it signs in; rejects with what to do. */
export async function checkKey(baseUrl: string, apiKey: string, log: vscode.LogOutputChannel, signal?: AbortSignal): Promise<{ key: string; user: Group }> {
  const key = normalizeApiKey(apiKey);
  if (key === '' || key.toLowerCase() === 'bearer') {
    throw badInput('The API key is empty. Copy it from your Datagrok profile (API Key link).');
  }
  const keyProblem = apiKeyProblem(key);
  if (keyProblem) throw badInput(keyProblem);
  const probe = createApiClient(baseUrl, key, log);
  try {
    return { key, user: await probe.currentUserGroup({ signal }) };
  } catch (error) {
    throw signInFailure(error, baseUrl);
  } finally {
    await probe.close();
  }
}

/**
 * A sign-in probe failed: says what to do in terms of sign-in (a wrong key, a URL that is not a
 * Datagrok API, a server that cannot be reached), keeping the kind so the command layer offers the
 * right actions.
 */
function signInFailure(error: unknown, baseUrl: string): unknown {
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

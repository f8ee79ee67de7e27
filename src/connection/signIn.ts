// Sign in and sign out: the key is checked against the server before it is stored (Connection.signIn),
// so a wrong key, a wrong URL or an unreachable server each fail with their own message and store nothing.
import * as vscode from 'vscode';
import type { Group } from '../api/types';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { badInput } from '../api/errors';
import { optionalText } from '../core/options';
import type { Services } from '../services';
import { hostOf, normalizeBaseUrl } from '../api/names';
import { displayName } from '../platform/groups';

export interface SignInOptions {
  /** Base URL ending in /api; default the active server. */
  url?: string;
  /** The API key, with or without a leading "Bearer ". */
  apiKey?: string;
}

/** The message an input box shows for a URL that is not a server URL; undefined when it is one. */
export function serverUrlProblem(value: string): string | undefined {
  try {
    normalizeBaseUrl(value);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Asks for a server URL, prefilled; rejects with UserCancelled when dismissed. */
export async function askServerUrl(prefill: string, title = 'Datagrok: Sign In', warning = ''): Promise<string> {
  const url = await vscode.window.showInputBox({
    title,
    prompt: `${warning}The Datagrok server URL: the address you open in the browser followed by /api, e.g. https://public.datagrok.ai/api`,
    value: prefill,
    placeHolder: 'https://public.datagrok.ai/api',
    ignoreFocusOut: true,
    validateInput: (value) => serverUrlProblem(value),
  });
  if (url === undefined) throw new UserCancelled();
  return normalizeBaseUrl(url);
}

async function askApiKey(baseUrl: string): Promise<string> {
  const key = await vscode.window.showInputBox({
    title: `Datagrok: Sign In to ${hostOf(baseUrl)}`,
    prompt: 'Your API key: in Datagrok, open your profile (the picture in the left panel) and follow the API Key link.',
    placeHolder: 'Paste the key (a leading "Bearer " is fine)',
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim().replace(/^bearer\s*/i, '') === '' ? 'Paste the API key from your Datagrok profile.' : undefined),
  });
  if (key === undefined) throw new UserCancelled();
  return key;
}

/** Checks the key with the server under a cancellable progress, then stores it (Connection.signIn). */
export async function checkAndSignIn(
  services: Services,
  invocation: CommandInvocation<unknown>,
  url: string,
  apiKey: string,
): Promise<Group> {
  const baseUrl = normalizeBaseUrl(url);
  const user = await invocation.withProgress(`Checking the key with ${hostOf(baseUrl)} (${services.connection.route(baseUrl)})…`, (_progress, signal) =>
    services.connection.signIn(baseUrl, apiKey, signal),
  );
  void vscode.window.showInformationMessage(`Signed in to ${hostOf(baseUrl)} as ${displayName(user)}.`);
  return user;
}

/** The interactive flow: URL (unless given), then the key. */
export async function promptSignIn(services: Services, invocation: CommandInvocation<unknown>, url?: string): Promise<Group> {
  const { connection } = services;
  const prefill = connection.serverUrl || 'https://public.datagrok.ai/api';
  // A URL set by this workspace's settings that the user never signed in to may come from a cloned repository.
  const unfamiliar = connection.serverUrlFromWorkspace() && !connection.knownServers().includes(prefill);
  const warning = unfamiliar ? "⚠ This URL comes from this workspace's settings: send your key only to a server you trust. " : '';
  const baseUrl = url ?? (await askServerUrl(prefill, 'Datagrok: Sign In', warning));
  const key = await askApiKey(baseUrl);
  return checkAndSignIn(services, invocation, baseUrl, key);
}

/** datagrok.signIn: asks for the URL and key, or takes `{ url, apiKey }` (or `{ url }` with a stored key). */
export async function signInCommand(services: Services, inv: CommandInvocation<SignInOptions>): Promise<Group> {
  const { connection } = services;
  if (!inv.options) return promptSignIn(services, inv);
  const url = optionalText(inv.options.url, 'url') ?? connection.serverUrl;
  const apiKey = optionalText(inv.options.apiKey, 'apiKey');
  if (apiKey === undefined || apiKey.trim() === '') {
    // { url } alone: the key stored for that server, if any, checked by loading the user.
    if (await connection.hasKey(url)) {
      await connection.switchServer(url);
      return connection.currentUser();
    }
    throw badInput(`No API key is stored for ${hostOf(url)}: call datagrok.signIn with { url, apiKey }.`);
  }
  return checkAndSignIn(services, inv, url, apiKey);
}

/** datagrok.signOut: forgets the active server's key. */
export async function signOutCommand(services: Services): Promise<void> {
  const host = hostOf(services.connection.baseUrl());
  await services.connection.signOut();
  void vscode.window.showInformationMessage(`Signed out of ${host}; its key was removed from this machine.`);
}

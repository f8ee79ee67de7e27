// A sign-in with a key already in hand (given as an option, or grok's): checked with the server under a
// cancellable progress, then stored (Connection.signIn); a wrong key stores nothing.
import * as vscode from 'vscode';
import { hostOf, normalizeBaseUrl } from '../api/names';
import type { Group } from '../api/types';
import type { CommandInvocation } from '../core/commands';
import { displayName } from '../platform/groups/model';
import type { Services } from '../services';

/** Checks the key with the server under a cancellable progress, then stores it (Connection.signIn). */
export async function checkAndSignIn(services: Services, invocation: CommandInvocation<unknown>, url: string, apiKey: string): Promise<Group> {
  const baseUrl = normalizeBaseUrl(url);
  const user = await invocation.withProgress(`Checking the key with ${hostOf(baseUrl)} (${services.connection.route(baseUrl)})…`, (_progress, signal) =>
    services.connection.signIn(baseUrl, apiKey, signal),
  );
  void vscode.window.showInformationMessage(`Signed in to ${hostOf(baseUrl)} as ${displayName(user)}.`);
  return user;
}

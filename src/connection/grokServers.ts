// The servers the grok CLI knows (~/.grok/config.yaml, `servers: {alias: {url, key}}`), offered where the
// extension asks which server: Sign In lists them before "Enter a server URL and API key…", Switch Server
// beside the servers signed in to. A pick is a question, not yet a yes: a second pick asks whether to use
// grok's key, which is then checked with the server and stored as any key (SecretStorage, per server).
// grok's file is only read here; the key goes to no setting and no log line.
import * as vscode from 'vscode';
import { badInput, DatagrokError } from '../api/errors';
import { hostOf } from '../api/names';
import type { Group } from '../api/types';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { type GrokServer, readGrokServers } from '../platform/grokConfig';
import type { Services } from '../services';
import { checkAndSignIn } from './keySignIn';

/** A server grok keeps a key for, usable here. */
export type UsableGrokServer = GrokServer & { url: string; key: string };

export interface GrokServerItem extends vscode.QuickPickItem {
  grok?: UsableGrokServer;
}

/** grok's servers that can be signed in to (the others are named in the log, with why). */
export async function usableGrokServers(log: vscode.LogOutputChannel): Promise<{ file: string; servers: UsableGrokServer[] }> {
  const read = await readGrokServers();
  if (read.problem) log.warn(`grok's servers are not offered: ${read.problem}`);
  for (const s of read.servers) if (s.problem) log.info(`grok's server "${s.alias}" is not offered: ${s.problem}`);
  return { file: read.file, servers: read.servers.filter((s): s is UsableGrokServer => !s.problem && !!s.url && !!s.key) };
}

/** A pick's item for a grok server. */
export function grokServerItem(server: UsableGrokServer, state?: string): GrokServerItem {
  return {
    label: `$(terminal) ${server.alias}`,
    description: [hostOf(server.url), `grok's key${server.isDefault ? ' (grok default)' : ''}`, state].filter(Boolean).join(' · '),
    detail: server.url,
    grok: server,
  };
}

/** Asks whether to use grok's key for the server (a pick: it stays in the flow the user started), then signs in with it. */
export async function confirmGrokSignIn(services: Services, inv: CommandInvocation<unknown>, server: UsableGrokServer, file: string): Promise<Group> {
  const host = hostOf(server.url);
  const yes: vscode.QuickPickItem = {
    label: `$(key) Sign In with grok's key for ${server.alias}`,
    detail: `The key is checked with ${host}, then kept in VS Code's secret storage for ${server.url}. ${file} is not changed.`,
  };
  const no: vscode.QuickPickItem = { label: 'Cancel', detail: 'Nothing is stored.' };
  const picked = await vscode.window.showQuickPick([yes, no], {
    title: `Datagrok: Sign In to ${host} with grok's key?`,
    placeHolder: `Use the API key grok keeps for "${server.alias}" in ${file}?`,
    ignoreFocusOut: true,
  });
  if (picked !== yes) throw new UserCancelled();
  return signInWithGrokKey(services, inv, server, file);
}

/** `datagrok.signIn { grokAlias }`: the alias's URL and key, with no question (the caller chose it). */
export async function signInWithGrokAlias(services: Services, inv: CommandInvocation<unknown>, alias: string): Promise<Group> {
  const read = await readGrokServers();
  if (read.problem) throw badInput(`Signing in with grok's server "${alias}" failed: ${read.problem}.`);
  const server = read.servers.find((s) => s.alias === alias.trim());
  if (!server) {
    const known = read.servers.map((s) => s.alias);
    throw badInput(
      `grok's config (${read.file}) has no server "${alias}"${known.length ? `; it has ${known.join(', ')}` : ''}. Add it with "grok config" or "Datagrok: Add This Server to grok".`,
    );
  }
  if (server.problem || !server.url || !server.key) throw badInput(`grok's server "${alias}" (${read.file}) cannot be signed in to here: ${server.problem}.`);
  return signInWithGrokKey(services, inv, server as UsableGrokServer, read.file);
}

async function signInWithGrokKey(services: Services, inv: CommandInvocation<unknown>, server: UsableGrokServer, file: string): Promise<Group> {
  try {
    const user = await checkAndSignIn(services, inv, server.url, server.key);
    services.log.info(`Signed in to ${hostOf(server.url)} with grok's key for "${server.alias}"`);
    return user;
  } catch (error) {
    if (error instanceof DatagrokError && error.kind === 'unauthorized')
      throw new DatagrokError(
        'unauthorized',
        `${hostOf(server.url)} did not accept the key grok keeps for "${server.alias}": ${error.message} Update servers.${server.alias}.key in ${file}, or sign in with another key.`,
        { ...error.details, cause: error },
      );
    throw error;
  }
}

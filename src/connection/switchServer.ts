// Switching the active server: each server keeps its own key, so switching to one without a key is
// a sign-in to it (the server becomes active only once its key was accepted).
import * as vscode from 'vscode';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { badInput } from '../api/errors';
import type { Services } from '../services';
import { hostOf, normalizeBaseUrl } from '../api/names';
import { confirmGrokSignIn, type GrokServerItem, grokServerItem, type UsableGrokServer, usableGrokServers } from './grokServers';
import { askServerUrl, promptSignIn } from './signIn';

export const PUBLIC_SERVER = 'https://public.datagrok.ai/api';

export interface SwitchServerOptions {
  url: string;
}

export interface SwitchServerResult {
  /** The active server's base URL. */
  url: string;
  /** Whether a key is stored for it. */
  signedIn: boolean;
}

interface ServerItem extends GrokServerItem {
  url?: string;
}

async function pickServer(services: Services): Promise<{ url: string; other: boolean; grok?: UsableGrokServer; file?: string }> {
  const { connection } = services;
  let active: string | undefined;
  try {
    active = connection.baseUrl();
  } catch {
    active = undefined;
  }
  const urls = [...new Set([...(active ? [active] : []), ...connection.knownServers(), PUBLIC_SERVER])];
  const items: ServerItem[] = [];
  for (const url of urls) {
    const signedIn = await connection.hasKey(url);
    const state = signedIn ? 'signed in' : 'not signed in';
    items.push({
      label: `${signedIn ? '$(pass-filled)' : '$(circle-large-outline)'} ${hostOf(url)}`,
      description: url === active ? `${state} · active` : state,
      detail: url,
      url,
    });
  }
  // The servers grok knows that are not listed yet: signed in to with grok's key (after a yes).
  const grok = await usableGrokServers(services.log);
  const unlisted = grok.servers.filter((s) => !urls.includes(s.url));
  if (unlisted.length > 0) items.push({ label: 'grok', kind: vscode.QuickPickItemKind.Separator }, ...unlisted.map((s) => grokServerItem(s, 'not signed in')));
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator }, { label: '$(add) Other server…', description: 'type its URL' });
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Datagrok: Switch Server',
    placeHolder: 'The server to work with (each server keeps its own API key)',
    matchOnDetail: true,
  });
  if (!picked) throw new UserCancelled();
  if (picked.grok) return { url: picked.grok.url, other: false, grok: picked.grok, file: grok.file };
  if (picked.url) return { url: picked.url, other: false };
  return { url: await askServerUrl('https://', 'Datagrok: Switch to Another Server'), other: true };
}

/** datagrok.switchServer: picks a known server (or another URL), or takes `{ url }`. */
export async function switchServerCommand(services: Services, inv: CommandInvocation<SwitchServerOptions>): Promise<SwitchServerResult> {
  const { connection } = services;
  if (inv.options) {
    if (typeof inv.options.url !== 'string') throw badInput('datagrok.switchServer needs { url }, e.g. { url: "https://public.datagrok.ai/api" }.');
    await connection.switchServer(inv.options.url);
    return { url: connection.baseUrl(), signedIn: connection.isSignedIn };
  }
  const { url, grok, file } = await pickServer(services);
  const baseUrl = normalizeBaseUrl(url);
  if (grok && file && !(await connection.hasKey(baseUrl))) {
    await confirmGrokSignIn(services, inv, grok, file);
  } else if (await connection.hasKey(baseUrl)) {
    await connection.switchServer(baseUrl);
    void vscode.window.showInformationMessage(`Now working with ${hostOf(baseUrl)}.`);
  } else {
    // Only a key the server accepted makes it the active server.
    await promptSignIn(services, inv, baseUrl);
  }
  return { url: connection.baseUrl(), signedIn: connection.isSignedIn };
}

// Sign in and sign out: the key is checked against the server before it is stored (Connection.signIn),
// so a wrong key, a wrong URL or an unreachable server each fail with their own message and store nothing.
import * as vscode from 'vscode';
import type { Group } from '../api/types';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { badInput } from '../api/errors';
import { optionalText } from '../core/options';
import type { Services } from '../services';
import { hostOf, normalizeBaseUrl } from '../api/names';
import { displayName } from '../platform/groups/model';
import { confirmGrokSignIn, type GrokServerItem, grokServerItem, signInWithGrokAlias, usableGrokServers } from './grokServers';
import { checkAndSignIn } from './keySignIn';
import { keyToRetry } from './signInFailure';

export interface SignInOptions {
  /** Base URL ending in /api; default the active server. */
  url?: string;
  /** The API key, with or without a leading "Bearer ". */
  apiKey?: string;
  /** A server of the grok CLI's ~/.grok/config.yaml: its URL and the key grok keeps for it (instead of url and apiKey). */
  grokAlias?: string;
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

const KEY_PROMPT = 'Your API key: in Datagrok, open your profile (the picture in the left panel) and follow the API Key link.';

function emptyKeyProblem(value: string): string | undefined {
  return value.trim().replace(/^bearer\s*/i, '') === '' ? 'Paste the API key from your Datagrok profile.' : undefined;
}

/** The URL step shown in the same box before the key, when the URL is not given. */
interface UrlStep {
  prefill: string;
  warning: string;
}

/**
 * The sign-in box: the URL (when `urlStep` is given), then the key, in ONE input box that stays open
 * between the two, so the key step keeps the keyboard focus wherever the flow started (a walkthrough
 * button takes the focus back when a box closes and the next one opens). The key is checked with the
 * server while the box stays open (busy); a key the server rejects (or one that cannot be a key) shows
 * its error in the box, so the user pastes another without typing the URL again. Other failures
 * (unreachable, not a Datagrok API) close it and reject: they are about the URL. Escape (also while
 * checking) cancels and stores nothing.
 */
function signInWithKeyBox(services: Services, givenUrl: string | undefined, urlStep?: UrlStep): Promise<{ user: Group; baseUrl: string }> {
  let baseUrl = givenUrl ?? '';
  const box = vscode.window.createInputBox();
  box.ignoreFocusOut = true;
  const showKeyStep = () => {
    box.title = `Datagrok: Sign In to ${hostOf(baseUrl)}`;
    box.prompt = KEY_PROMPT;
    box.placeholder = 'Paste the key (a leading "Bearer " is fine)';
    box.value = '';
    box.validationMessage = undefined;
    box.password = true;
  };
  let askingUrl = givenUrl === undefined && urlStep !== undefined;
  if (askingUrl && urlStep) {
    box.title = 'Datagrok: Sign In';
    box.prompt = `${urlStep.warning}The Datagrok server URL: the address you open in the browser followed by /api, e.g. https://public.datagrok.ai/api`;
    box.placeholder = 'https://public.datagrok.ai/api';
    box.value = urlStep.prefill;
  } else {
    showKeyStep();
  }
  return new Promise<{ user: Group; baseUrl: string }>((resolve, reject) => {
    let settled = false;
    let checking: AbortController | undefined;
    const end = (settle: () => void) => {
      if (settled) return;
      settled = true;
      checking?.abort();
      box.dispose();
      settle();
    };
    box.onDidChangeValue((value) => {
      if (askingUrl) box.validationMessage = serverUrlProblem(value);
      else if (!box.busy) box.validationMessage = value === '' ? undefined : emptyKeyProblem(value);
    });
    box.onDidAccept(async () => {
      if (box.busy) return;
      if (askingUrl) {
        const problem = serverUrlProblem(box.value);
        if (problem) {
          box.validationMessage = problem;
          return;
        }
        baseUrl = normalizeBaseUrl(box.value);
        askingUrl = false;
        showKeyStep();
        return;
      }
      const host = hostOf(baseUrl);
      const problem = emptyKeyProblem(box.value);
      if (problem) {
        box.validationMessage = problem;
        return;
      }
      checking = new AbortController();
      box.busy = true;
      box.enabled = false;
      box.validationMessage = undefined;
      box.prompt = `Checking the key with ${host} (${services.connection.route(baseUrl)})…`;
      try {
        const user = await services.connection.signIn(baseUrl, box.value, checking.signal);
        end(() => resolve({ user, baseUrl }));
      } catch (error) {
        if (settled) return;
        box.busy = false;
        box.enabled = true;
        box.prompt = KEY_PROMPT;
        if (!keyToRetry(error)) return end(() => reject(error));
        box.validationMessage = { message: `${(error as Error).message} Paste the key again, or press Escape.`, severity: vscode.InputBoxValidationSeverity.Error };
        box.valueSelection = [0, box.value.length];
      }
    });
    box.onDidHide(() => end(() => reject(new UserCancelled())));
    box.show();
  });
}

/**
 * The interactive flow: URL (unless given), then the key (the box stays open on a wrong key). Without a
 * URL, the servers grok keeps a key for are offered first (signed in to with grok's key after a yes).
 */
export async function promptSignIn(services: Services, invocation: CommandInvocation<unknown>, url?: string): Promise<Group> {
  const { connection } = services;
  if (url === undefined) {
    const grok = await usableGrokServers(services.log);
    if (grok.servers.length > 0) {
      const other: GrokServerItem = { label: '$(edit) Enter a Server URL and API Key…' };
      const picked = await vscode.window.showQuickPick<GrokServerItem>(
        [...grok.servers.map((s) => grokServerItem(s)), { label: '', kind: vscode.QuickPickItemKind.Separator }, other],
        { title: 'Datagrok: Sign In', placeHolder: `A server the grok CLI knows (its key from ${grok.file}), or another`, matchOnDetail: true, ignoreFocusOut: true },
      );
      if (!picked) throw new UserCancelled();
      if (picked.grok) return confirmGrokSignIn(services, invocation, picked.grok, grok.file);
    }
  }
  const prefill = connection.serverUrl || 'https://public.datagrok.ai/api';
  // A URL set by this workspace's settings that the user never signed in to may come from a cloned repository.
  const unfamiliar = connection.serverUrlFromWorkspace() && !connection.knownServers().includes(prefill);
  const warning = unfamiliar ? "⚠ This URL comes from this workspace's settings: send your key only to a server you trust. " : '';
  const { user, baseUrl } = await signInWithKeyBox(services, url, { prefill, warning });
  void vscode.window.showInformationMessage(`Signed in to ${hostOf(baseUrl)} as ${displayName(user)}.`);
  return user;
}

/** datagrok.signIn: asks for the URL and key, or takes `{ url, apiKey }` (or `{ url }` with a stored key). */
export async function signInCommand(services: Services, inv: CommandInvocation<SignInOptions>): Promise<Group> {
  const { connection } = services;
  if (!inv.options) return promptSignIn(services, inv);
  const grokAlias = optionalText(inv.options.grokAlias, 'grokAlias');
  if (grokAlias !== undefined) {
    if (inv.options.url !== undefined || inv.options.apiKey !== undefined) throw badInput('datagrok.signIn takes either { grokAlias } or { url, apiKey }, not both.');
    return signInWithGrokAlias(services, inv, grokAlias);
  }
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

/**
 * datagrok.signOut: forgets the active server's key. From the palette or a menu it asks first (modal):
 * the key is not kept anywhere else, so signing in again needs it pasted again. With options (`{}`) it
 * asks nothing.
 */
export async function signOutCommand(services: Services, inv: CommandInvocation<Record<string, never>>): Promise<void> {
  const host = hostOf(services.connection.baseUrl());
  if (inv.interactive) {
    const choice = await vscode.window.showWarningMessage(
      `Sign out of ${host}?`,
      {
        modal: true,
        detail:
          'Its API key is removed from this machine: to sign in again you paste it again. Unsaved connector files of this server stay open until you sign in again to save them.',
      },
      'Sign Out',
    );
    if (choice !== 'Sign Out') throw new UserCancelled();
  }
  await services.connection.signOut();
  void vscode.window.showInformationMessage(`Signed out of ${host}; its key was removed from this machine.`);
}

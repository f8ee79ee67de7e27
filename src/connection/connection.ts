// The one seam between features and the Datagrok API: which server is active, its key (held only in
// SecretStorage, keyed by server), and a client bound to that server and key. Features never build a
// client themselves, so a key stored for one server can never be sent to another.
import * as vscode from 'vscode';
import { createClient, normalizeBaseUrl } from '../api';
import { DatagrokError } from '../api/errors';
import type { DatagrokApi, Group } from '../api/types';
import { logRequest } from '../core/log';

const SERVERS_KEY = 'datagrok.servers';
const SIGNED_IN_CONTEXT = 'datagrok.signedIn';

function secretKey(baseUrl: string): string {
  return `datagrok.apiKey:${baseUrl}`;
}

export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

export class Connection implements vscode.Disposable {
  private readonly clients = new Map<string, DatagrokApi>();
  private readonly users = new Map<string, Promise<Group>>();
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private signedIn = false;

  /** Fires when the active server, its key, or the signed-in state changes. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subscriptions.push(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('datagrok.requestTimeoutSeconds') || e.affectsConfiguration('datagrok.transferTimeoutSeconds')) {
          this.closeClients();
        }
        if (e.affectsConfiguration('datagrok.serverUrl')) {
          void this.refresh();
        }
      }),
      context.secrets.onDidChange((e) => {
        if (e.key.startsWith('datagrok.apiKey:')) {
          void this.refresh();
        }
      }),
    );
  }

  /** The active server's base URL as configured (may be invalid: `baseUrl()` checks it). */
  get serverUrl(): string {
    return vscode.workspace.getConfiguration('datagrok').get<string>('serverUrl', '').trim();
  }

  get isSignedIn(): boolean {
    return this.signedIn;
  }

  /** The active server's normalised base URL; rejects with a clear message when the setting is bad. */
  baseUrl(): string {
    try {
      return normalizeBaseUrl(this.serverUrl);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      throw new DatagrokError('badInput', `The setting datagrok.serverUrl is not a valid server URL: ${why}`);
    }
  }

  /** Servers the user has signed in to (keys in SecretStorage), for switching. */
  knownServers(): string[] {
    return this.context.globalState.get<string[]>(SERVERS_KEY, []);
  }

  /** Re-reads whether the active server has a key; updates the `datagrok.signedIn` context key. */
  async refresh(): Promise<void> {
    let signedIn = false;
    try {
      signedIn = (await this.context.secrets.get(secretKey(this.baseUrl()))) !== undefined;
    } catch {
      signedIn = false;
    }
    this.signedIn = signedIn;
    await vscode.commands.executeCommand('setContext', SIGNED_IN_CONTEXT, signedIn);
    this.changed.fire();
  }

  /** A client for the active server; rejects with kind 'unauthorized' when no key is stored. */
  async client(): Promise<DatagrokApi> {
    const baseUrl = this.baseUrl();
    const key = await this.context.secrets.get(secretKey(baseUrl));
    if (key === undefined) {
      throw new DatagrokError('unauthorized', `You are not signed in to ${hostOf(baseUrl)}. Run "Datagrok: Sign In" and paste your API key.`);
    }
    let client = this.clients.get(baseUrl);
    if (!client) {
      client = this.createClient(baseUrl, key);
      this.clients.set(baseUrl, client);
    }
    return client;
  }

  /** The signed-in user's group on the active server (fetched once per server and key). */
  async currentUser(): Promise<Group> {
    const baseUrl = this.baseUrl();
    let user = this.users.get(baseUrl);
    if (!user) {
      user = this.client().then((c) => c.currentUserGroup());
      this.users.set(baseUrl, user);
      user.catch(() => this.users.delete(baseUrl));
    }
    return user;
  }

  /**
   * Checks the key against the server (current user's group) and only then stores it for that server
   * and makes that server the active one. A wrong key or an unreachable server stores nothing.
   */
  async signIn(url: string, apiKey: string, signal?: AbortSignal): Promise<Group> {
    const baseUrl = normalizeBaseUrl(url);
    const key = apiKey.trim();
    if (key === '' || key.toLowerCase() === 'bearer') {
      throw new DatagrokError('badInput', 'The API key is empty. Copy it from your Datagrok profile (API Key link).');
    }
    const probe = this.createClient(baseUrl, key);
    let user: Group;
    try {
      user = await probe.currentUserGroup({ signal });
    } finally {
      await probe.close();
    }
    await this.context.secrets.store(secretKey(baseUrl), key);
    const servers = this.knownServers().filter((s) => s !== baseUrl);
    await this.context.globalState.update(SERVERS_KEY, [baseUrl, ...servers]);
    this.forget(baseUrl);
    this.users.set(baseUrl, Promise.resolve(user));
    if (this.serverUrl !== baseUrl) {
      await vscode.workspace.getConfiguration('datagrok').update('serverUrl', baseUrl, vscode.ConfigurationTarget.Global);
    }
    this.log.info(`Signed in to ${hostOf(baseUrl)} as ${user.friendlyName ?? user.name}`);
    await this.refresh();
    return user;
  }

  /** Forgets the active server's key. */
  async signOut(): Promise<void> {
    const baseUrl = this.baseUrl();
    await this.context.secrets.delete(secretKey(baseUrl));
    this.forget(baseUrl);
    this.log.info(`Signed out of ${hostOf(baseUrl)}`);
    await this.refresh();
  }

  /** Makes another server active (its own key, if one is stored, is used from then on). */
  async switchServer(url: string): Promise<void> {
    const baseUrl = normalizeBaseUrl(url);
    await vscode.workspace.getConfiguration('datagrok').update('serverUrl', baseUrl, vscode.ConfigurationTarget.Global);
    await this.refresh();
  }

  private createClient(baseUrl: string, apiKey: string): DatagrokApi {
    const config = vscode.workspace.getConfiguration('datagrok');
    return createClient({
      baseUrl,
      apiKey,
      timeouts: {
        requestMs: config.get<number>('requestTimeoutSeconds', 60) * 1000,
        transferMs: config.get<number>('transferTimeoutSeconds', 600) * 1000,
      },
      onRequest: (entry) => logRequest(this.log, entry),
    });
  }

  private forget(baseUrl: string): void {
    void this.clients.get(baseUrl)?.close();
    this.clients.delete(baseUrl);
    this.users.delete(baseUrl);
  }

  private closeClients(): void {
    for (const client of this.clients.values()) {
      void client.close();
    }
    this.clients.clear();
  }

  dispose(): void {
    this.closeClients();
    for (const s of this.subscriptions) {
      s.dispose();
    }
  }
}

// The one seam between features and the Datagrok API: which server is active, its key (held only in
// SecretStorage, keyed by server), and a client bound to that server and key. Features never build a
// client themselves, so a key stored for one server can never be sent to another.
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { apiKeyProblem, hostOf, normalizeApiKey, normalizeBaseUrl } from '../api/names';
import type { Group } from '../api/types';
import type { DatagrokApi } from '../api/datagrokApi';
import { createApiClient } from './clientFactory';
import { NETWORK_SETTINGS, routeOf } from './networkSettings';
import { notSignedIn, signInFailure } from './signInFailure';
import { displayName } from '../platform/groups/names';
import { KnownUsers } from '../platform/knownUsers';
import type { SessionScope } from '../platform/sessionScope';
import { Sessions } from './sessions';
import { configuredBaseUrl, configuredServerUrl, serverUrlFromWorkspace, setServerUrl } from './serverSetting';

const SERVERS_KEY = 'datagrok.servers';
// Set once activated; menus use `!datagrok.signedOut`, so commands show before activation too.
const SIGNED_OUT_CONTEXT = 'datagrok.signedOut';

const secretKey = (baseUrl: string) => `datagrok.apiKey:${baseUrl}`;

export class Connection implements vscode.Disposable {
  /** One client per server, with the key it was made with (a key changed elsewhere makes a new one). */
  private readonly clients = new Map<string, { key: string; client: DatagrokApi }>();
  private readonly users = new Map<string, Promise<Group>>();
  /** Users already loaded, by server: read without a request (the status bar shows them). */
  private readonly loadedUsers = new Map<string, Group>();
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly userLoaded = new vscode.EventEmitter<Group>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private signedIn = false;
  /** The session now (see platform/session.ts): what the models keep is kept for it alone. */
  private readonly sessions = new Sessions();
  /** The user last seen per server, kept across reloads: the status bar names them with no request. */
  private readonly knownUsers: KnownUsers;

  /** Fires when the active server, its key, or the signed-in state changes. */
  readonly onDidChange = this.changed.event;
  /** Fires when the active server's user becomes known (after a sign-in or a first `currentUser()`). */
  readonly onDidLoadUser = this.userLoaded.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.knownUsers = new KnownUsers(context.globalState);
    this.subscriptions.push(
      this.changed,
      this.userLoaded,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (['requestTimeoutSeconds', 'transferTimeoutSeconds', 'maxAnswerSizeMB'].some((s) => e.affectsConfiguration(`datagrok.${s}`))) {
          this.closeClients();
        }
        if (NETWORK_SETTINGS.some((name) => e.affectsConfiguration(name))) {
          // Proxy and certificate changes apply to the next request, without a reload.
          this.closeClients();
          this.changed.fire();
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
    return configuredServerUrl();
  }

  get isSignedIn(): boolean {
    return this.signedIn;
  }

  /** The session now: a new one after every sign-in, sign-out, switch of server or change of key. */
  scope(): SessionScope {
    return this.sessions.current;
  }

  /** Whether the active server has a stored key, read now (right after activation `isSignedIn` may lag). */
  hasActiveKey(): Promise<boolean> {
    return this.hasKey(this.serverUrl);
  }
  /** The active server's host for messages, or a generic name when the setting is not a valid URL. */
  activeHost(): string {
    try {
      return hostOf(this.baseUrl());
    } catch {
      return 'the Datagrok server';
    }
  }

  /** The active server's normalised base URL; rejects with a clear message when the setting is bad. */
  baseUrl(): string {
    return configuredBaseUrl();
  }

  /**
   * Whether the active server URL comes from this workspace's settings rather than the user's: a cloned
   * repository could name any server, so sign-in says so before a key is sent there.
   */
  serverUrlFromWorkspace(): boolean {
    return serverUrlFromWorkspace();
  }

  /** Servers the user has signed in to (keys in SecretStorage), for switching. */
  knownServers(): string[] {
    return this.context.globalState.get<string[]>(SERVERS_KEY, []);
  }

  /** Whether a key is stored for that server (normalised first; false for a malformed URL). */
  async hasKey(url: string): Promise<boolean> {
    try {
      return (await this.context.secrets.get(secretKey(normalizeBaseUrl(url)))) !== undefined;
    } catch {
      return false;
    }
  }

  /** The key stored for that server, for a process started for the user (the MCP server's environment only). */
  apiKeyFor(url: string): Thenable<string | undefined> {
    return this.context.secrets.get(secretKey(normalizeBaseUrl(url)));
  }

  /**
   * The active server's user if it is already known (loaded in this session, or remembered from the
   * last one while its key is still stored); never sends a request.
   */
  peekUser(): Group | undefined {
    try {
      const baseUrl = this.baseUrl();
      return this.loadedUsers.get(baseUrl) ?? (this.signedIn ? this.knownUsers.get(baseUrl) : undefined);
    } catch {
      return undefined;
    }
  }

  /** Re-reads whether the active server has a key; updates the `datagrok.signedOut` context key. */
  async refresh(): Promise<void> {
    let signedIn = false;
    try {
      const baseUrl = this.baseUrl();
      const key = await this.context.secrets.get(secretKey(baseUrl));
      signedIn = key !== undefined;
      // Another server, another key, or signed out (here or in another window): a session ends.
      this.sessions.follow(Sessions.of(baseUrl, key), signedIn ? undefined : notSignedIn(baseUrl));
    } catch (e) {
      this.sessions.follow(undefined, e instanceof Error ? e : undefined);
    }
    this.signedIn = signedIn;
    await vscode.commands.executeCommand('setContext', SIGNED_OUT_CONTEXT, !signedIn);
    this.changed.fire();
  }

  /** A client for the active server; rejects with kind 'unauthorized' when no key is stored. */
  async client(): Promise<DatagrokApi> {
    return this.clientFor(this.baseUrl());
  }

  /**
   * A client for a server the user signed in to, active or not (connector-file URIs name their own
   * server); rejects with kind 'unauthorized' when no key is stored for it. Only its own key is used.
   */
  async clientFor(url: string): Promise<DatagrokApi> {
    const baseUrl = normalizeBaseUrl(url);
    const key = await this.context.secrets.get(secretKey(baseUrl));
    if (key === undefined) {
      throw notSignedIn(baseUrl);
    }
    const cached = this.clients.get(baseUrl);
    if (cached?.key === key) {
      return cached.client;
    }
    // First use, or the key was changed (e.g. signed in again from another window).
    void cached?.client.close();
    const client = createApiClient(baseUrl, key, this.log);
    this.clients.set(baseUrl, { key, client });
    this.log.info(`Requests to ${hostOf(baseUrl)} go ${this.route(baseUrl)}`);
    return client;
  }

  /** The signed-in user's group on the active server (fetched once per server and key). */
  async currentUser(): Promise<Group> {
    const baseUrl = this.baseUrl();
    let user = this.users.get(baseUrl);
    if (!user) {
      const loading = this.client().then((c) => c.currentUserGroup());
      user = loading;
      this.users.set(baseUrl, loading);
      loading.then(
        (group) => {
          if (this.users.get(baseUrl) === loading) this.rememberUser(baseUrl, group);
        },
        () => {
          if (this.users.get(baseUrl) === loading) this.users.delete(baseUrl);
        },
      );
    }
    return user;
  }

  /**
   * Checks the key against the server (current user's group) and only then stores it for that server
   * and makes that server the active one. A wrong key or an unreachable server stores nothing.
   */
  async signIn(url: string, apiKey: string, signal?: AbortSignal): Promise<Group> {
    const baseUrl = normalizeBaseUrl(url);
    // Stored as sent: without a pasted "Bearer " prefix.
    const key = normalizeApiKey(apiKey);
    if (key === '' || key.toLowerCase() === 'bearer') {
      throw badInput('The API key is empty. Copy it from your Datagrok profile (API Key link).');
    }
    const keyProblem = apiKeyProblem(key);
    if (keyProblem) throw badInput(keyProblem);
    const probe = createApiClient(baseUrl, key, this.log);
    let user: Group;
    try {
      user = await probe.currentUserGroup({ signal });
    } catch (error) {
      throw signInFailure(error, baseUrl);
    } finally {
      await probe.close();
    }
    await this.context.secrets.store(secretKey(baseUrl), key);
    // A sign-in starts a session, even with the same key (another user may have been signed in before).
    this.sessions.begin(Sessions.of(baseUrl, key));
    const servers = this.knownServers().filter((s) => s !== baseUrl);
    await this.context.globalState.update(SERVERS_KEY, [baseUrl, ...servers]);
    this.forget(baseUrl);
    this.users.set(baseUrl, Promise.resolve(user));
    this.rememberUser(baseUrl, user);
    await setServerUrl(baseUrl);
    this.log.info(`Signed in to ${hostOf(baseUrl)} as ${displayName(user)}; requests go ${this.route(baseUrl)}`);
    await this.refresh();
    return user;
  }

  /** Forgets the active server's key. */
  async signOut(): Promise<void> {
    const baseUrl = this.baseUrl();
    await this.context.secrets.delete(secretKey(baseUrl));
    // Everything kept for the session goes with it; what is still loading answers "not signed in".
    this.sessions.begin(Sessions.of(baseUrl, undefined), notSignedIn(baseUrl));
    this.forget(baseUrl);
    await this.knownUsers.delete(baseUrl);
    this.log.info(`Signed out of ${hostOf(baseUrl)}`);
    await this.refresh();
  }

  /** Makes another server active (its own key, if one is stored, is used from then on). */
  async switchServer(url: string): Promise<void> {
    const baseUrl = normalizeBaseUrl(url);
    await setServerUrl(baseUrl);
    await this.refresh();
  }

  /** Which route requests to that server (default: the active one) take, without credentials. */
  route(baseUrl = this.serverUrl): string {
    return routeOf(baseUrl);
  }

  private rememberUser(baseUrl: string, user: Group): void {
    this.loadedUsers.set(baseUrl, user);
    this.knownUsers.set(baseUrl, user).then(undefined, (e) => this.log.warn(`Remembering the user of ${hostOf(baseUrl)} failed: ${String(e)}`));
    this.userLoaded.fire(user);
  }

  private forget(baseUrl: string): void {
    void this.clients.get(baseUrl)?.client.close();
    this.clients.delete(baseUrl);
    this.users.delete(baseUrl);
    this.loadedUsers.delete(baseUrl);
  }

  private closeClients(): void {
    for (const { client } of this.clients.values()) {
      void client.close();
    }
    this.clients.clear();
  }

  dispose(): void {
    this.closeClients();
    for (const s of this.subscriptions) s.dispose();
  }
}

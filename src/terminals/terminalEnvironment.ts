// The signed-in server in the user's terminals and Python, only after an opt-in. Registered at
// activation (it must hold before any feature loads): while `datagrok.terminal.exposeCredentials` (user
// settings only) or this workspace's "Use Datagrok in Terminals" is on and a key is stored, new
// integrated terminals get DATAGROK_API_URL and DATAGROK_API_KEY through the extension's environment
// variable collection (not persisted: after a restart they come back when the extension is active
// again). A switch of server updates them, a sign-out removes them; VS Code marks open terminals stale.
// A .datagrok/.env the extension wrote is rewritten on a switch (and made private, 0600, if it was not)
// and removed at sign-out.
import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
import type * as PrivateFiles from '../core/privateFile';
import { ENV_DIR, ENV_FILE, ENV_FILE_MARK, ENV_KEY, ENV_URL, envFileText } from './credentials';

export const TERMINAL_SETTING = 'terminal.exposeCredentials';
/** This workspace's opt-in (workspace state: a repository's settings cannot turn it on). */
const WORKSPACE_OPT_IN = 'datagrok.terminal.useInTerminals';

export class TerminalEnvironment implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly connection: Connection,
    readonly log: vscode.LogOutputChannel,
    /** The writer of files holding the key, in the features' bundle: loaded when one is written, not at activation. */
    private readonly privateFiles: () => typeof PrivateFiles,
  ) {
    this.subscriptions = [
      connection.onDidChange(() => void this.sync()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`datagrok.${TERMINAL_SETTING}`)) void this.sync();
      }),
    ];
    // In a turn of its own, not in activate()'s call: the host answers the collection's first use at once,
    // which was most of that call's time. It still starts during activation, before the stand-ins' parts.
    const first = setImmediate(() => void this.sync());
    this.subscriptions.push(new vscode.Disposable(() => clearImmediate(first)));
  }

  /** The extension's environment variable collection for this workspace (what new terminals get). */
  get collection(): vscode.GlobalEnvironmentVariableCollection {
    return this.context.environmentVariableCollection;
  }

  /** Whether new terminals get the variables (once a key is stored). */
  get enabled(): boolean {
    const setting = vscode.workspace.getConfiguration('datagrok').inspect<boolean>(TERMINAL_SETTING)?.globalValue === true;
    return setting || this.context.workspaceState.get<boolean>(WORKSPACE_OPT_IN) === true;
  }

  /** Turns this workspace's opt-in on or off; resolves once the terminals' variables follow. */
  async setWorkspaceOptIn(on: boolean): Promise<void> {
    await this.context.workspaceState.update(WORKSPACE_OPT_IN, on ? true : undefined);
    await this.sync();
  }

  /** The active server and its key, when signed in. */
  async credentials(): Promise<{ url: string; key: string } | undefined> {
    let url: string;
    try {
      url = this.connection.baseUrl();
    } catch {
      return undefined;
    }
    const key = await this.connection.apiKeyFor(url);
    return key ? { url, key } : undefined;
  }

  /** Brings the terminals' variables and any .env the extension wrote in line with the connection (one at a time). */
  sync(): Promise<void> {
    this.queue = this.queue.then(() => this.apply()).catch((e) => this.log.warn(`Terminal variables: ${e instanceof Error ? e.message : String(e)}`));
    return this.queue;
  }

  private async apply(): Promise<void> {
    const collection = this.collection;
    // Never kept across restarts (it holds the key): set before anything is put in it.
    collection.persistent = false;
    const found = await this.credentials();
    if (this.enabled && found) {
      collection.description = `Datagrok: ${ENV_URL} (${found.url}) and ${ENV_KEY} (your API key), for Python and other programs. Turn off with "Datagrok: Use Datagrok in Terminals".`;
      collection.replace(ENV_URL, found.url);
      collection.replace(ENV_KEY, found.key);
    } else {
      collection.clear();
    }
    for (const file of this.envFiles()) await this.followEnvFile(file, found);
  }

  /** The .datagrok/.env of each workspace folder on disk. */
  envFiles(): vscode.Uri[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => vscode.Uri.joinPath(f.uri, ENV_DIR, ENV_FILE));
  }

  private async followEnvFile(file: vscode.Uri, found: { url: string; key: string } | undefined): Promise<void> {
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    } catch {
      return;
    }
    if (!text.startsWith(ENV_FILE_MARK)) return;
    if (found) {
      // Also rewritten when others can read it (a .env written before it was made 0600).
      const fresh = envFileText(found.url, found.key);
      // (The mode is read here, not through privateFile.ts: that module loads with the features, on a write.)
      const mode = process.platform === 'win32' ? undefined : (await stat(file.fsPath).catch(() => undefined))?.mode;
      if (fresh !== text || (mode !== undefined && (mode & 0o077) !== 0))
        await this.privateFiles().writeKeyFile(file.fsPath, fresh, this.log, vscode.Uri.joinPath(file, '..', '..').fsPath);
    } else {
      await vscode.workspace.fs.delete(file);
      this.log.info(`Removed ${file.fsPath} (signed out)`);
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

/** Registered at activation; the features reach it through their Shell (src/features.ts). */
export function registerTerminalEnvironment(
  context: vscode.ExtensionContext,
  connection: Connection,
  log: vscode.LogOutputChannel,
  privateFiles: () => typeof PrivateFiles,
): TerminalEnvironment {
  const terminals = new TerminalEnvironment(context, connection, log, privateFiles);
  context.subscriptions.push(terminals);
  return terminals;
}

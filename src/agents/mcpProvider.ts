// The MCP server definition: dist/mcp.js run by the extension host's own Node (process.execPath), the
// active server's URL and key handed over in its environment when it starts (resolveMcpServerDefinition),
// never on its command line and never in settings. A change of server, key or sign-in fires
// onDidChangeMcpServerDefinitions with a new version, so the editor restarts it with the new connection;
// signed out, it starts without a key and answers every call with the sign-in message.
// The editor may keep a running server until the user restarts it, so the connection's state (server
// and signed in or out, never the key) is also written to a file the server checks before each call: a
// server whose connection was signed out or switched refuses to act and says to restart it.
import * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
import { MCP_ENV } from './mcp/env';
import type * as McpEnvironment from './mcpEnvironment';

export const MCP_PROVIDER_ID = 'datagrok.mcpServers';

export class DatagrokMcpProvider implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private generation = 0;
  private readonly subscriptions: vscode.Disposable[];
  readonly onDidChangeMcpServerDefinitions = this.changed.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly connection: Connection,
    private readonly environment: () => typeof McpEnvironment,
  ) {
    this.subscriptions = [
      this.changed,
      connection.onDidChange(() => {
        this.generation++;
        void this.writeState().catch(() => undefined);
        this.changed.fire();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.generation++;
        this.changed.fire();
      }),
      // The server reads local files only inside the folders it started with: new folders, new server.
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.generation++;
        this.changed.fire();
      }),
    ];
  }

  /** The active server's URL, or '' when the setting is not a valid one. */
  private server(): string {
    try {
      return this.connection.baseUrl();
    } catch {
      return '';
    }
  }

  /** The connection as the running server must still find it: the server and whether signed in. */
  private state(): string {
    return `${this.server()}\n${this.connection.isSignedIn ? 'signed in' : 'signed out'}`;
  }

  /** The file the running server checks before each call (the workspace's storage: servers differ per workspace). */
  get stateFile(): vscode.Uri {
    return vscode.Uri.joinPath(this.context.storageUri ?? this.context.globalStorageUri, 'mcp-connection.txt');
  }

  private async writeState(): Promise<string> {
    const state = this.state();
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(this.stateFile, '..'));
    await vscode.workspace.fs.writeFile(this.stateFile, new TextEncoder().encode(state));
    return state;
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    const server = this.server();
    const state = this.connection.isSignedIn ? 'signed in' : 'signed out';
    const definition = new vscode.McpStdioServerDefinition(
      'Datagrok',
      process.execPath,
      [this.context.asAbsolutePath('dist/mcp.js')],
      { [MCP_ENV.url]: server, ELECTRON_RUN_AS_NODE: '1' },
      `${this.context.extension.packageJSON.version} ${state} ${server} #${this.generation}`,
    );
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
    if (folder) definition.cwd = folder.uri;
    return [definition];
  }

  /**
   * Called when the editor starts the server: the key goes into its environment now, read from SecretStorage
   * (mcpEnvironment.ts, in the features' bundle: loaded when a server starts, not at activation).
   */
  async resolveMcpServerDefinition(definition: vscode.McpStdioServerDefinition): Promise<vscode.McpStdioServerDefinition> {
    const server = this.server();
    definition.env = {
      ...definition.env,
      ...(await this.environment().mcpEnvironment(server, server ? await this.connection.apiKeyFor(server) : undefined, this.stateFile.fsPath, await this.writeState())),
    };
    return definition;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

/** Registers the MCP server definition provider (at activation: the editor may ask for it at once). */
export function registerMcpProvider(context: vscode.ExtensionContext, connection: Connection, environment: () => typeof McpEnvironment): DatagrokMcpProvider {
  const mcp = new DatagrokMcpProvider(context, connection, environment);
  context.subscriptions.push(mcp, vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcp));
  return mcp;
}

// What the MCP server starts with (mcpProvider.ts resolves its definition with it): the active server, its key
// read from SecretStorage just now, the network settings it must apply itself (the editor does not patch its
// Node), the workspace's trust and folders, the connection-state file it checks before each call, and the
// timeouts. In the features' bundle: loaded when a server starts, not at activation.
import * as vscode from 'vscode';
import { childNetworkOptions } from '../connection/networkSettings';
import { MCP_ENV } from './mcp/env';

/** The workspace folders on disk: the only places the MCP server may read local files from. */
export function localWorkspaceFolders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

export async function mcpEnvironment(server: string, key: string | undefined, stateFile: string, state: string): Promise<Record<string, string | null>> {
  const config = vscode.workspace.getConfiguration('datagrok');
  return {
    [MCP_ENV.url]: server,
    [MCP_ENV.key]: key ?? null,
    [MCP_ENV.network]: JSON.stringify(childNetworkOptions()),
    [MCP_ENV.trusted]: vscode.workspace.isTrusted ? '1' : '0',
    [MCP_ENV.folders]: JSON.stringify(localWorkspaceFolders()),
    [MCP_ENV.stateFile]: stateFile,
    [MCP_ENV.state]: state,
    [MCP_ENV.timeouts]: JSON.stringify({
      requestMs: config.get<number>('requestTimeoutSeconds', 60) * 1000,
      transferMs: config.get<number>('transferTimeoutSeconds', 600) * 1000,
    }),
  };
}

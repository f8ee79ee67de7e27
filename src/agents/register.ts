// The agents feature: the platform's operations as language-model tools and as an MCP server, both on
// the connection the user signed in with.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { registerTools, type OperationTool } from './lmTools';
import { DatagrokMcpProvider, MCP_PROVIDER_ID } from './mcpProvider';
import type { OperationContext } from './operations';
import { workspaceFiles } from './workspaceFiles';

export interface AgentsApi {
  /** The registered tools by name: the very objects vscode.lm.registerTool was given. */
  readonly tools: ReadonlyMap<string, OperationTool>;
  readonly mcp: DatagrokMcpProvider;
}

export function registerAgents(services: Services): AgentsApi {
  const { connection, platform, context, log } = services;
  const ctx: OperationContext = {
    client: () => connection.client(),
    catalog: platform.catalog,
    groups: platform.groups,
    files: workspaceFiles,
    remember: (kind, baseUrl, entity) => platform[kind].remember(baseUrl, entity),
  };
  const tools = registerTools(ctx, log, context.subscriptions);
  const mcp = new DatagrokMcpProvider(context, connection);
  context.subscriptions.push(mcp, vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcp));
  return { tools, mcp };
}

// The agents feature: the platform's operations as language-model tools and as an MCP server, both on
// the connection the user signed in with. The MCP server definition provider is registered at activation
// (src/extension.ts: the editor asks it early); the tools here, when the features load.
import type { Services } from '../services';
import { registerTools, type OperationTool } from './lmTools';
import type { DatagrokMcpProvider } from './mcpProvider';
import type { OperationContext } from './operations';
import { workspaceFiles } from './workspaceFiles';

export interface AgentsApi {
  /** The tools by name: what the stand-ins registered with vscode.lm at activation call. */
  readonly tools: ReadonlyMap<string, OperationTool>;
  readonly mcp: DatagrokMcpProvider;
}

/** Registers the language-model tools; returns them by name. */
export function registerAgents(services: Services): ReadonlyMap<string, OperationTool> {
  const { connection, platform, context, log, contributions } = services;
  const ctx: OperationContext = {
    client: () => connection.client(),
    catalog: platform.catalog,
    groups: platform.groups,
    files: workspaceFiles,
    remember: (kind, baseUrl, entity) => platform[kind].remember(baseUrl, entity),
  };
  return registerTools(ctx, log, context.subscriptions, (name, tool) => contributions.tool(name, tool));
}

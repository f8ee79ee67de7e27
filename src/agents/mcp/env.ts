// The environment variables the extension gives the MCP server (dist/mcp.js) when the editor starts it:
// shared by the provider (src/agents/mcpProvider.ts) and the server (src/agents/mcp/server.ts). No vscode.
export const MCP_ENV = {
  url: 'DATAGROK_SERVER_URL',
  key: 'DATAGROK_API_KEY',
  network: 'DATAGROK_NETWORK',
  trusted: 'DATAGROK_WORKSPACE_TRUSTED',
  timeouts: 'DATAGROK_TIMEOUTS',
  stateFile: 'DATAGROK_CONNECTION_FILE',
  state: 'DATAGROK_CONNECTION_STATE',
  /** The workspace folders local files may be read from: a JSON array of absolute paths. */
  folders: 'DATAGROK_WORKSPACE_FOLDERS',
} as const;

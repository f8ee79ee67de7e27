// dist/mcp.js: the Datagrok MCP server the extension registers (src/agents/mcpProvider.ts), run by the
// extension host's Node over stdio. It serves the same operations as the language-model tools, on the
// server and key the extension put in its environment (read once, then removed from this process's
// environment). stdout carries the protocol only; stderr gets one line per start and never the key.
import { readFile } from 'node:fs/promises';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from '../../api/client';
import { DatagrokError } from '../../api/errors';
import { hostOf, normalizeBaseUrl } from '../../api/names';
import type { ClientOptions, Group, NetworkOptions } from '../../api/types';
import type { DatagrokApi } from '../../api/datagrokApi';
import { Catalog } from '../../platform/functions/catalog';
import { GroupsModel } from '../../platform/groups/model';
import { mcpAnnotations, mcpInputSchema, type OperationContext, operation, OPERATIONS } from '../operations';
import { checkInput, inputObject } from '../operations/inputs';
import { errorMessage, SIGN_IN } from '../operations/errors';
import { MCP_ENV as ENV } from './env';
import { NodeFiles, workspaceFolders } from './localFiles';

export const STALE =
  'The Datagrok connection in VS Code changed since this MCP server started (signed out, signed in again or switched server): restart the Datagrok MCP server (MCP: List Servers → Datagrok → Restart Server).';

/** Whether the extension still has the connection this server started with (the file it keeps says so). */
async function stillConnected(file: string | undefined, state: string | undefined): Promise<boolean> {
  if (!file || state === undefined) return true;
  try {
    return (await readFile(file, 'utf8')) === state;
  } catch {
    return true;
  }
}

function takeEnv(name: string): string | undefined {
  const value = process.env[name];
  delete process.env[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}

function parseJson<T>(text: string | undefined): T | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/** Removes the key from any text that leaves the process (the client never puts it in a message; this is a second guard). */
export function redact(text: string, key: string | undefined): string {
  return key && key.length >= 4 ? text.split(key).join('***') : text;
}

function connect(): { client?: DatagrokApi; host?: string; key?: string; problem?: string } {
  const url = takeEnv(ENV.url);
  const key = takeEnv(ENV.key);
  const network = parseJson<NetworkOptions>(takeEnv(ENV.network));
  const timeouts = parseJson<ClientOptions['timeouts']>(takeEnv(ENV.timeouts));
  if (!url || !key) return { key, problem: SIGN_IN };
  let baseUrl: string;
  try {
    baseUrl = normalizeBaseUrl(url);
  } catch (e) {
    return { key, problem: `The Datagrok server URL is not valid (${errorMessage(e)}): check datagrok.serverUrl in VS Code and sign in again.` };
  }
  return { client: createClient({ baseUrl, apiKey: key, network, timeouts }), host: hostOf(baseUrl), key };
}

export async function main(): Promise<void> {
  const trusted = takeEnv(ENV.trusted) !== '0';
  let folders: string[];
  try {
    folders = workspaceFolders(takeEnv(ENV.folders), process.argv.slice(2));
  } catch {
    throw new Error(`${ENV.folders} is not a JSON array of absolute paths.`);
  }
  const stateFile = takeEnv(ENV.stateFile);
  const startState = process.env[ENV.state];
  delete process.env[ENV.state];
  const { client, host, key, problem } = connect();
  let user: Promise<Group> | undefined;
  const session = {
    client: async () => {
      if (!client) throw new DatagrokError('unauthorized', problem ?? SIGN_IN);
      return client;
    },
    currentUser: () => {
      user ??= session.client().then((c) => c.currentUserGroup());
      user.catch(() => {
        user = undefined;
      });
      return user;
    },
  };
  const ctx: OperationContext = { client: session.client, catalog: new Catalog(session), groups: new GroupsModel(session), files: new NodeFiles(folders, trusted) };

  const server = new Server(
    { name: 'datagrok', title: 'Datagrok', version: '0.1.0' },
    {
      capabilities: { tools: {} },
      instructions: client ? `Datagrok server ${host}: find, describe and run functions, push and read tables, connector files, dashboards, groups.` : problem,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: OPERATIONS.map((op) => ({
      name: op.name,
      title: op.title,
      description: op.description,
      inputSchema: mcpInputSchema(op),
      annotations: mcpAnnotations(op),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const op = operation(request.params.name);
    if (!op) return { isError: true, content: [{ type: 'text' as const, text: `Unknown tool "${request.params.name}".` }] };
    try {
      if (client && !(await stillConnected(stateFile, startState))) return { isError: true, content: [{ type: 'text' as const, text: STALE }] };
      const input = inputObject(request.params.arguments ?? {});
      checkInput(op.name, mcpInputSchema(op), input);
      const text = await op.run(ctx, input, extra.signal);
      return { content: [{ type: 'text' as const, text: redact(text, key) }] };
    } catch (e) {
      return { isError: true, content: [{ type: 'text' as const, text: redact(errorMessage(e), key) }] };
    }
  });
  const transport = new StdioServerTransport();
  // One way out, whichever comes first (stdin closed, the client's close, SIGTERM/SIGINT): closing the
  // server closes the transport, whose onclose lands here again, so only the first call acts.
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      transport.onclose = undefined;
      await server.close().catch(() => undefined);
      await client?.close().catch(() => undefined);
      process.exit(0);
    })();
    return stopping;
  };
  transport.onclose = () => void stop();
  process.stdin.on('end', () => void stop());
  process.stdin.on('close', () => void stop());
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  await server.connect(transport);
  const where = folders.length ? `local files from ${folders.join(', ')}` : 'no local files (no workspace folder given)';
  process.stderr.write(client ? `Datagrok MCP server: ready for ${host}; ${where}\n` : `Datagrok MCP server: not signed in; ${where}\n`);
}

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(`Datagrok MCP server failed to start: ${errorMessage(e)}\n`);
    process.exit(1);
  });
}

// Starting dist/mcp.js as an MCP client in the editor does: a separate Node process spoken to over stdio
// with the official SDK's Client. Every message it sends (stdout) and everything it logs (stderr) is kept.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const repoRoot = path.resolve(__dirname, '..', '..', '..');
export const bundle = path.join(repoRoot, 'dist', 'mcp.js');

export interface Session {
  client: Client;
  /** Every message the server sent (its stdout), as JSON text. */
  sent: string[];
  stderr: () => string;
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  close(): Promise<void>;
}

export async function startServer(env: Record<string, string>, cwd: string): Promise<Session> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bundle], env: { PATH: process.env['PATH'] ?? '', ...env }, cwd, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'datagrok-test', version: '1.0.0' });
  await client.connect(transport);
  const sent: string[] = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message) => {
    sent.push(JSON.stringify(message));
    deliver?.(message);
  };
  return {
    client,
    sent,
    stderr: () => stderr,
    async call(name, args = {}) {
      const result = await client.callTool({ name, arguments: args });
      const content = result.content as { type: string; text: string }[];
      assert.equal(content.length, 1, JSON.stringify(result));
      return { text: content[0].text, isError: result.isError === true };
    },
    close: () => client.close(),
  };
}

/** `npm test` builds before test:api; run on its own, the bundle may not exist yet. */
export function ensureBundle(): void {
  if (fs.existsSync(bundle)) return;
  const build = spawnSync(process.execPath, [path.join(repoRoot, 'esbuild.mjs')], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
  assert.equal(build.status, 0, `node esbuild.mjs failed:\n${build.stdout}${build.stderr}`);
}

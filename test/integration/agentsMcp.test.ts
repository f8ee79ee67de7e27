// The agents feature's MCP server definition in the real VS Code host: its process started as the editor
// starts it, with the key only in its environment, and what it gets once the user signs out. The
// language-model tools themselves are in agents.test.ts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as vscode from 'vscode';
import type { DatagrokExtensionApi } from '../../src/extension';
import { api, EXTENSION_ID, invoke, workspaceFolder } from './agentSupport';
import { clearEmulatorRequests, emulator, emulatorRequests, requireWorkspaceTrust, resetEmulator, signIn } from './support';

describe('Agents: language-model tools and the MCP server', () => {
  let ext: DatagrokExtensionApi;

  before(async function () {
    requireWorkspaceTrust(this, true);
    ext = await api();
    await resetEmulator();
    await signIn();
  });

  it("the MCP server definition: the host's Node runs dist/mcp.js, the key only in its environment at start", async () => {
    const [definition] = (await ext.agents.mcp.provideMcpServerDefinitions()) as vscode.McpStdioServerDefinition[];
    assert.equal(definition.command, process.execPath);
    assert.deepEqual(definition.args, [path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'mcp.js')]);
    assert.ok(!JSON.stringify(definition).includes(emulator.key), 'no key before it starts');
    const resolved = (await ext.agents.mcp.resolveMcpServerDefinition(definition)) as vscode.McpStdioServerDefinition;
    assert.equal(resolved.env['DATAGROK_API_KEY'], emulator.key);
    assert.equal(resolved.env['DATAGROK_CONNECTION_STATE'], `${emulator.url}\nsigned in`);
    assert.deepEqual(JSON.parse(String(resolved.env['DATAGROK_WORKSPACE_FOLDERS'])), [workspaceFolder()], 'it reads local files only there');
    assert.equal(fs.readFileSync(ext.agents.mcp.stateFile.fsPath, 'utf8'), `${emulator.url}\nsigned in`);
    assert.ok(!resolved.args.some((a) => a.includes(emulator.key)));
    assert.equal(vscode.workspace.getConfiguration('datagrok').inspect('serverUrl')?.globalValue, emulator.url, 'settings hold the URL, not the key');

    // Started as the editor starts it: an MCP client sees the same tools, on the same connection.
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...resolved.env })) if (typeof v === 'string') env[k] = v;
    const transport = new StdioClientTransport({ command: resolved.command, args: resolved.args, env, cwd: resolved.cwd?.fsPath, stderr: 'pipe' });
    const client = new Client({ name: 'agents-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), [...ext.agents.tools.keys()].sort());
      const answer = await client.callTool({ name: 'datagrok_runFunction', arguments: { function: 'Demo:Add', params: { a: 1, b: 2 } } });
      assert.deepEqual(JSON.parse((answer.content as { text: string }[])[0].text), { function: 'Demo:Add', result: 3 });
    } finally {
      await client.close();
    }
  });

  it('signed out: the tools say to run "Datagrok: Sign In", the MCP definition changes and gets no key', async () => {
    let changes = 0;
    const listening = ext.agents.mcp.onDidChangeMcpServerDefinitions(() => changes++);
    const [before] = (await ext.agents.mcp.provideMcpServerDefinitions()) as vscode.McpStdioServerDefinition[];
    try {
      await vscode.commands.executeCommand('datagrok.signOut', {});
      await clearEmulatorRequests();
      await assert.rejects(invoke('datagrok_findFunctions', {}), /Not signed in to a Datagrok server: run "Datagrok: Sign In"/);
      await assert.rejects(
        ext.agents.tools.get('datagrok_writeFile')!.prepareInvocation({ input: { connector: 'System:DemoFiles', path: 'x', content: '' } }),
        /Datagrok: Sign In/,
      );
      assert.deepEqual(await emulatorRequests(), [], 'nothing was sent');
      assert.ok(changes >= 1, 'the MCP definition changed');
      const [after] = (await ext.agents.mcp.provideMcpServerDefinitions()) as vscode.McpStdioServerDefinition[];
      assert.notEqual(after.version, before.version);
      const resolved = (await ext.agents.mcp.resolveMcpServerDefinition(after)) as vscode.McpStdioServerDefinition;
      assert.equal(resolved.env['DATAGROK_API_KEY'], null);
      // A server still running with the old key finds the connection changed and refuses to act.
      assert.equal(fs.readFileSync(ext.agents.mcp.stateFile.fsPath, 'utf8'), `${emulator.url}\nsigned out`);
      assert.notEqual(resolved.env['DATAGROK_CONNECTION_STATE'], undefined);
    } finally {
      listening.dispose();
      await signIn();
    }
  });
});

// The agents feature in the real VS Code host: the language-model tools as vscode.lm lists and invokes
// them, and their confirmations. The MCP server definition is in agentsMcp.test.ts.
//
// What VS Code 1.139 (code-server 4.139.1) does with a tool's confirmation when lm.invokeTool is called
// outside a chat request (toolInvocationToken undefined), read in its workbench code and seen here: it
// runs the tool's prepareInvocation and, when that returns confirmationMessages, asks with
// dialogService.confirm (a modal dialog with that title and message) before invoke; "Cancel" rejects
// with a CancellationError. In an extension test run (extensionTestsLocationURI set, as the launcher
// does) that dialog service answers every confirm with yes without showing it, so here lm.invokeTool
// runs the writes right through. The question itself is therefore asserted on the very objects
// registered with vscode.lm.registerTool (the extension's API exposes them): prepareInvocation names what
// will change and sends nothing; lm.invokeTool then changes the server. A write whose prepareInvocation
// refuses its input fails in lm.invokeTool before any question and writes nothing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DatagrokExtensionApi } from '../../src/extension';
import { api, EXTENSION_ID, invoke, markdown, workspaceFolder } from './agentSupport';
import { clearEmulatorRequests, control, emulator, emulatorRequests, requireWorkspaceTrust, resetEmulator, signIn } from './support';

const DEMOG = 'b0000000-0000-4000-8000-000000000001';
const BOB_TO_CHEMISTS = 'e2000000-0000-4000-8000-000000000001';

interface State {
  tables: { ID: string; name: string }[];
  dashboards: { ID: string; name: string; shares: { groupName: string; access: string }[] }[];
  files: { connector: string; path: string; bytes: number }[];
  requests: { id: string; approved: boolean | null }[];
}
const state = () => control<State>('GET', 'state');

describe('Agents: language-model tools and the MCP server', () => {
  let ext: DatagrokExtensionApi;
  let dir = '';

  before(async function () {
    requireWorkspaceTrust(this, true);
    ext = await api();
    await resetEmulator();
    await signIn();
    // Inside the workspace folder: the tools read no local file outside it.
    dir = fs.mkdtempSync(path.join(workspaceFolder(), 'dg-agents-'));
    fs.writeFileSync(path.join(dir, 'planets.csv'), 'planet,moons\nMercury,0\nEarth,1\nSaturn,146\n');
    fs.writeFileSync(path.join(dir, 'add.datagrok.json'), '{ "$function": "Demo:Add", "a": 2, "b": 3 }');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists every contributed tool in vscode.lm.tools with its description and input schema', async () => {
    const contributed = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.languageModelTools as {
      name: string;
      modelDescription: string;
      inputSchema: object;
    }[];
    assert.equal(contributed.length, 13);
    for (const tool of contributed) {
      const listed = vscode.lm.tools.find((t) => t.name === tool.name);
      assert.ok(listed, `${tool.name} is not in vscode.lm.tools`);
      assert.equal(listed.description, tool.modelDescription);
      assert.deepEqual(listed.inputSchema, tool.inputSchema);
      assert.ok(ext.agents.tools.has(tool.name), `${tool.name} is registered`);
    }
  });

  it('runs the read-only tools through vscode.lm.invokeTool, without asking', async () => {
    for (const [name, tool] of ext.agents.tools) {
      if (!tool.operation.readOnly) continue;
      const prepared = await tool.prepareInvocation({ input: {} });
      assert.equal(prepared.confirmationMessages, undefined, `${name} asks for nothing`);
    }
    const found = JSON.parse(await invoke('datagrok_findFunctions', { query: 'package = "Demo"' }));
    assert.ok(
      found.functions.some((f: { nqName: string }) => f.nqName === 'Demo:Add'),
      JSON.stringify(found),
    );
    const add = JSON.parse(await invoke('datagrok_describeFunction', { name: 'Demo:Add' }));
    assert.equal(add.signature, 'Demo:Add(a: double, b: double) → sum: double');
    const demog = JSON.parse(await invoke('datagrok_openTable', { table: DEMOG, rows: 3 }));
    assert.equal(demog.rows, 5850);
    assert.equal(demog.firstRows.split('\n').length, 4);
    const files = JSON.parse(await invoke('datagrok_listFiles', { connector: 'System:DemoFiles', path: 'geo' }));
    assert.deepEqual(files.entries.map((e: { path: string }) => e.path).sort(), ['geo/cities.csv', 'geo/countries.csv']);
    const countries = JSON.parse(await invoke('datagrok_readFile', { connector: 'System:DemoFiles', path: 'geo/countries.csv', rows: 1 }));
    assert.deepEqual(countries.columns.slice(0, 3), ['country', 'code', 'continent']);
    const page = JSON.parse(await invoke('datagrok_readFile', { connector: 'System:DemoFiles', path: 'geo/countries.csv', length: 17 }));
    assert.deepEqual([page.text, page.nextOffset], ['country,code,cont', 17]);
    const groups = JSON.parse(await invoke('datagrok_listGroups', { query: 'Chem' }));
    assert.deepEqual(
      groups.groups.map((g: { name: string }) => g.name),
      ['Chemists'],
    );
    const pending = JSON.parse(await invoke('datagrok_listPendingRequests', {}));
    assert.ok(
      pending.pending.some((r: { id: string; group: string }) => r.id === BOB_TO_CHEMISTS && r.group === 'Chemists'),
      JSON.stringify(pending),
    );
    assert.ok(
      (await emulatorRequests()).every((r) => r.method === 'GET' || r.path.includes('/download')),
      'reads only',
    );
  });

  it('each write asks first: prepareInvocation names what will change, and sends nothing that changes the server', async () => {
    const host = new URL(emulator.url).host;
    const asks = async (name: string, input: object) => {
      const prepared = await ext.agents.tools.get(name)!.prepareInvocation({ input });
      assert.ok(prepared.confirmationMessages, `${name} asks`);
      return { title: prepared.confirmationMessages.title, message: markdown(prepared.confirmationMessages.message) };
    };
    const before = await state();
    await clearEmulatorRequests();

    const run = await asks('datagrok_runFunction', { parameterFile: path.join(dir, 'add.datagrok.json'), params: { b: 40 } });
    assert.equal(run.title, 'Run Demo:Add?');
    assert.match(run.message, new RegExp(`Run \\*\\*Demo:Add\\*\\* on ${host} with the inputs of "add\\.datagrok\\.json"`));
    assert.match(run.message, /"a": 2,\n {2}"b": 40/);
    const push = await asks('datagrok_pushTable', { file: path.join(dir, 'planets.csv'), name: 'planets_agent' });
    assert.equal(push.title, 'Push "planets.csv" as table planets_agent?');
    assert.match(push.message, /Upload "planets\.csv" \(3 rows × 2 columns, 42 bytes\) to .* as table \*\*planets_agent\*\*\. A table of that name is replaced\./);
    const write = await asks('datagrok_writeFile', { connector: 'System:DemoFiles', path: '/agents/a.txt', content: 'héllo' });
    assert.equal(write.title, 'Write System:DemoFiles/agents/a.txt?');
    assert.match(write.message, /Write 6 bytes to \*\*System:DemoFiles\/agents\/a\.txt\*\*/);
    const dash = await asks('datagrok_createDashboard', { name: 'Agent board', tables: [DEMOG] });
    assert.equal(dash.message, `Create the dashboard **Agent board** on ${host} from table ${DEMOG}.`);
    const share = await asks('datagrok_shareDashboard', { dashboard: 'some-id', groups: ['Chemists', 'bob'], access: 'Edit' });
    assert.equal(share.message, `Give **Chemists, bob** Edit access to dashboard some-id on ${host}.`);
    const approve = await asks('datagrok_resolveRequest', { request: BOB_TO_CHEMISTS, approve: true });
    assert.equal(approve.title, 'Approve Bob Brown joining Chemists?');
    const deny = await asks('datagrok_resolveRequest', { request: BOB_TO_CHEMISTS, approve: false });
    assert.equal(deny.title, 'Deny Bob Brown joining Chemists?');

    assert.deepEqual(await state(), before, 'asking changed nothing');
    assert.ok(
      (await emulatorRequests()).every((r) => r.method === 'GET'),
      'only reads were sent while asking',
    );
  });

  it('pushes the active CSV editor, unsaved edits included, and names its size', async () => {
    const document = await vscode.workspace.openTextDocument({ language: 'csv', content: 'x,y\n1,2\n' });
    await vscode.window.showTextDocument(document);
    const tool = ext.agents.tools.get('datagrok_pushTable')!;
    const prepared = await tool.prepareInvocation({ input: { name: 'scratch_agent' } });
    assert.match(markdown(prepared.confirmationMessages?.message), /\(1 row × 2 columns, 8 bytes\).* as table \*\*scratch_agent\*\*/);
    const pushed = JSON.parse(await invoke('datagrok_pushTable', { name: 'scratch_agent' }));
    assert.ok((await state()).tables.some((t) => t.ID === pushed.id && t.name === 'scratch_agent'));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('after the yes, each write changes the server (through vscode.lm.invokeTool)', async () => {
    const invokeWrite = async (name: string, input: object) => JSON.parse(await invoke(name, input));
    assert.equal((await invokeWrite('datagrok_runFunction', { parameterFile: path.join(dir, 'add.datagrok.json'), params: { b: 40 } })).result, 42);
    const table = await invokeWrite('datagrok_pushTable', { file: path.join(dir, 'planets.csv'), name: 'planets_agent' });
    assert.ok((await state()).tables.some((t) => t.ID === table.id && t.name === 'planets_agent'));
    assert.ok(
      ext.remembered('tables', emulator.url).some((t) => t.ID === table.id),
      'the Tables view remembers it',
    );
    await invokeWrite('datagrok_writeFile', { connector: 'System:DemoFiles', path: 'agents/a.txt', content: 'héllo' });
    assert.ok((await state()).files.some((f) => f.path === 'agents/a.txt' && f.bytes === 6));
    const board = await invokeWrite('datagrok_createDashboard', { name: 'Agent board', tables: [table.id] });
    await invokeWrite('datagrok_shareDashboard', { dashboard: board.id, groups: ['Chemists'] });
    assert.deepEqual(
      (await state()).dashboards.find((d) => d.ID === board.id)?.shares.map((s) => [s.groupName, s.access]),
      [['Chemists', 'View']],
    );
    await invokeWrite('datagrok_resolveRequest', { request: BOB_TO_CHEMISTS, approve: false });
    assert.equal((await state()).requests.find((r) => r.id === BOB_TO_CHEMISTS)?.approved, false);
  });

  it('through vscode.lm.invokeTool, a write with bad input fails before asking and writes nothing', async () => {
    const before = await state();
    await assert.rejects(invoke('datagrok_writeFile', { connector: 'System:DemoFiles', path: 'agents/b.txt' }), /"content" is required/);
    await assert.rejects(invoke('datagrok_pushTable', { file: path.join(dir, 'missing.csv') }), /missing\.csv/);
    assert.deepEqual(await state(), before);
  });

  it('reads no local file outside the workspace: traversal, absolute paths, symlinks out, $csv and parameter files are refused and nothing is sent', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-agents-outside-'));
    try {
      fs.writeFileSync(path.join(outside, 'secret.csv'), 'key,value\nssh,PRIVATE\n');
      fs.writeFileSync(path.join(outside, 'run.datagrok.json'), '{ "$function": "Demo:Add", "a": 1, "b": 2 }');
      fs.symlinkSync(path.join(outside, 'secret.csv'), path.join(dir, 'link.csv'));
      const relative = path.relative(workspaceFolder(), path.join(outside, 'secret.csv'));
      await clearEmulatorRequests();
      const refused: [string, object][] = [
        ['datagrok_pushTable', { file: path.join(outside, 'secret.csv') }],
        ['datagrok_pushTable', { file: relative }],
        ['datagrok_pushTable', { file: '/etc/passwd' }],
        ['datagrok_pushTable', { file: path.join(dir, 'link.csv') }],
        ['datagrok_pushTable', { file: vscode.Uri.file(path.join(outside, 'secret.csv')).toString() }],
        ['datagrok_runFunction', { function: 'Demo:RowCount', params: { table: { $csv: path.join(outside, 'secret.csv') } } }],
        ['datagrok_runFunction', { function: 'Demo:RowCount', params: { table: { $csv: relative } } }],
        ['datagrok_runFunction', { parameterFile: path.join(outside, 'run.datagrok.json') }],
      ];
      for (const [name, input] of refused) {
        await assert.rejects(
          ext.agents.tools.get(name)!.prepareInvocation({ input }),
          /it is outside the workspace\. Only files inside ".+" can be read/,
          `${name} ${JSON.stringify(input)} (question)`,
        );
        await assert.rejects(invoke(name, input), /it is outside the workspace/, `${name} ${JSON.stringify(input)}`);
      }
      assert.deepEqual(await emulatorRequests(), [], 'nothing was sent');
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
      fs.rmSync(path.join(dir, 'link.csv'), { force: true });
    }
  });
});

describe('Agents: untrusted workspace (the launcher with DATAGROK_TEST_WORKSPACE_TRUST=1)', () => {
  let dir = '';
  before(async function () {
    requireWorkspaceTrust(this, false);
    await resetEmulator();
    await signIn();
    dir = fs.mkdtempSync(path.join(workspaceFolder(), 'dg-agents-untrusted-'));
    fs.writeFileSync(path.join(dir, 'add.datagrok.json'), '{ "$function": "Demo:Add", "a": 2, "b": 3 }');
  });
  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a tool reading a workspace file says so in its question, and the MCP server gets told', async () => {
    const ext = await api();
    const prepared = await ext.agents.tools.get('datagrok_runFunction')!.prepareInvocation({ input: { parameterFile: path.join(dir, 'add.datagrok.json') } });
    assert.match(markdown(prepared.confirmationMessages?.message), /This workspace is not trusted: "add\.datagrok\.json" is sent as the function's inputs/);
    const [definition] = (await ext.agents.mcp.provideMcpServerDefinitions()) as vscode.McpStdioServerDefinition[];
    const resolved = (await ext.agents.mcp.resolveMcpServerDefinition(definition)) as vscode.McpStdioServerDefinition;
    assert.equal(resolved.env['DATAGROK_WORKSPACE_TRUSTED'], '0');
  });
});

// Through a corporate proxy: the launcher's --proxy pass (test/host/proxyPass.ts) puts a real tinyproxy
// in `http.proxy` of the user settings and names the server by a host name that is not loopback. Every
// request the emulator sees must appear in the proxy's log: nothing goes direct. The extension applies no
// proxy of its own here: VS Code's extension host routes its requests as every other extension's (so a
// PAC file or the system's proxy would apply too). Skipped in other passes.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { CreationResult } from '../../src/api/types';
import type { DatagrokExtensionApi } from '../../src/extension';
import { log } from './index';
import { clearEmulatorRequests, control, emulator, emulatorRequests, resetEmulator } from './support';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';
const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
const proxyLog = () => process.env['DATAGROK_TEST_PROXY_LOG'] ?? '';
const serverUrl = () => process.env['DATAGROK_TEST_PROXY_SERVER_URL'] ?? '';

/** `METHOD /api/path` of each request the proxy forwarded to the server (query strings dropped). */
function proxiedRequests(log = proxyLog()): string[] {
  const origin = new URL(serverUrl()).origin;
  const text = fs.readFileSync(log, 'utf8');
  return [...text.matchAll(/Request \(file descriptor \d+\): (\S+) (\S+) HTTP/g)]
    .filter((m) => m[2].startsWith(origin))
    .map((m) => `${m[1]} ${m[2].slice(origin.length).replace(/\?.*$/, '')}`);
}

async function serverRequests(): Promise<string[]> {
  return (await emulatorRequests()).map((r) => `${r.method} ${r.path}`);
}

describe('through a proxy (http.proxy in the user settings)', () => {
  before(function () {
    if (!proxyLog()) this.skip();
  });

  beforeEach(async () => {
    await resetEmulator();
    await clearEmulatorRequests();
    fs.truncateSync(proxyLog(), 0);
  });

  after(async () => {
    if (!proxyLog()) return;
    await vscode.workspace.getConfiguration('http').update('noProxy', undefined, vscode.ConfigurationTarget.Global);
  });

  it('a proxy that wants Basic credentials: http.proxyAuthorization signs in over HTTP and over HTTPS (CONNECT); without it the message says so, and never shows credentials', async () => {
    const authProxy = process.env['DATAGROK_TEST_AUTH_PROXY'] ?? '';
    const authLog = process.env['DATAGROK_TEST_AUTH_PROXY_LOG'] ?? '';
    const credentials = process.env['DATAGROK_TEST_AUTH_PROXY_CREDENTIALS'] ?? '';
    const httpsUrl = process.env['DATAGROK_TEST_PROXY_HTTPS_SERVER_URL'] ?? '';
    const [user, password] = credentials.split(':');
    const token = `Basic ${Buffer.from(credentials).toString('base64')}`;
    const secrets = [password, token.slice('Basic '.length), 'not-the-password'];
    const http = () => vscode.workspace.getConfiguration('http');
    const setting = (section: string, name: string, value: unknown) => vscode.workspace.getConfiguration(section).update(name, value, vscode.ConfigurationTarget.Global);
    const signIn = (url: string) => vscode.commands.executeCommand('datagrok.signIn', { url, apiKey: emulator.key });
    const refused = async (url: string) => {
      let message = '';
      await assert.rejects(Promise.resolve(signIn(url)), (e: unknown) => {
        message = e instanceof Error ? e.message : String(e);
        return true;
      });
      assert.match(
        message,
        new RegExp(`the proxy ${new URL(authProxy).host.replace(/\./g, '\\.')} asks for credentials \\((407 Proxy Authentication Required|401)\\).*http\\.proxyAuthorization`),
      );
      for (const secret of secrets) assert.ok(!message.includes(secret), `no credentials in: ${message}`);
    };
    const previous = http().get<string>('proxy');
    try {
      await setting('http', 'proxy', authProxy);
      await refused(serverUrl());
      const wrong = new URL(authProxy);
      wrong.username = user;
      wrong.password = 'not-the-password';
      await setting('http', 'proxy', wrong.href);
      await refused(serverUrl());

      await setting('http', 'proxy', authProxy);
      await setting('http', 'proxyAuthorization', token);
      fs.truncateSync(authLog, 0);
      await clearEmulatorRequests();
      await signIn(serverUrl());
      const uri = await vscode.commands.executeCommand<vscode.Uri>('datagrok.files.open', { connector: 'System:DemoFiles', path: 'cars.csv' });
      assert.ok((await vscode.workspace.openTextDocument(uri)).getText().length > 0);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const seen = await serverRequests();
      assert.ok(
        seen.some((r) => r.includes('cars.csv')),
        'the file was read from the server',
      );
      assert.deepEqual([...proxiedRequests(authLog)].sort(), [...seen].sort(), 'every request went through the proxy that wants credentials');

      // HTTPS: the credentials go on the CONNECT (the emulator over TLS, its authority trusted by our setting).
      await setting('datagrok', 'tls.caCertificates', [process.env['DATAGROK_TEST_PROXY_CA']]);
      fs.truncateSync(authLog, 0);
      await signIn(httpsUrl);
      const tunnels = fs.readFileSync(authLog, 'utf8').match(/Request \(file descriptor \d+\): CONNECT \S+/g) ?? [];
      assert.ok(tunnels.length > 0, 'the sign-in went through a tunnel of the proxy');
      for (const line of tunnels) assert.ok(line.endsWith(`CONNECT ${new URL(httpsUrl).host}`), line);
    } finally {
      await setting('http', 'proxyAuthorization', undefined);
      await setting('http', 'proxy', previous);
      await setting('datagrok', 'tls.caCertificates', undefined);
    }
  });

  it('signs in, pushes a table, opens and saves a connector file: every request through the proxy', async () => {
    assert.equal(vscode.workspace.getConfiguration('http').get('proxy'), process.env['DATAGROK_TEST_PROXY']);
    await vscode.commands.executeCommand('datagrok.signIn', { url: serverUrl(), apiKey: emulator.key });

    const csv = 'city,population\nBerlin,3645000\nParis,2161000\n';
    const document = await vscode.workspace.openTextDocument({ language: 'csv', content: csv });
    await vscode.window.showTextDocument(document);
    const table = await vscode.commands.executeCommand<CreationResult>('datagrok.tables.push', { name: 'Proxied.cities' });
    const stored = (await control<{ tables: Array<{ ID: string; sha256: string }> }>('GET', 'state')).tables.find((t) => t.ID === table.ID);
    assert.equal(stored?.sha256, sha256(csv));

    // A plain-text file: no language extension's save participants (slow markdown ones timed out under load).
    const uri = await vscode.commands.executeCommand<vscode.Uri>('datagrok.files.open', { connector: 'demo:Home', path: 'notes.txt' });
    assert.equal(uri.authority, new URL(serverUrl()).host);
    const file = await vscode.workspace.openTextDocument(uri);
    const original = file.getText();
    assert.ok(original.length > 0, 'the file was read whole through the proxy, not as an empty document');
    const editor = await vscode.window.showTextDocument(file);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '# Saved through the proxy\n'));
    assert.equal(await file.save(), true);
    const files = (await control<{ files: Array<{ connector: string; path: string; sha256: string }> }>('GET', 'state')).files;
    assert.equal(files.find((f) => f.path === 'notes.txt')?.sha256, sha256(`# Saved through the proxy\n${original}`));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    const seen = await serverRequests();
    const proxied = proxiedRequests();
    log(`     ${seen.length} requests reached the server, ${proxied.length} went through the proxy`);
    assert.ok(
      seen.some((r) => r.startsWith('POST /api/public/v1/tables/')),
      'the push reached the server',
    );
    assert.ok(
      seen.some((r) => r.startsWith('POST /api/public/v1/files/')),
      'the save reached the server',
    );
    assert.deepEqual([...proxied].sort(), [...seen].sort(), 'every request the server saw came through the proxy: none went direct');
  });

  it('goes through VS Code’s own proxy resolution (http.proxy, no setting of ours), and hands the MCP server the settings to apply', async () => {
    const ext = await vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.activate();
    assert.deepEqual(
      Object.keys(vscode.workspace.getConfiguration('datagrok')).filter((k) => /proxy/i.test(k)),
      [],
      'the extension has no proxy setting of its own',
    );
    await vscode.commands.executeCommand('datagrok.signIn', { url: serverUrl(), apiKey: emulator.key });
    // The status bar says who routes: the editor, not a proxy agent of the extension's.
    const tooltip = ext.statusBar.tooltip;
    const markdown = typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? '');
    const text = markdown.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1');
    assert.match(text, /Requests go as VS Code routes extension requests/);
    fs.truncateSync(proxyLog(), 0);
    await clearEmulatorRequests();
    const uri = await vscode.commands.executeCommand<vscode.Uri>('datagrok.files.open', { connector: 'System:DemoFiles', path: 'cars.csv' });
    assert.ok((await vscode.workspace.openTextDocument(uri)).getText().length > 0);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const seen = await serverRequests();
    assert.ok(
      seen.some((r) => r.includes('cars.csv')),
      'the file was read from the server',
    );
    assert.deepEqual([...proxiedRequests()].sort(), [...seen].sort(), 'through the proxy VS Code chose: none direct');

    // The MCP server is a Node process the editor does not patch: it gets the effective settings.
    const [definition] = (await ext.agents.mcp.provideMcpServerDefinitions()) as vscode.McpStdioServerDefinition[];
    const resolved = (await ext.agents.mcp.resolveMcpServerDefinition(definition)) as vscode.McpStdioServerDefinition;
    const network = JSON.parse(String(resolved.env['DATAGROK_NETWORK'])) as { proxy?: string; resolvedByHost?: boolean };
    assert.equal(network.proxy, process.env['DATAGROK_TEST_PROXY']);
    assert.notEqual(network.resolvedByHost, true);
  });

  it('a change of http.noProxy applies without a reload: the server host then goes direct', async () => {
    await vscode.commands.executeCommand('datagrok.signIn', { url: serverUrl(), apiKey: emulator.key });
    fs.truncateSync(proxyLog(), 0);
    await clearEmulatorRequests();
    await vscode.workspace.getConfiguration('http').update('noProxy', [new URL(serverUrl()).hostname], vscode.ConfigurationTarget.Global);
    const uri = await vscode.commands.executeCommand<vscode.Uri>('datagrok.files.open', { connector: 'System:DemoFiles', path: 'cars.csv' });
    assert.ok((await vscode.workspace.openTextDocument(uri)).getText().length > 0);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.ok(
      (await serverRequests()).some((r) => r.includes('cars.csv')),
      'the file was read from the server',
    );
    assert.deepEqual(proxiedRequests(), [], 'none went through the proxy');
  });
});

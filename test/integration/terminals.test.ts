// Datagrok in terminals and Python, opt-in, in the real VS Code host: the variables in the extension's
// environment variable collection (and in a new terminal's environment) only after the opt-in, changed
// on a switch of server, gone at sign-out; the .env written only on request and removed at sign-out;
// the Python snippet without a key; a grok alias added keeping the rest of the config. Both files holding
// the key readable by the user alone (0600 on POSIX), a looser one tightened.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DatagrokExtensionApi } from '../../src/extension';
import { emulator, requireWorkspaceTrust, resetEmulator, signIn } from './support';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';
const POSIX = process.platform !== 'win32';
/** The file's permission bits, on POSIX (where "readable only by you" is a mode). */
function assertPrivate(file: string, what: string): void {
  if (POSIX) assert.equal((fs.statSync(file).mode & 0o777).toString(8), '600', `${what}: readable by the user alone`);
}
const exec = (id: string, options: object) => Promise.resolve(vscode.commands.executeCommand(id, options));

async function until<T>(what: string, probe: () => T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Datagrok in terminals and Python (opt-in)', function () {
  this.timeout(60_000);
  let ext: DatagrokExtensionApi;
  let folder = '';
  const other = emulator.url.replace('127.0.0.1', 'localhost');
  const collection = () => ({
    url: ext.terminals.collection.get('DATAGROK_API_URL')?.value,
    key: ext.terminals.collection.get('DATAGROK_API_KEY')?.value,
  });

  before(async function () {
    requireWorkspaceTrust(this, true);
    ext = (await vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.activate()) as DatagrokExtensionApi;
    await resetEmulator();
    await signIn();
    folder = vscode.workspace.workspaceFolders!.find((f) => f.uri.scheme === 'file')!.uri.fsPath;
  });

  after(async () => {
    await vscode.commands.executeCommand('datagrok.terminal.useInTerminals', { enabled: false });
    await signIn();
    fs.rmSync(path.join(folder, '.datagrok'), { recursive: true, force: true });
    fs.rmSync(path.join(folder, 'dg-env.txt'), { force: true });
  });

  it('off by default: no variables and no .env until asked', async () => {
    await ext.terminals.sync();
    assert.deepEqual(collection(), { url: undefined, key: undefined });
    assert.equal(ext.terminals.collection.persistent, false);
    assert.equal(fs.existsSync(path.join(folder, '.datagrok', '.env')), false);
    assert.equal(vscode.workspace.getConfiguration('datagrok').get('terminal.exposeCredentials'), false);
  });

  it('after the opt-in, new terminals get DATAGROK_API_URL and DATAGROK_API_KEY; a switch changes them; sign-out removes them and the .env', async () => {
    await assert.rejects(exec('datagrok.terminal.useInTerminals', { enable: true }), /Unknown option "enable" for datagrok\.terminal\.useInTerminals: it takes "enabled"/);
    const result = await vscode.commands.executeCommand<{ enabled: boolean; variables: string[] }>('datagrok.terminal.useInTerminals', {});
    assert.deepEqual(result, { enabled: true, variables: ['DATAGROK_API_URL', 'DATAGROK_API_KEY'] });
    assert.deepEqual(collection(), { url: emulator.url, key: emulator.key });
    const description = ext.terminals.collection.description;
    assert.match(typeof description === 'string' ? description : String(description?.value), /DATAGROK_API_KEY \(your API key\)/);

    // A new terminal's environment, as a program run there sees it.
    const out = path.join(folder, 'dg-env.txt');
    const terminal = vscode.window.createTerminal({ name: 'dg-env', shellPath: '/bin/sh', shellArgs: ['-c', `env > "${out}.tmp" && mv "${out}.tmp" "${out}"`], cwd: folder });
    try {
      const env = await until('the terminal to write its environment', () => (fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : undefined));
      assert.ok(env.split('\n').includes(`DATAGROK_API_URL=${emulator.url}`), 'URL in the terminal');
      assert.ok(env.split('\n').includes(`DATAGROK_API_KEY=${emulator.key}`), 'key in the terminal');
    } finally {
      terminal.dispose();
    }

    // The .env only on request, git-ignored.
    const envFile = await vscode.commands.executeCommand<vscode.Uri>('datagrok.python.writeEnvFile', {});
    assert.equal(envFile.fsPath, path.join(folder, '.datagrok', '.env'));
    assert.match(fs.readFileSync(envFile.fsPath, 'utf8'), new RegExp(`DATAGROK_API_URL="${emulator.url}"\\nDATAGROK_API_KEY="${emulator.key}"\\n$`));
    assert.equal(fs.readFileSync(path.join(folder, '.datagrok', '.gitignore'), 'utf8'), '*\n');
    assertPrivate(envFile.fsPath, 'the .env');

    // Another server: the variables and the .env follow.
    await vscode.commands.executeCommand('datagrok.signIn', { url: other, apiKey: emulator.key });
    await ext.terminals.sync();
    assert.deepEqual(collection(), { url: other, key: emulator.key });
    assert.match(fs.readFileSync(envFile.fsPath, 'utf8'), new RegExp(`DATAGROK_API_URL="${other}"`));
    assertPrivate(envFile.fsPath, 'the .env rewritten');
    if (POSIX) {
      // A .env others can read (as written before it was made 0600) is made private at the next sync.
      fs.chmodSync(envFile.fsPath, 0o644);
      await ext.terminals.sync();
      assertPrivate(envFile.fsPath, 'a 0644 .env after a sync');
      assert.match(fs.readFileSync(envFile.fsPath, 'utf8'), new RegExp(`DATAGROK_API_URL="${other}"`));
    }

    // Sign-out: both gone.
    await vscode.commands.executeCommand('datagrok.signOut', {});
    await ext.terminals.sync();
    assert.deepEqual(collection(), { url: undefined, key: undefined });
    assert.equal(fs.existsSync(envFile.fsPath), false, 'the .env is removed at sign-out');
    await signIn();
    await ext.terminals.sync();
    assert.deepEqual(collection(), { url: emulator.url, key: emulator.key }, 'signed in again: back, the opt-in kept');
    assert.equal(fs.existsSync(envFile.fsPath), false, 'the .env is not written again without a request');

    const off = await vscode.commands.executeCommand<{ enabled: boolean }>('datagrok.terminal.useInTerminals', { enabled: false });
    assert.equal(off.enabled, false);
    assert.deepEqual(collection(), { url: undefined, key: undefined });
  });

  it('copies a Python snippet that reads the variables, without the key', async () => {
    const text = await vscode.commands.executeCommand<string>('datagrok.python.copySnippet', {});
    assert.match(text, /DatagrokClient\(os\.environ\["DATAGROK_API_URL"\]/);
    assert.ok(!text.includes(emulator.key));
    assert.equal(await vscode.env.clipboard.readText(), text);
  });

  it('adds this server to a grok config, keeping the rest of it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-grok-'));
    try {
      const file = path.join(dir, 'config.yaml');
      fs.writeFileSync(file, '# mine\ndefault: dev\nservers:\n  dev:\n    url: https://dev.example/api\n    key: dev-key\n');
      fs.chmodSync(file, 0o644);
      const added = await vscode.commands.executeCommand<{ file: vscode.Uri; alias: string }>('datagrok.grok.addServer', { alias: 'emu', configFile: vscode.Uri.file(file) });
      assert.equal(added.alias, 'emu');
      const text = fs.readFileSync(file, 'utf8');
      assert.match(text, /^# mine\ndefault: dev\nservers:\n {2}dev:\n {4}url: https:\/\/dev\.example\/api\n {4}key: dev-key\n/);
      assert.match(text, new RegExp(`emu:\\n {4}url: ${emulator.url.replace(/[.]/g, '\\.')}\\n {4}key: ${emulator.key}\\n`));
      assertPrivate(file, 'a 0644 grok config after adding the key');
      assert.deepEqual(fs.readdirSync(dir), ['config.yaml'], 'no temporary file left');
      await assert.rejects(exec('datagrok.grok.addServer', { alias: 'a b', configFile: vscode.Uri.file(file) }), /The alias "a b" is not valid/);
      assert.equal(fs.readFileSync(file, 'utf8'), text, 'bad input writes nothing');
      // A config that does not exist yet: its folder made, the file private from the start.
      const fresh = path.join(dir, '.grok', 'config.yaml');
      await vscode.commands.executeCommand('datagrok.grok.addServer', { alias: 'emu', configFile: vscode.Uri.file(fresh) });
      assert.match(fs.readFileSync(fresh, 'utf8'), /^servers:\n {2}emu:\n/);
      assertPrivate(fresh, 'a new grok config');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

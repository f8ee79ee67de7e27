// Signing in, out and between servers, through the real commands against the emulator.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Group } from '../../src/api/types';
import type { DatagrokExtensionApi } from '../../src/extension';
import { clearEmulatorRequests, emulator, emulatorRequests, resetEmulator, signIn } from './support';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';
/** Port 9 (discard) is closed on the loopback interface: a server that cannot be reached. */
const UNREACHABLE = 'http://127.0.0.1:9/api';

function run<T = unknown>(command: string, options?: unknown): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, options));
}

/** Every value of every datagrok.* setting, at every level, as text. */
function allSettingsText(): string {
  const config = vscode.workspace.getConfiguration('datagrok');
  const declared = Object.keys(vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.configuration.properties).map((k: string) => k.replace(/^datagrok\./, ''));
  const names = [...new Set([...declared, 'apiKey', 'key', 'token'])];
  return JSON.stringify(names.map((name) => config.inspect(name)));
}

async function rejectsWith(promise: Thenable<unknown>, pattern: RegExp, secret?: string): Promise<string> {
  let message = '';
  await assert.rejects(Promise.resolve(promise), (error: unknown) => {
    message = error instanceof Error ? error.message : String(error);
    return true;
  });
  assert.match(message, pattern);
  if (secret) assert.ok(!message.includes(secret), `the message must not contain the key: ${message}`);
  return message;
}

describe('Connection: sign in, sign out, switch server', () => {
  let api: DatagrokExtensionApi;
  const host = () => new URL(emulator.url).host;

  before(async () => {
    await resetEmulator();
    await signIn();
    api = (await vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.activate()) as DatagrokExtensionApi;
  });

  after(async () => {
    // Leave the window signed in to the emulator for the next file.
    await run('datagrok.switchServer', { url: emulator.url });
    await signIn();
  });

  it('activates lazily: no "*" or startup activation event', () => {
    const events: string[] = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.activationEvents ?? [];
    assert.deepEqual(
      events.filter((e) => e === '*' || e === 'onStartupFinished'),
      [],
    );
  });

  it('signs in with a good key: returns the user, keeps the key out of settings, later commands use it', async () => {
    await clearEmulatorRequests();
    const user = await run<Group>('datagrok.signIn', { url: emulator.url, apiKey: emulator.key });
    assert.equal(user.name, 'demo');
    assert.equal(user.id, 'd0000000-0000-4000-8000-000000000001');
    assert.equal(vscode.workspace.getConfiguration('datagrok').get('serverUrl'), emulator.url);
    assert.ok(!allSettingsText().includes(emulator.key), 'the API key must not be in any datagrok.* setting');

    const found = await run<Group[]>('datagrok.groups.search', { text: 'Chemists' });
    assert.deepEqual(
      found.map((g) => g.name),
      ['Chemists'],
    );
    await run('datagrok.groups.search', { text: '' });
    const requests = await emulatorRequests();
    assert.ok(requests.length >= 2);
    assert.ok(
      requests.every((r) => r.authorized),
      `every request carried the key: ${JSON.stringify(requests)}`,
    );
  });

  it('shows the server and the user in the status bar', () => {
    assert.equal(api.statusBar.text, `$(graph) ${host()} · Demo User`);
    assert.equal(api.statusBar.command, 'datagrok.switchServer');
    const tooltip = api.statusBar.tooltip;
    assert.ok(tooltip instanceof vscode.MarkdownString && tooltip.value.includes(host()), 'tooltip names the server');
  });

  it('remembers the user per server at sign-in, for the status bar after a reload (no request needed)', async () => {
    const known = api.knownUser(emulator.url);
    assert.equal(known?.id, 'd0000000-0000-4000-8000-000000000001');
    assert.equal(known?.friendlyName, 'Demo User');
    assert.equal(api.knownUser(UNREACHABLE), undefined, 'nothing for a server never signed in to');
  });

  it('accepts a key pasted with its "Bearer " prefix', async () => {
    const user = await run<Group>('datagrok.signIn', { url: emulator.url, apiKey: `Bearer ${emulator.key}` });
    assert.equal(user.name, 'demo');
    const found = await run<Group[]>('datagrok.groups.search', { text: 'Biologists' });
    assert.equal(found.length, 1);
    await run('datagrok.groups.search', { text: '' });
  });

  it('rejects a wrong key with a clear message, stores nothing and keeps the previous key', async () => {
    const wrong = 'wrong-key-0123456789';
    await rejectsWith(run('datagrok.signIn', { url: emulator.url, apiKey: wrong }), /rejected the API key \(401\)/, wrong);
    assert.ok(!allSettingsText().includes(wrong));
    // The previous (good) key is still the one used.
    await clearEmulatorRequests();
    const found = await run<Group[]>('datagrok.groups.search', { text: 'Developers' });
    assert.deepEqual(
      found.map((g) => g.name),
      ['Developers'],
    );
    await run('datagrok.groups.search', { text: '' });
    assert.ok((await emulatorRequests()).every((r) => r.authorized));
  });

  it('rejects a URL without /api and says what to type', async () => {
    const origin = new URL(emulator.url).origin;
    await rejectsWith(run('datagrok.signIn', { url: origin, apiKey: emulator.key }), new RegExp(`must end with /api: type ${origin}/api`), emulator.key);
    await rejectsWith(run('datagrok.signIn', { url: 'ftp://example.com/api', apiKey: emulator.key }), /must start with http:\/\/ or https:\/\//);
    assert.equal(vscode.workspace.getConfiguration('datagrok').get('serverUrl'), emulator.url);
  });

  it('says when the URL is not a Datagrok API (404)', async () => {
    const url = `${new URL(emulator.url).origin}/not-datagrok/api`;
    await rejectsWith(run('datagrok.signIn', { url, apiKey: emulator.key }), /is not a Datagrok API \(404\)/, emulator.key);
    assert.equal(vscode.workspace.getConfiguration('datagrok').get('serverUrl'), emulator.url);
  });

  it('{ url } without a key uses the key stored for that server, and rejects a server without one', async () => {
    const user = await run<Group>('datagrok.signIn', { url: emulator.url });
    assert.equal(user.name, 'demo');
    await rejectsWith(run('datagrok.signIn', { url: 'http://127.0.0.1:9/api' }), /No API key is stored for 127\.0\.0\.1:9/);
    assert.equal(vscode.workspace.getConfiguration('datagrok').get('serverUrl'), emulator.url, 'the active server is unchanged');
  });

  it('gives an unreachable server its own message and stores nothing', async () => {
    const otherKey = 'key-for-the-other-server';
    await rejectsWith(run('datagrok.signIn', { url: UNREACHABLE, apiKey: otherKey }), /Cannot reach 127\.0\.0\.1:9/, otherKey);
    assert.equal(vscode.workspace.getConfiguration('datagrok').get('serverUrl'), emulator.url, 'the active server did not change');
    assert.ok(!allSettingsText().includes(otherKey));
  });

  it('switches server: each server has its own key, and the key of one is never sent to another', async () => {
    await clearEmulatorRequests();
    const switched = await run<{ url: string; signedIn: boolean }>('datagrok.switchServer', { url: UNREACHABLE });
    assert.deepEqual(switched, { url: UNREACHABLE, signedIn: false });
    assert.equal(api.statusBar.text, '$(graph) Datagrok: Sign in');
    assert.deepEqual(await api.groupsTree.getChildren(), [], 'signed out of that server: the welcome view shows');
    // No key for that server: the command fails before sending anything anywhere.
    await rejectsWith(run('datagrok.groups.create', { name: 'Never Created' }), /not signed in to 127\.0\.0\.1:9/);
    assert.deepEqual(await emulatorRequests(), [], 'nothing reached the first server either');

    const back = await run<{ url: string; signedIn: boolean }>('datagrok.switchServer', { url: emulator.url });
    assert.deepEqual(back, { url: emulator.url, signedIn: true });
    const found = await run<Group[]>('datagrok.groups.search', { text: 'Chemists' });
    assert.equal(found.length, 1, 'the first server still has its key');
    await run('datagrok.groups.search', { text: '' });
  });

  it('signs out: the key is forgotten, commands say "not signed in", the tree shows the welcome view', async () => {
    await run('datagrok.signOut', {});
    assert.equal(api.statusBar.text, '$(graph) Datagrok: Sign in');
    assert.equal(api.statusBar.command, 'datagrok.signIn');
    assert.equal(api.knownUser(emulator.url), undefined, 'signing out forgets who was signed in there');
    assert.deepEqual(await api.groupsTree.getChildren(), []);
    await rejectsWith(run('datagrok.groups.search', { text: 'Chemists' }), /not signed in/);
    await signIn();
    assert.equal((await api.groupsTree.getChildren()).length, 3);
    assert.equal(api.knownUser(emulator.url)?.name, 'demo', 'remembered again at the next sign-in');
  });
});

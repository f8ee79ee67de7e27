// Bundles in the real VS Code: a name conflict (the server holds the bundle entity's name under another id) is
// resolved where the Source Control view shows it — Skip, Adopt or Duplicate on its entry, remembered for the
// folder's next push and shown on the entry — and per entity through the push's `conflicts` option; the choices
// are forgotten once a push completes, or when the folder's manifest changes (a pull).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DatagrokExtensionApi } from '../../src/extension';
import { emulator, resetEmulator, signIn } from './support';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';
const GREET = 'f1000000-0000-4000-8000-000000000025';
const QUERY = 'f0000000-0000-4000-8000-000000000103';
const MY_GREET = '5c000000-0000-4000-8000-000000000011';
const MY_QUERY = '5c000000-0000-4000-8000-000000000012';
const GREET_FILE = 'Script/Scripts.Greet.json';
const QUERY_FILE = 'DataQuery/Samples.TopCustomers.json';

interface Plan {
  items: Array<{ name: string; entityType: string; action: string; reason: string; detail: string }>;
  status: string;
}
type Json = Record<string, unknown>;

const run = <T = unknown>(command: string, arg?: unknown) => Promise.resolve(vscode.commands.executeCommand<T>(command, arg));
const get = async (route: string) => (await (await fetch(`${emulator.url}${route}`, { headers: { Authorization: `Bearer ${emulator.key}` } })).json()) as Json;
const conflicts = () => {
  const api = vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.exports.bundles;
  return (
    api
      .scmResources()
      .find((g) => g.group === 'Conflicts')
      ?.resources.map((r) => `${r.file}: ${r.choice ?? 'undecided'}`)
      .sort() ?? []
  );
};
const text = (json: unknown) => new TextEncoder().encode(JSON.stringify(json, null, 2));

describe('Bundles: a name conflict resolved where it is shown', function () {
  this.timeout(180_000);
  let folder: vscode.Uri;
  const file = (rel: string) => vscode.Uri.joinPath(folder, rel);

  before(async () => {
    await resetEmulator();
    await signIn();
    // Inside the workspace: the manifest's watcher sees a change of the folder's bundle.
    folder = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'bundle-conflicts');
    await run('datagrok.bundle.pull', { folder, selection: ['Samples:Northwind'] });
    // The bundle's own script and query, whose names the server's own script and query hold.
    const query = await get(`/connectors/queries/${QUERY}`);
    await vscode.workspace.fs.writeFile(
      file(GREET_FILE),
      text({ '#type': 'Script', id: MY_GREET, language: 'javascript', name: 'Greet', namespace: 'Scripts:', script: '//name: Greet\n// mine' }),
    );
    await vscode.workspace.fs.writeFile(file(QUERY_FILE), text({ ...query, id: MY_QUERY, query: `${query.query} -- mine` }));
    const manifest = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(file('manifest.json'))));
    manifest.order.push({ type: 'Script', id: MY_GREET, file: GREET_FILE }, { type: 'DataQuery', id: MY_QUERY, file: QUERY_FILE });
    await vscode.workspace.fs.writeFile(file('manifest.json'), text(manifest));
    await new Promise((r) => setTimeout(r, 1500)); // the watcher's event of this edit comes before the choices below
  });
  after(() => vscode.workspace.fs.delete(folder, { recursive: true }));

  it('the conflict entry offers Skip, Adopt and Duplicate inline and in its context menu', () => {
    const menus = (
      vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { menus: Record<string, Array<{ command: string; when?: string; group?: string }>> } }
    ).contributes.menus['scm/resourceState/context'];
    for (const command of ['datagrok.bundle.conflictSkip', 'datagrok.bundle.conflictAdopt', 'datagrok.bundle.conflictDuplicate']) {
      for (const where of ['inline', '1_resolve']) {
        assert.ok(
          menus.some((m) => m.command === command && m.group?.startsWith(where) && /scmResourceGroup == conflict\b/.test(m.when ?? '')),
          `${command} ${where} on a conflict`,
        );
      }
    }
  });

  it('a choice made on the entry is shown there and used by the next push; the push then forgets it', async () => {
    await run('datagrok.bundle.diff', { folder });
    assert.deepEqual(conflicts(), [`${QUERY_FILE}: undecided`, `${GREET_FILE}: undecided`]);
    await assert.rejects(run('datagrok.bundle.conflictSkip', { uri: file('DataConnection/Samples.Northwind.json') }), /is not a name conflict \(it is identical\)/);

    const adopted = await run<{ choice: string; message: string }>('datagrok.bundle.conflictAdopt', { uri: file(GREET_FILE) });
    assert.equal(adopted.choice, 'adopt');
    assert.match(adopted.message, new RegExp(`Scripts:Greet: the push writes this entity into the server's Script ${GREET}`));
    await run('datagrok.bundle.conflictSkip', { uri: file(QUERY_FILE) });
    assert.deepEqual(conflicts(), [`${QUERY_FILE}: skip`, `${GREET_FILE}: adopt`]);

    const pushed = await run<Plan>('datagrok.bundle.push', { folder });
    assert.equal(pushed.status, 'ok', JSON.stringify(pushed.items));
    assert.deepEqual(
      pushed.items.filter((i) => ['Scripts:Greet', 'Samples:TopCustomers'].includes(i.name)).map((i) => `${i.name} ${i.action} ${i.reason}`),
      [`Scripts:Greet update adopted ${GREET}`, `Samples:TopCustomers skip name taken by ${QUERY}`],
    );
    assert.match(String((await get(`/scripts/${GREET}`)).script), /\/\/ mine/, "the server's Greet holds the bundle's");
    assert.doesNotMatch(String((await get(`/connectors/queries/${QUERY}`)).query), /-- mine/, 'the skipped query is left alone');
    // The push completed: its choices are gone, so the query's conflict stops the next push again.
    assert.deepEqual(conflicts(), [`${QUERY_FILE}: undecided`]);
    await assert.rejects(run('datagrok.bundle.push', { folder }), /Name conflicts on the target server; nothing was written[\s\S]*DataQuery Samples:TopCustomers/);
  });

  it('per entity from a script: the option conflicts, by qualified name, over onConflict; a bad one writes nothing', async () => {
    await assert.rejects(run('datagrok.bundle.push', { folder, conflicts: { 'Samples:Nope': 'skip' } }), /"Samples:Nope", which is no entity of the bundle/);
    await assert.rejects(run('datagrok.bundle.push', { folder, conflicts: { 'Samples:TopCustomers': 'merge' } }), /must be one of skip, adopt, duplicate/);
    const plan = await run<Plan>('datagrok.bundle.push', { folder, dryRun: true, onConflict: 'duplicate', conflicts: { 'Samples:TopCustomers': 'skip' } });
    assert.equal(plan.items.find((i) => i.name === 'Samples:TopCustomers')?.action, 'skip');
  });

  it("a change of the folder's manifest (a pull) forgets the choices made for its push", async () => {
    await run('datagrok.bundle.conflictDuplicate', { uri: file(QUERY_FILE) });
    assert.deepEqual(conflicts(), [`${QUERY_FILE}: duplicate`]);
    const manifest = await vscode.workspace.fs.readFile(file('manifest.json'));
    await vscode.workspace.fs.writeFile(file('manifest.json'), new Uint8Array([...manifest, 0x20]));
    for (let i = 0; i < 100 && conflicts()[0]?.endsWith('duplicate'); i++) await new Promise((r) => setTimeout(r, 150));
    assert.deepEqual(conflicts(), [`${QUERY_FILE}: undecided`]);
  });
});

// Bundles in the real VS Code, against what a user cannot see coming: a colleague's change made through the API
// between the pull and the push (refused and shown on both sides; take mine, take theirs, merge by hand), a
// server answering with a table id "../../../x", and a type folder of the bundle that links elsewhere.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DatagrokExtensionApi } from '../../src/extension';
import { control, emulator, resetEmulator, signIn } from './support';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';
const GREET = 'f1000000-0000-4000-8000-000000000025';
const FILE = 'Script/Scripts.Greet.json';

interface Plan {
  items: Array<{ name: string; entityType: string; action: string; reason: string; detail: string }>;
}
interface Pulled {
  order: Array<{ id: string; file: string }>;
  notes: Array<{ name: string; entityType: string; action: string; reason: string; detail?: string }>;
}

const run = <T = unknown>(command: string, arg?: unknown) => Promise.resolve(vscode.commands.executeCommand<T>(command, arg));
const auth = () => ({ Authorization: `Bearer ${emulator.key}`, 'content-type': 'application/json' });
const serverScript = async () => (await (await fetch(`${emulator.url}/scripts/${GREET}`, { headers: auth() })).json()) as Record<string, unknown>;
/** A colleague's edit, made through the API as any client would. */
async function colleague(text: string): Promise<void> {
  const json = await serverScript();
  const res = await fetch(`${emulator.url}/scripts`, { method: 'POST', headers: auth(), body: JSON.stringify({ ...json, script: `${json.script}\n// ${text}` }) });
  assert.equal(res.status, 200);
}
const groups = () => {
  const api = vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.exports.bundles;
  return Object.fromEntries(api.scmResources().map((g) => [g.group, g.resources.map((r) => `${r.file}${r.detail ? ` (${r.detail})` : ''}`)]));
};

describe("Bundles: a colleague's change is never overwritten unseen; nothing is written outside the bundle", function () {
  this.timeout(180_000);
  let root: string;
  let dir: string;
  let folder: vscode.Uri;
  const edit = (text: string) => {
    const json = JSON.parse(fs.readFileSync(path.join(dir, FILE), 'utf8'));
    json.script = `${json.script}\n// ${text}`;
    fs.writeFileSync(path.join(dir, FILE), JSON.stringify(json, null, 2));
  };

  before(async () => {
    await resetEmulator();
    await signIn();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-bundle-safety-'));
    dir = path.join(root, 'one', 'two', 'bundle');
    folder = vscode.Uri.file(dir);
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('changed here and on the server since the pull: the push is refused naming it, the view shows both sides; take mine then pushes', async () => {
    const pulled = await run<Pulled>('datagrok.bundle.pull', { folder, selection: [GREET] });
    assert.deepEqual(pulled.notes ?? [], []);
    await colleague("the colleague's line");
    edit('my line');
    await assert.rejects(
      run('datagrok.bundle.push', { folder }),
      /changed here and on the server since your pull; nothing was written[\s\S]*Script Scripts:Greet \(they differ in: script\)/,
    );
    assert.match(String((await serverScript()).script), /the colleague's line/, "the server keeps the colleague's change");
    assert.doesNotMatch(String((await serverScript()).script), /my line/);
    assert.deepEqual(groups()['Changed on Both Sides'], [`${FILE} (script)`]);

    // Open both to merge: the server's copy on the left, the bundle file itself (editable) on the right.
    const merge = await run<{ left: vscode.Uri; right: vscode.Uri }>('datagrok.bundle.merge', { uri: vscode.Uri.file(path.join(dir, FILE)) });
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, `a diff editor is open: ${tab?.label}`);
    assert.equal(tab.input.modified.scheme, 'file', 'the right side is the bundle file');
    assert.match((await vscode.workspace.openTextDocument(merge.left)).getText(), /the colleague's line/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    await assert.rejects(run('datagrok.bundle.push', { folder, onChanged: 'later' }), /onChanged.*refuse, mine, theirs/);
    const pushed = await run<Plan>('datagrok.bundle.push', { folder, onChanged: 'mine' });
    assert.equal(pushed.items.find((i) => i.name === 'Scripts:Greet')?.action, 'update', JSON.stringify(pushed.items));
    assert.match(String((await serverScript()).script), /my line/);
    assert.equal(groups()['Changed on Both Sides'], undefined);
  });

  it('per entity from the Source Control view: Take Theirs replaces the bundle file; Take Mine makes the next push overwrite', async () => {
    const menus = (
      vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { menus: Record<string, Array<{ command: string; when?: string; group?: string }>> } }
    ).contributes.menus['scm/resourceState/context'];
    for (const command of ['datagrok.bundle.takeMine', 'datagrok.bundle.takeTheirs', 'datagrok.bundle.merge']) {
      assert.ok(
        menus.some((m) => m.command === command && m.group?.startsWith('inline') && /scmResourceGroup == changedBoth/.test(m.when ?? '')),
        `${command} inline on a conflict`,
      );
    }
    const uri = vscode.Uri.file(path.join(dir, FILE));
    await colleague('second colleague line');
    edit('second line of mine');
    await run('datagrok.bundle.diff', { folder });
    const theirs = await run<{ state: string }>('datagrok.bundle.takeTheirs', { uri });
    assert.equal(theirs.state, 'identical');
    assert.match(fs.readFileSync(path.join(dir, FILE), 'utf8'), /second colleague line/);
    assert.doesNotMatch(fs.readFileSync(path.join(dir, FILE), 'utf8'), /second line of mine/);

    await colleague('third colleague line');
    edit('third line of mine');
    await run('datagrok.bundle.diff', { folder });
    const mine = await run<{ state: string }>('datagrok.bundle.takeMine', { uri });
    assert.equal(mine.state, 'changed');
    await run('datagrok.bundle.push', { folder });
    assert.match(String((await serverScript()).script), /third line of mine/);
  });

  it('a table id "../../../x" from the server and a type folder linking elsewhere: nothing written outside, a plain reason for each', async () => {
    const elsewhere = path.join(root, 'elsewhere');
    fs.mkdirSync(elsewhere);
    const linked = path.join(root, 'linked');
    fs.mkdirSync(linked);
    fs.symlinkSync(elsewhere, path.join(linked, 'Script'));
    const into = vscode.Uri.file(linked);
    const pulled = await run<Pulled>('datagrok.bundle.pull', { folder: into, selection: [GREET] });
    assert.deepEqual(fs.readdirSync(elsewhere), [], 'nothing written through the link');
    assert.deepEqual(
      pulled.notes.map((n) => [n.name, n.reason]),
      [['Greet', 'not_written']],
    );
    assert.match(pulled.notes[0].detail ?? '', /Script is a link to .*elsewhere, outside .*linked; links out of the folder are not followed/);

    await control('POST', 'entities', { '#type': 'TableInfo', id: '../../../x', name: 'evil_table' });
    await control('POST', 'faults', { match: 'GET /api/tables/../../../x/data', text: 'pwned', status: 200 });
    const hostile = await run<Pulled>('datagrok.bundle.pull', { folder, selection: { text: 'evil_table', types: ['table'] } });
    assert.deepEqual(
      hostile.notes.map((n) => [n.name, n.action, n.reason]),
      [['evil_table', 'warn', 'bad_id']],
    );
    assert.match(hostile.notes[0].detail ?? '', /not a UUID; it was not pulled/);
    assert.ok(!hostile.order.some((e) => e.id.includes('..')));
    assert.deepEqual(fs.readdirSync(path.join(root, 'one')), ['two'], 'nothing two levels above the bundle');
  });
});

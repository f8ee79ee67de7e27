// Function results as read-only documents and the runs remembered, in the real host against the
// emulator's demo functions.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DatagrokExtensionApi } from '../../src/extension';
import type { StoredRun } from '../../src/platform/runs/store';
import { inRunsDir, makeRunsDir, removeRunsDir, resultDocument, run, write } from './runSupport';
import { clearEmulatorRequests, emulator, emulatorRequests, requireWorkspaceTrust, resetEmulator, signIn } from './support';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';
const server = () => emulator.url.replace(/\/+$/, '');

describe('Runs: remembered runs', () => {
  let api: DatagrokExtensionApi;
  /** The newest remembered run, read by a fresh store from the global state (what a restart reads). */
  const newest = (): StoredRun => {
    const runs = api.rememberedRuns(server()).runs;
    assert.ok(runs.length > 0, 'no run remembered');
    return runs[0];
  };

  before(async function () {
    requireWorkspaceTrust(this, true);
    api = (await vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.activate()) as DatagrokExtensionApi;
    await resetEmulator();
    await signIn();
    makeRunsDir();
    await run('datagrok.runs.clear', {});
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    removeRunsDir();
  });

  it('remembers each run with its function, file, time, duration, outcome and summary, in the global state', async () => {
    const uri = write('remember.datagrok.json', '{ "$function": "Demo:Add", "a": 20, "b": 22 }');
    const before = Date.now();
    assert.equal(await run('datagrok.functions.run', { uri }), 42);
    const r = newest();
    assert.equal(r.functionName, 'Demo:Add');
    assert.equal(r.server, server());
    assert.equal(r.file, uri.toString());
    assert.equal(r.outcome, 'ok');
    assert.equal(r.summary, '42');
    assert.ok(Date.parse(r.startedAt) >= before - 1000 && r.durationMs >= 0 && r.durationMs < 30_000, JSON.stringify(r));
    const { store } = api.rememberedRuns(server());
    assert.deepEqual(await store.result(r), { value: 42 });
    assert.deepEqual(await store.inputs(r), { value: { a: 20, b: 22 } });
    // Another server's list does not show it.
    assert.deepEqual(api.rememberedRuns('https://elsewhere.example/api').runs, []);

    // A failure is remembered with its message, and no result.
    const fail = write('fail.json', '{ "$function": "Demo:Fail", "message": "the reactor is offline" }');
    await assert.rejects(run('datagrok.functions.run', { uri: fail }), /the reactor is offline/);
    const failed = newest();
    assert.equal(failed.outcome, 'failed');
    assert.match(failed.summary, /the reactor is offline/);
    assert.equal(failed.result, undefined);
    assert.doesNotMatch(JSON.stringify(api.rememberedRuns(server()).runs), new RegExp(emulator.key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  });

  it('keeps a large result in the global storage and reopens it read-only after its editors are closed', async () => {
    const uri = write('filter.json', '{ "$function": "Demo:Filter", "table": "Demo:demog", "column": "AGE", "min": 60 }');
    const csv = await run<string>('datagrok.functions.run', { uri });
    assert.ok(csv.length > 4096, `a large result (${csv.length} characters)`);
    const r = newest();
    assert.ok(r.result && 'file' in r.result, `kept in a file: ${JSON.stringify(r.result)}`);
    assert.match(r.summary, /^dataframe: [\d,]+ rows × \d+ columns$/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const uris = await run<vscode.Uri[]>('datagrok.runs.openResult', { id: r.id });
    assert.equal(uris.length, 1);
    const document = await vscode.workspace.openTextDocument(uris[0]);
    assert.equal(path.posix.basename(document.uri.path), 'Demo:Filter — result.csv');
    assert.equal(document.getText(), csv);
    assert.equal(document.isDirty, false);
    // Pushing the remembered result: its CSV output.
    const pushed = await run<{ ID: string; name: string }>('datagrok.runs.pushResult', { id: r.id, name: 'seniors' });
    assert.match(pushed.name, /(^|[:.])seniors$/);
  });

  it('Run Again re-runs the function with the inputs that were sent', async () => {
    const uri = write('again.datagrok.json', '{ "$function": "Demo:Add", "a": 1, "b": 2 }');
    assert.equal(await run('datagrok.functions.run', { uri }), 3);
    const first = newest();
    const resultTabs = () =>
      vscode.window.tabGroups.all.flatMap((g) =>
        g.tabs.filter((t) => t.label === 'Demo:Add — result').map((t) => ({ column: g.viewColumn, uri: (t.input as vscode.TabInputText).uri })),
      );
    const before = resultTabs();
    assert.equal(before.length, 1, `one result tab before Run Again: ${JSON.stringify(before)}`);
    // The file changes afterwards: Run Again still sends what was sent.
    fs.writeFileSync(uri.fsPath, '{ "$function": "Demo:Add", "a": 100, "b": 2 }');
    await clearEmulatorRequests();
    assert.equal(await run('datagrok.runs.runAgain', { id: first.id }), 3);
    const calls = (await emulatorRequests()).filter((q) => q.method === 'POST' && /Demo\.Add\/call$/.test(q.path));
    assert.equal(calls.length, 1, 'one call to the server');
    const again = newest();
    assert.notEqual(again.id, first.id);
    assert.equal(again.functionName, 'Demo:Add');
    assert.equal(again.file, uri.toString(), 'the rerun keeps its parameter file');
    assert.equal(again.summary, '3');
    // The result replaces the earlier one in its tab's group: one tab with that title, not a second one
    // elsewhere; its breadcrumbs name the function and the inputs, not the run ID.
    const after = resultTabs();
    assert.equal(after.length, 1, `one result tab after Run Again: ${JSON.stringify(after.map((t) => [t.column, t.uri.toString()]))}`);
    assert.equal(after[0].column, before[0].column, 'in the same editor group');
    assert.equal(after[0].uri.path, '/Demo:Add(a: 1, b: 2)/Demo:Add — result');
    assert.ok(!after[0].uri.path.includes(again.id), 'no run ID in the path');
    assert.equal(new URLSearchParams(after[0].uri.query).get('run'), again.id);
    assert.equal(resultDocument('Demo:Add — result').getText().trim(), '3');
    await assert.rejects(run('datagrok.runs.runAgain', { id: 'no-such-run' }), /No remembered run with ID "no-such-run"/);
  });

  it('copies a run as curl and as Python with <API key> in place of the key; the curl call works', async () => {
    await run('datagrok.functions.run', { function: 'Demo:Add', params: { a: 4, b: 5 } });
    const r = newest();
    const curl = await run<string>('datagrok.runs.copyAsCurl', { id: r.id });
    assert.equal(await vscode.env.clipboard.readText(), curl);
    assert.ok(!curl.includes(emulator.key), 'the key is not in the text');
    assert.match(curl, /-H 'Authorization: Bearer <API key>'/);
    const url = /curl -X POST '([^']+)'/.exec(curl)?.[1];
    const body = /--data-raw '([^']*)'/.exec(curl)?.[1];
    assert.equal(url, `${server()}/public/v1/Demo.Add/call`);
    assert.deepEqual(JSON.parse(body ?? ''), { a: 4, b: 5 });
    // The same request with the key in its place answers the result.
    const answer = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${emulator.key}`, 'Content-Type': 'application/json' }, body });
    assert.equal(answer.status, 200);
    assert.equal(await answer.json(), 9);

    const python = await run<string>('datagrok.runs.copyAsPython', { id: r.id });
    assert.equal(await vscode.env.clipboard.readText(), python);
    assert.ok(!python.includes(emulator.key));
    assert.match(python, /DatagrokClient\("[^"]+\/api", "Bearer <API key>"\)/);
    assert.match(python, /grok\.functions\.call\("Demo:Add", \{\n\s+"a": 4,\n\s+"b": 5,\n\s+\}\)/);
  });

  it("saves a run's inputs as a parameter file that runs again, and its result as a file", async () => {
    await run('datagrok.functions.run', { function: 'Demo:Add', params: { a: 7, b: 8 } });
    const r = newest();
    const target = vscode.Uri.file(inRunsDir('saved.datagrok.json'));
    assert.equal((await run<vscode.Uri>('datagrok.runs.saveAsParameterFile', { id: r.id, target })).fsPath, target.fsPath);
    assert.deepEqual(JSON.parse(fs.readFileSync(target.fsPath, 'utf8')), { $function: 'Demo:Add', a: 7, b: 8 });
    assert.equal(await run('datagrok.functions.run', { uri: target }), 15);
    await assert.rejects(run('datagrok.runs.saveAsParameterFile', { id: r.id, target }), /already exists/);
    const saved = vscode.Uri.file(inRunsDir('result.json'));
    await run('datagrok.runs.saveResultAs', { id: r.id, target: saved });
    assert.equal(fs.readFileSync(saved.fsPath, 'utf8').trim(), '15');
    // A run without a file: Open Parameter File says so.
    await assert.rejects(run('datagrok.runs.openParameterFile', { id: r.id }), /was not run from a parameter file/);
  });

  it("shows the server's runs in the Runs view: function, file, when, how long, outcome, summary", async () => {
    const uri = write('view.datagrok.json', '{ "$function": "Demo:Add", "a": 2, "b": 2 }');
    await run('datagrok.functions.run', { uri });
    const r = newest();
    const nodes = await api.runsTree.getChildren();
    assert.equal(nodes.length, api.rememberedRuns(server()).runs.length);
    const item = api.runsTree.getTreeItem(nodes[0]);
    assert.equal(item.label, 'Demo:Add');
    assert.match(String(item.description), /^view\.datagrok\.json · just now · \d+ ms · → 4$/);
    assert.equal(item.contextValue, 'datagrok.run.ok.result.file');
    assert.equal(item.command?.command, 'datagrok.runs.openResult');
    assert.equal(item.id, `run:${r.id}`);
    // The tooltip names the inputs and the file by its path, no file:// URI and no run ID.
    const tooltip = (item.tooltip as vscode.MarkdownString).value.replaceAll('&nbsp;', ' ').replace(/\\(.)/g, '$1'); // appendText escapes . - ( ) and spaces
    assert.match(tooltip, /Inputs: a: 2, b: 2/);
    assert.match(tooltip, /Parameter file: \S*view\.datagrok\.json/);
    assert.ok(!tooltip.includes('file://') && !tooltip.includes(r.id), tooltip);
    const failed = api.runsTree.getTreeItem(nodes.find((n) => api.runsTree.getTreeItem(n).contextValue === 'datagrok.run.failed.file')!);
    assert.match(String(failed.description), /fail\.json · .* · failed$/);
    // The actions take the view's item as they do from the context menu.
    assert.equal(await run('datagrok.runs.runAgain', nodes[0]), 4);
  });

  it("reads an older run's result from the store once it is no longer in memory", async () => {
    await run('datagrok.functions.run', { function: 'Demo:Add', params: { a: 1000, b: 1 } });
    const old = newest();
    const uri = vscode.Uri.from({ scheme: 'datagrok-result', path: `/${old.id}/Demo:Add — result` });
    // More runs than the result documents kept in memory (20).
    for (let i = 0; i < 21; i++) await run('datagrok.functions.run', { function: 'Demo:Add', params: { a: i, b: 0 } });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)).trim(), '1001');
  });

  it('respects datagrok.runs.maxRemembered, removes one run and clears them all', async () => {
    const config = vscode.workspace.getConfiguration('datagrok.runs');
    try {
      await config.update('maxRemembered', 2, vscode.ConfigurationTarget.Global);
      for (const a of [1, 2, 3]) await run('datagrok.functions.run', { function: 'Demo:Add', params: { a, b: 0 } });
      await new Promise((r) => setTimeout(r, 200));
      const runs = api.rememberedRuns(server()).runs;
      assert.deepEqual(
        runs.map((x) => x.summary),
        ['3', '2'],
      );
      await run('datagrok.runs.remove', { id: runs[0].id });
      assert.deepEqual(
        api.rememberedRuns(server()).runs.map((x) => x.summary),
        ['2'],
      );
    } finally {
      await config.update('maxRemembered', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.equal(await run('datagrok.runs.clear', {}), 1);
    assert.deepEqual(api.rememberedRuns(server()).runs, []);
  });
});

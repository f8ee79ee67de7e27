// Pushing CSV as tables and opening tables as CSV, through the real commands, against the emulator:
// the emulator holds exactly the bytes that were pushed (sha256 in /__emulator/state).
// Large tables (streamed, cancelled, too large for an editor) are in tableTransfers.test.ts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CreationResult } from '../../src/api/types';
import { finalTableName } from '../../src/platform/tables/names';
import { clearEmulatorRequests, emulatorRequests } from './support';
import { LOGIN, run, sha256, tablesOnServer, tablesSuite, until } from './tableSupport';

describe('Tables: push and open', () => {
  const tables = tablesSuite();

  it('pushes the unsaved text of the active editor, named from the document', async () => {
    const text = 'city,population\nBerlin,3645000\nParis,2161000\nRome,2873000\n';
    const document = await vscode.workspace.openTextDocument({ language: 'csv', content: text });
    await vscode.window.showTextDocument(document);
    const result = await run<CreationResult>('datagrok.tables.push', { name: 'cities' });
    assert.match(result.ID, /^[0-9a-f-]{36}$/);
    assert.equal(result.name, `${LOGIN}:cities:cities`, 'named as the server names it, owner first');
    assert.ok(result.URL.startsWith('http'), result.URL);
    const stored = (await tablesOnServer()).find((t) => t.ID === result.ID);
    assert.ok(stored, 'the table is on the server');
    assert.equal(stored.sha256, sha256(text), 'the server holds exactly the editor text');

    // Unsaved edits of a saved file are pushed too, not the file on disk.
    const file = path.join(tables.dir, 'edited.csv');
    fs.writeFileSync(file, 'a,b\n1,2\n');
    const saved = await vscode.window.showTextDocument(vscode.Uri.file(file));
    await saved.edit((e) => e.insert(new vscode.Position(2, 0), '3,4\n'));
    assert.equal(saved.document.isDirty, true);
    const edited = await run<CreationResult>('datagrok.tables.push', {});
    assert.equal(edited.name, `${LOGIN}:edited:edited`, 'the name defaults from the file name');
    const storedEdit = (await tablesOnServer()).find((t) => t.ID === edited.ID)!;
    assert.equal(storedEdit.sha256, sha256('a,b\n1,2\n3,4\n'));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('pushes into <project>.<table>; a re-push replaces the table (same ID, new data), also in Project:table form', async () => {
    const file = path.join(tables.dir, 'q1.csv');
    fs.writeFileSync(file, 'region,revenue\nnorth,10\nsouth,20\n');
    const first = await run<CreationResult>('datagrok.tables.push', { uri: file, name: 'Sales.q1' });
    assert.equal(first.name, `${LOGIN}:Sales:q1`);
    assert.equal(finalTableName('Sales.q1', LOGIN), first.name, 'the name box said this name');
    const before = (await tablesOnServer()).find((t) => t.ID === first.ID)!;
    assert.equal(before.project, 'Sales');

    fs.writeFileSync(file, 'region,revenue\nnorth,11\nsouth,22\neast,33\n');
    const second = await run<CreationResult>('datagrok.tables.push', { uri: vscode.Uri.file(file).toString(), name: 'Sales:q1' });
    assert.equal(second.ID, first.ID, 'the same table');
    const after = (await tablesOnServer()).find((t) => t.ID === first.ID)!;
    assert.notEqual(after.sha256, before.sha256);
    assert.equal(after.sha256, sha256(fs.readFileSync(file)));
    assert.equal((await tablesOnServer()).filter((t) => t.name === 'q1').length, 1);
    // The full name the server answered names the same table.
    const third = await run<CreationResult>('datagrok.tables.push', { uri: file, name: `${LOGIN}.Sales.q1` });
    assert.deepEqual([third.ID, third.name], [first.ID, first.name]);
  });

  it("opens a table by <project>.<table> under the server's full name, and a push of that file replaces it", async () => {
    const uri = await run<vscode.Uri>('datagrok.tables.open', { name: 'Sales.q1' });
    assert.equal(path.basename(uri.fsPath), 'q1.csv');
    const sidecar = path.join(path.dirname(uri.fsPath), '.q1.csv.datagrok-table.json');
    await until(async () => fs.existsSync(sidecar), 'the data view to write the table beside its file');
    assert.equal(JSON.parse(fs.readFileSync(sidecar, 'utf8')).name, `${LOGIN}:Sales:q1`, "the server's name, owner first");
    const before = await tablesOnServer();
    const q1 = before.find((t) => t.project === 'Sales' && t.name === 'q1')!;
    const pushed = await run<CreationResult>('datagrok.tables.push', { uri });
    assert.deepEqual([pushed.ID, pushed.name], [q1.ID, `${LOGIN}:Sales:q1`]);
    assert.equal((await tablesOnServer()).length, before.length, 'no new table');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('from a menu (a Uri), asks for the name (prefilled from the file name) and pushes on Enter', async () => {
    const file = path.join(tables.dir, 'menu pick.csv');
    fs.writeFileSync(file, 'k,v\n1,2\n3,4\n');
    const pushing = run<CreationResult | undefined>('datagrok.tables.push', vscode.Uri.file(file));
    let settled = false;
    void pushing.finally(() => {
      settled = true;
    });
    // Accept the name box (prefilled with the default name) once it shows.
    for (let i = 0; i < 100 && !settled; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
    const result = await pushing;
    assert.ok(result, 'the push ran');
    assert.equal(result.name, `${LOGIN}:menu pick:menu pick`);
    // The name box said so before the push (the login is known after sign-in): its preview is the name the server gave.
    assert.equal(finalTableName('menu pick', LOGIN), result.name);
  });

  it('refuses an empty, a binary or an unparsable CSV and uploads nothing', async () => {
    const empty = path.join(tables.dir, 'empty.csv');
    fs.writeFileSync(empty, '');
    const binary = path.join(tables.dir, 'binary.csv');
    fs.writeFileSync(binary, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37 + 11) % 256)));
    const quotes = path.join(tables.dir, 'quotes.csv');
    fs.writeFileSync(quotes, 'a,b\n"unterminated,1\n2,3\n');
    await clearEmulatorRequests();
    await assert.rejects(run('datagrok.tables.push', { uri: empty }), /"empty\.csv" is empty.*Nothing was uploaded/);
    await assert.rejects(run('datagrok.tables.push', { uri: binary }), /"binary\.csv" is not CSV text.*binary/);
    await assert.rejects(run('datagrok.tables.push', { uri: quotes }), /"quotes\.csv" is not valid CSV/);
    await assert.rejects(run('datagrok.tables.push', { uri: path.join(tables.dir, 'missing.csv') }), /missing\.csv/);
    const json = path.join(tables.dir, 'data.csv');
    fs.writeFileSync(json, '{ "rows": [1, 2, 3] }\n');
    await assert.rejects(run('datagrok.tables.push', { uri: json }), /"data\.csv" looks like JSON, not CSV/);
    // The active editor is used by default only when it holds CSV.
    const notCsv = path.join(tables.dir, 'settings.json');
    fs.writeFileSync(notCsv, '{}\n');
    await vscode.window.showTextDocument(vscode.Uri.file(notCsv));
    await assert.rejects(run('datagrok.tables.push', {}), /The active editor \("settings\.json"\) is not a CSV file/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    const posts = (await emulatorRequests()).filter((r) => r.method === 'POST');
    assert.deepEqual(posts, [], 'nothing was uploaded');
  });

  it('refuses a bad table name before uploading', async () => {
    const file = path.join(tables.dir, 'ok.csv');
    fs.writeFileSync(file, 'x\n1\n');
    await clearEmulatorRequests();
    await assert.rejects(run('datagrok.tables.push', { uri: file, name: 'Sales..q1' }), /empty part/);
    await assert.rejects(run('datagrok.tables.push', { uri: file, name: 'a/b' }), /cannot contain "\/"/);
    await assert.rejects(run('datagrok.tables.push', { uri: file, name: '  ' }), /Enter a table name/);
    // No table request (another feature's background reads of function signatures are not this test's subject).
    assert.deepEqual(
      (await emulatorRequests()).filter((r) => !r.path.includes('/public/v1/functions')),
      [],
    );
  });

  it('opens a table in the data view (streamed to a file named after the table)', async () => {
    const uri = await run<vscode.Uri>('datagrok.tables.open', { name: 'Demo:demog' });
    assert.ok(uri instanceof vscode.Uri);
    // Shown in the data view, saved under the table's name.
    assert.equal(path.basename(uri.fsPath), 'demog.csv');
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(tab instanceof vscode.TabInputCustom && tab.viewType === 'datagrok.dataView' && tab.uri.toString() === uri.toString(), 'the data view is the active editor');
    assert.match(fs.readFileSync(uri.fsPath, 'utf8'), /^USUBJID,AGE,SEX/);
    const stored = (await tablesOnServer()).find((t) => t.name === 'demog')!;
    assert.equal(sha256(fs.readFileSync(uri.fsPath)), stored.sha256, 'the file holds the table as the server has it');

    // A table pushed earlier, by ID.
    const pushed = (await tablesOnServer()).find((t) => t.project === 'Sales')!;
    const byId = await run<vscode.Uri>('datagrok.tables.open', { name: pushed.ID });
    assert.equal(sha256(fs.readFileSync(byId.fsPath)), pushed.sha256);
  });

  it("opening an unknown table rejects with the server's message and opens nothing", async () => {
    // By document, not by count: the host (or an earlier test's view) may open a document of its own meanwhile.
    const before = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
    await assert.rejects(run('datagrok.tables.open', { name: 'Nope.nothing' }), /not found/i);
    await assert.rejects(run('datagrok.tables.open', {}), /"name"/);
    const opened = vscode.workspace.textDocuments.map((d) => d.uri).filter((u) => !before.has(u.toString()) && (u.scheme === 'untitled' || /nope|nothing/i.test(u.path)));
    assert.deepEqual(opened.map(String), []);
  });
});

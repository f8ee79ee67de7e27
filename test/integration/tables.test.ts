// Pushing CSV as tables and opening tables as CSV, through the real commands, against the emulator:
// the emulator holds exactly the bytes that were pushed (sha256 in /__emulator/state).
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CreationResult } from '../../src/api/types';
import { finalTableName } from '../../src/platform/tables/names';
import { log } from './index';
import { clearEmulatorRequests, control, emulatorRequests, resetEmulator, signIn } from './support';

interface StateTable {
  ID: string;
  name: string;
  project: string;
  bytes: number;
  sha256: string;
}

/** The emulator's signed-in user: every table it pushes is named `demo:<project>:<table>`. */
const LOGIN = 'demo';

const tablesOnServer = async () => (await control<{ tables: StateTable[] }>('GET', 'state')).tables;

/** How long the emulator holds a push the cancel test aborts (a fault's delayMs). */
const HOLD_MS = 500;

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Polls /__emulator/state until its tables stay the same for `quietMs`; returns them. */
async function settledTables(quietMs: number, timeoutMs = 30_000): Promise<StateTable[]> {
  const deadline = Date.now() + timeoutMs;
  let last = JSON.stringify(await tablesOnServer());
  let since = Date.now();
  while (Date.now() - since < quietMs) {
    if (Date.now() > deadline) assert.fail(`the emulator's tables did not settle within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = JSON.stringify(await tablesOnServer());
    if (now !== last) {
      last = now;
      since = Date.now();
    }
  }
  return JSON.parse(last) as StateTable[];
}
const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

function run<T = unknown>(command: string, arg?: unknown): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, arg));
}

/** Writes a CSV of about `megabytes` MB; returns its sha256 and size. */
async function writeLargeCsv(file: string, megabytes: number): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  const out = fs.createWriteStream(file);
  let bytes = 0;
  const write = (chunk: string) =>
    new Promise<void>((resolve, reject) => {
      hash.update(chunk);
      bytes += Buffer.byteLength(chunk);
      out.write(chunk, (e) => (e ? reject(e) : resolve()));
    });
  await write('id,name,value,category,when\n');
  let row = 0;
  while (bytes < megabytes * 1024 * 1024) {
    const lines: string[] = [];
    for (let i = 0; i < 10000; i++, row++) {
      lines.push(`${row},name ${row % 977},${((row * 7919) % 100000) / 100},cat${row % 13},2024-01-${String((row % 28) + 1).padStart(2, '0')}\n`);
    }
    await write(lines.join(''));
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  return { sha256: hash.digest('hex'), bytes };
}

describe('Tables: push and open', () => {
  let dir: string;
  let large: { file: string; sha256: string; bytes: number };

  before(async function () {
    this.timeout(180_000);
    await resetEmulator();
    await signIn();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-tables-'));
    const file = path.join(dir, 'large.csv');
    large = { file, ...(await writeLargeCsv(file, 110)) };
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir, { recursive: true, force: true });
  });

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
    const file = path.join(dir, 'edited.csv');
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

  it('streams a large saved file from disk, byte for byte (throughput logged)', async function () {
    this.timeout(300_000);
    const started = Date.now();
    const result = await run<CreationResult>('datagrok.tables.push', { uri: vscode.Uri.file(large.file), name: 'Bench.large' });
    const seconds = (Date.now() - started) / 1000;
    const mb = large.bytes / 1024 / 1024;
    log(`     push throughput: ${mb.toFixed(1)} MB in ${seconds.toFixed(2)} s = ${(mb / seconds).toFixed(1)} MB/s (through datagrok.tables.push)`);
    assert.equal(result.name, `${LOGIN}:Bench:large`);
    const stored = (await tablesOnServer()).find((t) => t.ID === result.ID)!;
    assert.equal(stored.bytes, large.bytes);
    assert.equal(stored.sha256, large.sha256);
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.fsPath === large.file), 'a saved file is streamed, not opened as a document');
  });

  it('pushes into <project>.<table>; a re-push replaces the table (same ID, new data), also in Project:table form', async () => {
    const file = path.join(dir, 'q1.csv');
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
    const file = path.join(dir, 'menu pick.csv');
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
    const empty = path.join(dir, 'empty.csv');
    fs.writeFileSync(empty, '');
    const binary = path.join(dir, 'binary.csv');
    fs.writeFileSync(binary, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37 + 11) % 256)));
    const quotes = path.join(dir, 'quotes.csv');
    fs.writeFileSync(quotes, 'a,b\n"unterminated,1\n2,3\n');
    await clearEmulatorRequests();
    await assert.rejects(run('datagrok.tables.push', { uri: empty }), /"empty\.csv" is empty.*Nothing was uploaded/);
    await assert.rejects(run('datagrok.tables.push', { uri: binary }), /"binary\.csv" is not CSV text.*binary/);
    await assert.rejects(run('datagrok.tables.push', { uri: quotes }), /"quotes\.csv" is not valid CSV/);
    await assert.rejects(run('datagrok.tables.push', { uri: path.join(dir, 'missing.csv') }), /missing\.csv/);
    const json = path.join(dir, 'data.csv');
    fs.writeFileSync(json, '{ "rows": [1, 2, 3] }\n');
    await assert.rejects(run('datagrok.tables.push', { uri: json }), /"data\.csv" looks like JSON, not CSV/);
    // The active editor is used by default only when it holds CSV.
    const notCsv = path.join(dir, 'settings.json');
    fs.writeFileSync(notCsv, '{}\n');
    await vscode.window.showTextDocument(vscode.Uri.file(notCsv));
    await assert.rejects(run('datagrok.tables.push', {}), /The active editor \("settings\.json"\) is not a CSV file/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    const posts = (await emulatorRequests()).filter((r) => r.method === 'POST');
    assert.deepEqual(posts, [], 'nothing was uploaded');
  });

  it('refuses a bad table name before uploading', async () => {
    const file = path.join(dir, 'ok.csv');
    fs.writeFileSync(file, 'x\n1\n');
    await clearEmulatorRequests();
    await assert.rejects(run('datagrok.tables.push', { uri: file, name: 'Sales..q1' }), /empty part/);
    await assert.rejects(run('datagrok.tables.push', { uri: file, name: 'a/b' }), /cannot contain "\/"/);
    await assert.rejects(run('datagrok.tables.push', { uri: file, name: '  ' }), /Enter a table name/);
    assert.deepEqual(await emulatorRequests(), []);
  });

  it('a push cancelled through its signal leaves no half table and keeps the previous data', async function () {
    this.timeout(120_000);
    const small = path.join(dir, 'keep.csv');
    fs.writeFileSync(small, 'k,v\n1,2\n');
    const kept = await run<CreationResult>('datagrok.tables.push', { uri: small, name: 'Keep.data' });
    const before = await tablesOnServer();
    assert.equal(before.find((t) => t.ID === kept.ID)?.sha256, sha256('k,v\n1,2\n'));

    for (const name of ['Keep.data', 'Cancelled.data']) {
      // The emulator holds the upload before reading its body, so the push cannot finish before the abort
      // (the socket buffers take a few MB of the 110 MB). The abort goes through the command's `signal`
      // option, which aborts like the notification's Cancel button.
      const upload = `POST /api/public/v1/tables/${name}`;
      await control('POST', 'faults', { count: 1, delayMs: HOLD_MS, match: upload });
      await clearEmulatorRequests();
      const controller = new AbortController();
      const push = run('datagrok.tables.push', { uri: large.file, name, signal: controller.signal });
      await until(async () => (await emulatorRequests()).some((r) => `${r.method} ${r.path}` === upload), `${upload} to reach the emulator`);
      controller.abort();
      await assert.rejects(push, (e: unknown) => {
        // Not instanceof: the extension's DatagrokError class is another bundle's.
        assert.equal((e as { kind?: string }).kind, 'cancelled', String(e));
        assert.match((e as Error).message, /cancelled/);
        return true;
      });
      assert.deepEqual(await control('GET', 'faults'), [], 'the held upload was that push');
    }
    // The held uploads resume after HOLD_MS, find their connection closed and drop their temporary files.
    const after = await settledTables(HOLD_MS + 1000);
    assert.equal(after.find((t) => t.ID === kept.ID)?.sha256, sha256('k,v\n1,2\n'), 'the previous data stays');
    assert.equal(after.filter((t) => t.project === 'Cancelled').length, 0, 'no half table');
    assert.deepEqual(after, before, 'no table changed');
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

  it('a table larger than datagrok.files.maxEditorFileSizeMB is saved to disk, not opened in an editor', async () => {
    const config = vscode.workspace.getConfiguration('datagrok.files');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-big-table-'));
    try {
      const big = await writeLargeCsv(path.join(dir, 'big.csv'), 2);
      await run('datagrok.tables.push', { uri: vscode.Uri.file(path.join(dir, 'big.csv')), name: 'Big.rows' });
      await config.update('maxEditorFileSizeMB', 1, vscode.ConfigurationTarget.Global);
      // In a text editor (the data view opens any size).
      await vscode.workspace.getConfiguration('datagrok.tables').update('openIn', 'text', vscode.ConfigurationTarget.Global);
      const uri = await run<vscode.Uri>('datagrok.tables.open', { name: 'Big.rows' });
      assert.equal(sha256(fs.readFileSync(uri.fsPath)), big.sha256, 'the whole table is on disk');
      assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString()), 'not opened in an editor');
    } finally {
      await config.update('maxEditorFileSizeMB', undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration('datagrok.tables').update('openIn', undefined, vscode.ConfigurationTarget.Global);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("opening an unknown table rejects with the server's message and opens nothing", async () => {
    const before = vscode.workspace.textDocuments.length;
    await assert.rejects(run('datagrok.tables.open', { name: 'Nope.nothing' }), /not found/i);
    await assert.rejects(run('datagrok.tables.open', {}), /"name"/);
    assert.equal(vscode.workspace.textDocuments.length, before);
  });
});

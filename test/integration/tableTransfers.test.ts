// Large tables through the real commands, against the emulator: a 110 MB CSV streamed from disk byte for
// byte, a push of it cancelled midway, and a table too large for an editor saved to disk. Pushing and
// opening tables otherwise are in tables.test.ts.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CreationResult } from '../../src/api/types';
import { log } from './index';
import { clearEmulatorRequests, control, emulatorRequests } from './support';
import { LOGIN, run, sha256, type StateTable, tablesOnServer, tablesSuite, until } from './tableSupport';

/** How long the emulator holds a push the cancel test aborts (a fault's delayMs). */
const HOLD_MS = 500;

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
  const tables = tablesSuite();
  let large: { file: string; sha256: string; bytes: number };

  before(async function () {
    this.timeout(180_000);
    const file = path.join(tables.dir, 'large.csv');
    large = { file, ...(await writeLargeCsv(file, 110)) };
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

  it('a push cancelled through its signal leaves no half table and keeps the previous data', async function () {
    this.timeout(120_000);
    const small = path.join(tables.dir, 'keep.csv');
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
});

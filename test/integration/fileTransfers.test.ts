// Large transfers of connector files in the real VS Code host against the emulator: a file too large for
// an editor is offered as a download, 200 MB streamed both ways with the host's memory flat, and a
// download cancelled midway. The file system and the other file commands are in files.test.ts.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { connectorFilesSuite } from './fileSuite';
import { log } from './index';
import { APPDATA, eventually, fileOnServer, fileUri, rejectsWith, run } from './fileSupport';

/** Writes `megabytes` MB of varied bytes, streamed; returns the sha256. */
async function writeLargeFile(file: string, megabytes: number): Promise<string> {
  const hash = createHash('sha256');
  const out = fs.createWriteStream(file);
  const block = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < block.length; i++) block[i] = (i * 31 + 7) % 251;
  for (let mb = 0; mb < megabytes; mb++) {
    block.writeUInt32BE(mb, 0); // no two blocks alike
    hash.update(block);
    if (!out.write(block)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  return hash.digest('hex');
}

async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Samples the extension host's RSS while work runs; returns the highest growth over the start, in MB. */
async function rssGrowthDuring<T>(work: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const start = process.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growthMb: (peak - start) / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

describe('Connector files: datagrok:// file system and commands', () => {
  const files = connectorFilesSuite();

  it('offers a download instead of opening a file above datagrok.files.maxEditorFileSizeMB', async () => {
    await files.api.uploadFile(APPDATA, 'two-megabytes.bin', { data: Buffer.alloc(2 * 1024 * 1024, 65) });
    await vscode.workspace.getConfiguration('datagrok.files').update('maxEditorFileSizeMB', 1, vscode.ConfigurationTarget.Global);
    try {
      const message = await rejectsWith(run('datagrok.files.open', { connector: APPDATA, path: 'two-megabytes.bin' }), /is 2\.0 MB, larger than 1 MB.*Download/);
      log(`     too large: ${message}`);
      await rejectsWith(vscode.workspace.openTextDocument(fileUri(APPDATA, 'two-megabytes.bin')), /larger than 1 MB/);
      const target = vscode.Uri.file(path.join(files.dir, 'two-megabytes.bin'));
      const saved = await run<vscode.Uri>('datagrok.files.download', { connector: APPDATA, path: 'two-megabytes.bin', target });
      assert.equal(saved.fsPath, target.fsPath);
      assert.equal(fs.statSync(target.fsPath).size, 2 * 1024 * 1024);
    } finally {
      await vscode.workspace.getConfiguration('datagrok.files').update('maxEditorFileSizeMB', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('uploads and downloads a 200 MB file streamed, memory staying flat', async function () {
    this.timeout(300_000);
    const source = path.join(files.dir, 'large.bin');
    const hash = await writeLargeFile(source, 200);
    const up = await rssGrowthDuring(() => run('datagrok.files.upload', { source: vscode.Uri.file(source), connector: APPDATA, path: 'big/large.bin' }));
    assert.equal((await fileOnServer(APPDATA, 'big/large.bin'))?.sha256, hash);
    const target = vscode.Uri.file(path.join(files.dir, 'large-copy.bin'));
    const down = await rssGrowthDuring(() => run<vscode.Uri>('datagrok.files.download', { connector: APPDATA, path: 'big/large.bin', target }));
    assert.equal(down.result.fsPath, target.fsPath);
    assert.equal(await hashFile(target.fsPath), hash);
    log(`     200 MB: extension host RSS grew ${up.growthMb.toFixed(1)} MB on upload, ${down.growthMb.toFixed(1)} MB on download`);
    assert.ok(up.growthMb < 100, `upload RSS growth ${up.growthMb} MB`);
    assert.ok(down.growthMb < 100, `download RSS growth ${down.growthMb} MB`);
  });

  it('a download cancelled midway leaves no partial file under the target name', async function () {
    this.timeout(120_000);
    const folder = fs.mkdtempSync(path.join(files.dir, 'cancel-'));
    const target = vscode.Uri.file(path.join(folder, 'cancelled.bin'));
    const controller = new AbortController();
    const download = run('datagrok.files.download', { connector: APPDATA, path: 'big/large.bin', target, signal: controller.signal });
    const settled = download.then(
      () => 'resolved',
      () => 'rejected',
    );
    // Abort once some bytes arrived in the temporary sibling (checked often: localhost is fast).
    let seenBytes = 0;
    while (seenBytes < 1024 * 1024) {
      for (const name of fs.readdirSync(folder)) seenBytes = Math.max(seenBytes, fs.statSync(path.join(folder, name), { throwIfNoEntry: false })?.size ?? 0);
      if (fs.existsSync(target.fsPath)) break;
      await new Promise((r) => setImmediate(r));
    }
    controller.abort();
    const message = await rejectsWith(download, /cancel/i);
    assert.equal(await settled, 'rejected');
    log(`     cancelled after ${(seenBytes / 1024 / 1024).toFixed(1)} MB: ${message}`);
    assert.equal(fs.existsSync(target.fsPath), false, 'no file under the target name');
    await eventually(() => fs.readdirSync(folder).length === 0, 'the temporary file to be removed');
  });
});

// Servers less uniform than the reference: chunked downloads, other creation-result keys, other error bodies.
import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { TransferProgress } from '../../src/api/types';
import { IDS, sha256, useEmulator } from './harness';

describe('server quirks beyond the reference', () => {
  const h = useEmulator();
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'datagrok-api-quirks-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('chunked downloads (no Content-Length): progress has no total, the bytes are right', async () => {
    await h.config({ chunkedDownloads: true });
    const big = Buffer.alloc(3 * 1024 * 1024 + 5, 9);
    await h.client.uploadFile('demo:Home', 'big.bin', { data: big });
    const target = join(dir, 'big.bin');
    const progress: TransferProgress[] = [];
    const result = await h.client.downloadFile('demo:Home', 'big.bin', { file: target }, { onProgress: (p) => progress.push(p) });
    assert.equal(result.bytes, big.length);
    assert.equal(sha256(await readFile(target)), sha256(big));
    assert.ok(progress.length > 0);
    assert.ok(progress.every((p) => p.total === undefined));
    assert.equal(progress.at(-1)?.bytes, big.length);

    const tableProgress: TransferProgress[] = [];
    const sink = new PassThrough();
    const parts: Buffer[] = [];
    sink.on('data', (c: Buffer) => parts.push(c));
    const table = await h.client.downloadTable('Demo:demog', { stream: sink }, { onProgress: (p) => tableProgress.push(p) });
    const stored = (await h.state()).tables.find((t) => t.ID === IDS.demogTable);
    assert.equal(table.bytes, stored?.bytes);
    assert.equal(sha256(Buffer.concat(parts)), stored?.sha256);
    assert.equal(tableProgress.at(-1)?.bytes, stored?.bytes);
    assert.ok(tableProgress.every((p) => p.total === undefined));
    // …and a small file read into memory.
    assert.match(Buffer.from(await h.client.readFile('System:DemoFiles', 'geo/cities.csv')).toString(), /^city,country/);
  });

  it('creation results keyed id / Grok name / url / markup are normalised', async () => {
    await h.config({ creationResultKeys: 'variant' });
    const table = await h.client.uploadTable('Variant:t', { data: 'a\n1\n' });
    assert.match(table.ID, /^[0-9a-f-]{36}$/);
    assert.equal(table.name, 'demo:Variant:t');
    assert.equal(table.Markup, `#{x.TableInfo.${table.ID}."demo:Variant:t"}`);
    assert.equal(table.URL, `${h.emulator.origin}/p/demo.Variant/t`);
    const dash = await h.client.createDashboard('Variant board', [table.ID]);
    assert.deepEqual(dash, {
      ID: dash.ID,
      name: 'Variant board',
      Markup: `#{x.Project.${dash.ID}."Variant board"}`,
      URL: `${h.emulator.origin}/p/Variant%20board`,
    });
    assert.ok((await h.state()).dashboards.some((d) => d.ID === dash.ID));
  });

  for (const errorShape of ['error', 'text'] as const) {
    it(`error bodies as ${errorShape === 'error' ? '{"error": "…"}' : 'plain text'}: the status and the server's message reach the DatagrokError`, async () => {
      await h.config({ errorShape });
      const forbidden = await h.fails(h.client.listRequests(IDS.dataScience), 'forbidden', /permission denied \(403\): You are not an administrator of Data Science\./);
      assert.equal(forbidden.serverMessage, 'You are not an administrator of Data Science');
      assert.equal(forbidden.status, 403);
      const fail = await h.fails(h.client.callFunction('Demo:Fail', { message: 'custom failure' }), 'server', /reported an error \(500\): custom failure\./);
      assert.equal(fail.serverMessage, 'custom failure');
      await h.fails(h.client.createGroup({ name: '' }), 'badInput');
      const resolved = await h.fails(
        (async () => {
          await h.client.approveRequest(IDS.bobToChemists);
          await h.client.denyRequest(IDS.bobToChemists);
        })(),
        'server',
        /rejected the request \(400\): .*already approved/,
      );
      assert.equal(resolved.status, 400);
      const missing = await h.fails(h.client.getGroup('00000000-0000-4000-8000-00000000dead'), 'notFound', /not found \(404\): Group .* not found/);
      assert.equal(missing.status, 404);
      // Transfers too: the error body of a download is read, never written to the target.
      const sink = new PassThrough();
      const parts: Buffer[] = [];
      sink.on('data', (c: Buffer) => parts.push(c));
      await h.fails(h.client.downloadTable('Demo:gone', { stream: sink }), 'notFound', /Table Demo:gone not found/);
      assert.equal(Buffer.concat(parts).length, 0);
    });
  }

  it('a 404 {"error": "… not found"} is a missing entity, not a missing route (no "unsupported", no /api hint)', async () => {
    await h.config({ errorShape: 'error' });
    await h.fails(
      h.client.deleteFile('demo:Home', 'nope.txt'),
      'notFound',
      /^Deleting demo:Home\/nope\.txt failed: not found \(404\): File demo:Home\/nope\.txt not found\. Check the name or ID\.$/,
    );
    await h.fails(h.client.listFiles('System:Nothing', ''), 'notFound', /Connector System:Nothing not found\. Check the name or ID\.$/);
    await h.fails(h.client.callFunction('Demo:Nope', {}), 'notFound', /not found \(404\): Function Demo:Nope not found\. Check the name or ID\.$/);
    // One request each: the function call did not fall back to the other route.
    assert.equal((await h.requests()).filter((r) => r.path.endsWith('/call')).length, 1);
    assert.equal(h.client.routes.functionCall, 'reference');
  });
});

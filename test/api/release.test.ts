// A download's memory given back as it goes (src/api/release.ts): chunks released once written, the
// socket's reads once Node's parser had them; and downloads that stay whole through it, one after another
// and side by side on one client's kept-alive connections.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { release, releaseReads } from '../../src/api/release';
import { sha256, useEmulator } from './harness';

const detachable = typeof (new ArrayBuffer(0) as ArrayBuffer & { transfer?: unknown }).transfer === 'function';

describe('memory of downloads given back as they go', () => {
  const h = useEmulator();
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dg-release-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('release frees a chunk that is a whole buffer of its own, and leaves views and pool slices alone', function () {
    if (!detachable) this.skip();
    const own = Buffer.from(new Uint8Array(64 * 1024).fill(7).buffer);
    const larger = Buffer.alloc(64 * 1024, 1);
    const view = larger.subarray(0, 32 * 1024);
    const pooled = Buffer.allocUnsafe(100).fill(2);
    const small = Buffer.from(new Uint8Array(1000).fill(3).buffer);
    for (const chunk of [own, view, pooled, small]) release(chunk);
    assert.equal(own.length, 0, 'a whole buffer of its own is released');
    assert.equal(view.length, 32 * 1024, 'a view into a larger buffer is kept');
    assert.equal(larger[40_000], 1);
    assert.equal(pooled.length, 100, 'a slice of the shared pool is kept');
    assert.equal(small.length, 1000, 'chunks under 4 KiB are kept');
  });

  it("a socket's reads are released after the parser had them; the body is whole and the listener gone after", async function () {
    if (!detachable) this.skip();
    const body = randomBytes(3 * 1024 * 1024 + 123);
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-length': String(body.length) });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = new http.Agent({ keepAlive: true });
    try {
      const port = (server.address() as AddressInfo).port;
      const { received, seen, before, during, after } = await new Promise<{ received: Buffer; seen: number[]; before: number; during: number; after: number }>(
        (resolve, reject) => {
          http
            .get({ host: '127.0.0.1', port, agent }, (res) => {
              const socket = res.socket;
              const before = socket.listenerCount('data');
              const stop = releaseReads(res);
              const during = socket.listenerCount('data');
              // Added after releaseReads: sees each read once it was released.
              const seen: number[] = [];
              const look = (chunk: Buffer) => seen.push(chunk.length);
              socket.on('data', look);
              const parts: Buffer[] = [];
              res.on('data', (c: Buffer) => parts.push(Buffer.from(c)));
              res.on('end', () => {
                stop();
                socket.off('data', look);
                resolve({ received: Buffer.concat(parts), seen, before, during, after: socket.listenerCount('data') });
              });
              res.on('error', reject);
            })
            .on('error', reject);
        },
      );
      assert.equal(sha256(received), sha256(body), 'the body arrived whole');
      assert.equal(during, before + 1);
      assert.ok(after <= before, `the listener is removed (${before} before, ${after} after)`);
      assert.ok(
        seen.some((n) => n === 0),
        `reads were released once the parser had them (${seen.length} reads seen, sizes ${seen.slice(0, 5).join(', ')}…)`,
      );
    } finally {
      agent.destroy();
      server.close();
    }
  });

  it('downloads to files stay whole one after another and side by side, with JSON calls on the same connections', async () => {
    const data = randomBytes(5 * 1024 * 1024 + 7);
    const local = join(dir, 'source.bin');
    writeFileSync(local, data);
    await h.client.uploadFile('demo:Home', 'release/source.bin', { file: local });
    const expected = sha256(data);
    for (let n = 0; n < 2; n++) {
      const target = join(dir, `serial-${n}.bin`);
      await h.client.downloadFile('demo:Home', 'release/source.bin', { file: target });
      assert.equal(sha256(readFileSync(target)), expected, `download ${n + 1} in series`);
    }
    const targets = [0, 1, 2].map((n) => join(dir, `parallel-${n}.bin`));
    const [groups] = await Promise.all([
      h.client.listGroups(),
      ...targets.map((t) => h.client.downloadFile('demo:Home', 'release/source.bin', { file: t })),
      h.client.listGroups(),
    ]);
    assert.ok(Array.isArray(groups) && groups.length > 0);
    for (const t of targets) assert.equal(sha256(readFileSync(t)), expected, `${t} side by side`);
    // A small file read back as bytes after the large ones reuses a connection that released reads.
    await h.client.uploadFile('demo:Home', 'release/small.txt', { data: 'still whole' });
    assert.equal(Buffer.from(await h.client.readFile('demo:Home', 'release/small.txt')).toString(), 'still whole');
  });
});

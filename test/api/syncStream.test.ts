// The sync route's answer as it streams (src/api/folderSync.ts), from a server that sends it piece by piece:
// a part's content reaches its file before the part has ended (a big folder costs a network chunk of memory,
// not its size), a part cut short leaves no file behind while the parts handed over stay the caller's, and
// a pull whose answer breaks mid-file leaves the local copy as it was.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createClient } from '../../src/api/client';
import type { SyncPart } from '../../src/api/types';
import { runSync } from '../../src/platform/sync/session';
import { writeLink } from '../../src/platform/sync/store';

const BOUNDARY = 'stream-test';
const MiB = 1024 * 1024;

function head(name: string, eTag: string): string {
  return `--${BOUNDARY}\r\nContent-Disposition: attachment; filename="${name}"\r\nX-File-E-Tag: ${eTag}\r\nContent-Type: application/octet-stream\r\n\r\n`;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('sync route: parts stream to their files', () => {
  let server: Server;
  let base: string;
  let handler: (res: ServerResponse) => Promise<void>;
  let dir: string;

  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => void handler(res).catch(() => res.destroy()));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dg-sync-stream-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes a part to disk while it arrives, hands it over whole with its sha256, and removes a part cut short', async () => {
    const big = Buffer.alloc(8 * MiB, 7);
    const contentDir = path.join(dir, 'incoming');
    const parts: SyncPart[] = [];
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    handler = async (res) => {
      res.writeHead(200, { 'Content-Type': `multipart/mixed; boundary=${BOUNDARY}` });
      res.write(head('a/big.bin', 'e1'));
      res.write(big.subarray(0, 4 * MiB));
      await released; // the test looks at the disk while the part is half sent
      res.write(big.subarray(4 * MiB));
      res.write(`\r\n${head('b.bin', 'e2')}half of b`);
      await until(async () => parts.length === 1, 'the first part handed over');
      res.destroy(); // the connection drops in the middle of b.bin
    };
    const client = createClient({ baseUrl: base, apiKey: 'stream-test-key', retries: 0 });
    const call = client.syncFolder('demo:Home', 'x', {}, (p) => void parts.push(p), { contentDir });
    const failed = assert.rejects(call, /ended before its last file|network|closed|socket|connection/i);
    await until(async () => {
      const names = await readdir(contentDir).catch(() => []);
      return names.length === 1 && (await stat(path.join(contentDir, names[0]))).size >= 2 * MiB;
    }, 'the first part on disk');
    assert.equal(parts.length, 0, 'not handed over before it is whole');
    release();
    await failed;
    await client.close();
    assert.equal(parts.length, 1);
    const p = parts[0] as Extract<SyncPart, { status: 'content' }>;
    assert.deepEqual([p.path, p.eTag, p.size, p.sha256], ['a/big.bin', 'e1', big.length, createHash('sha256').update(big).digest('hex')]);
    assert.ok((await readFile(p.file ?? '')).equals(big));
    assert.deepEqual(await readdir(contentDir), [path.basename(p.file ?? '')], 'the part cut short left no file');
  });

  it('a pull whose answer breaks in the middle of a file leaves the local copy as it was, and nothing beside it', async () => {
    const folder = path.join(dir, 'linked');
    await writeLink(folder, { connector: 'demo:Home', path: 'proj' });
    await writeFile(path.join(folder, 'data.csv'), 'mine\n');
    handler = async (res) => {
      res.writeHead(200, { 'Content-Type': `multipart/mixed; boundary=${BOUNDARY}` });
      res.write(`${head('data.csv', 'e9')}the server's new content, cut`);
      await new Promise((r) => setTimeout(r, 50));
      res.destroy();
    };
    const client = createClient({ baseUrl: base, apiKey: 'stream-test-key', retries: 0 });
    await assert.rejects(runSync(client, folder, { direction: 'pull', onConflict: 'theirs' }));
    await client.close();
    assert.equal(await readFile(path.join(folder, 'data.csv'), 'utf8'), 'mine\n');
    assert.deepEqual((await readdir(folder)).sort(), ['.datagrok', 'data.csv']);
    assert.deepEqual(await readdir(path.join(folder, '.datagrok', 'incoming')).catch(() => []), []);
  });
});

// Bodies whose data comes after the answer's head, in one packet with their end (real HTTP: a small
// server that flushes the head, waits, then sends the whole body): a server streaming a file from its
// store, or a proxy forwarding it, answers so. The client's first-data peek once read such a body as
// empty (its end was emitted before the peeked data went back), so a file opened in the editor showed
// nothing and a save would have replaced it with the edit alone.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createClient, type DatagrokClient } from '../../src/api/client';

describe('bodies that arrive after the head, with their end', () => {
  let server: Server;
  let client: DatagrokClient;
  let body: Buffer;
  let contentType: string;
  let chunked: boolean;

  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      const headers: Record<string, string> = { 'content-type': contentType };
      if (!chunked) headers['content-length'] = String(body.length);
      res.writeHead(200, headers);
      res.flushHeaders();
      setTimeout(() => res.end(body), 30);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, apiKey: 'timing-test-key', retries: 0 });
  });
  after(async () => {
    await client.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const cases = [
    { name: 'a small CSV', type: 'text/csv', data: Buffer.from('city,population\nBerlin,3645000\nParis,2161000\n') },
    { name: 'a small JSON file (checked for an ApiError first)', type: 'application/json', data: Buffer.from('{"a": [1, 2, 3]}') },
    { name: 'a JSON file just over the checked size', type: 'application/json', data: Buffer.from(`{"pad": "${'x'.repeat(64 * 1024)}"}`) },
  ];
  for (const c of cases) {
    for (const framing of ['content-length', 'chunked'] as const) {
      it(`${c.name} (${framing}): read whole, and downloaded whole`, async () => {
        body = c.data;
        contentType = c.type;
        chunked = framing === 'chunked';
        const read = await client.readFile('System:DemoFiles', 'file.csv');
        assert.equal(Buffer.from(read).toString('hex'), c.data.toString('hex'));
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-timing-'));
        try {
          const file = path.join(dir, 'file.csv');
          const result = await client.downloadFile('System:DemoFiles', 'file.csv', { file });
          assert.equal(result.bytes, c.data.length);
          assert.ok(fs.readFileSync(file).equals(c.data));
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      });
    }
  }
});

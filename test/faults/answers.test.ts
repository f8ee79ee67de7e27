// Replies that would hold the extension host hostage: one too large to hold, one that trickles forever.
import * as assert from 'node:assert/strict';
import { type FaultKit, failsWith, reply, startKit } from './kit';

describe('faults: unbounded replies', () => {
  let kit: FaultKit;
  before(async () => {
    kit = await startKit();
  });
  after(() => kit.close());

  it('a JSON answer declared larger than the cap fails as tooLarge without being read', async () => {
    kit.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(200 * 1024 * 1024) });
      res.write('[');
      // the rest never comes: the client must not wait for it
    });
    await failsWith(kit.client({ maxAnswerBytes: 1024 * 1024 }).listGroups(), 'tooLarge', /larger than 1\.0 MB.*datagrok\.maxAnswerSizeMB/);
  });

  it('a chunked JSON answer growing past the cap stops at the cap', async () => {
    const chunk = `${'{"id":"x","name":"g"},'.repeat(1000)}`;
    let sent = 0;
    kit.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const pump = () => {
        while (sent < 50 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end('{}]');
      };
      res.on('close', () => {
        sent = Number.POSITIVE_INFINITY;
      });
      pump();
    });
    await failsWith(kit.client({ maxAnswerBytes: 2 * 1024 * 1024 }).listGroups(), 'tooLarge', /larger than 2\.0 MB/);
    assert.ok(sent === Number.POSITIVE_INFINITY || sent < 50 * 1024 * 1024, 'the client stopped reading: the server saw the connection close');
  });

  it("a 200 whose JSON is an ApiError with a 50 MB message is the server's error, read no further than its first kilobytes", async () => {
    // As real servers answer some failures: HTTP 200, an ApiError body, here with a stack dump for a message.
    const head = '{"#type":"ApiError","message":"Group listing failed: at com.example.Handler.handle(Handler.java:42)\\n';
    const line = Buffer.from('at com.example.Handler.handle(Handler.java:42)\\n'.repeat(1000));
    const tail = '","errorCode":500}';
    const total = 50 * 1024 * 1024;
    let sent = 0;
    let closed: (sent: number) => void = () => undefined;
    const sentAtClose = new Promise<number>((resolve) => (closed = resolve));
    kit.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(head.length + total + tail.length) });
      res.write(head);
      const pump = () => {
        while (sent < total) {
          const part = line.subarray(0, Math.min(line.length, total - sent));
          sent += part.length;
          if (!res.write(part)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end(tail);
      };
      res.on('close', () => closed(sent));
      pump();
    });
    const e = await failsWith(kit.client().listGroups(), 'server', /^Listing groups failed: .*Group listing failed: at com\.example\.Handler\.handle\(Handler\.java:42\) at com/);
    assert.ok(e.message.length < 1000, `the message is its first part: ${e.message.length} characters`);
    // Read whole, the answer leaves the connection open for the next request: no close to wait for.
    const atClose = await Promise.race([sentAtClose, new Promise<number>((r) => setTimeout(() => r(sent), 2000))]);
    assert.ok(atClose < total, `the client stopped reading: the server saw the connection close after ${atClose} of ${total} bytes`);
  });

  it('an answer under the cap is read whole', async () => {
    kit.answer(reply(200, JSON.stringify([{ id: 'g1', name: 'One' }]), { 'content-type': 'application/json' }));
    const groups = await kit.client({ maxAnswerBytes: 1024 }).listGroups();
    assert.deepEqual(
      groups.map((g) => g.name),
      ['One'],
    );
  });

  it('a JSON answer that trickles one byte at a time ends at the request deadline, not never', async () => {
    kit.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 100);
      res.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    const e = await failsWith(kit.client({ timeouts: { requestMs: 800 } }).listGroups(), 'timeout', /did not complete within 1 s .*datagrok\.requestTimeoutSeconds/);
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
    assert.equal(e.kind, 'timeout');
  });

  it('cancelling a trickling call is a cancel, not a timeout', async () => {
    kit.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await failsWith(kit.client({ timeouts: { requestMs: 5000 } }).listGroups({}, { signal: controller.signal }), 'cancelled');
  });
});

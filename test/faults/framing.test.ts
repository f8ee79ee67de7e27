// Downloads against a raw TCP server that writes each answer byte for byte as a test scripts it (framing
// Node's own http server would never send: a chunked body cut at every byte, 1xx answers, a body that
// arrives with the head, a close-delimited body, a short body, a malformed head). Node's HTTP client
// (llhttp) parses; these check that the whole path around it holds: the socket, the framing it reports,
// the ApiError peek, the file sink, retries and the failure messages.
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type DatagrokClient } from '../../src/api/client';
import type { ClientOptions } from '../../src/api/types';
import { failsWith, KEY } from './kit';

/** How one connection is answered: given the request head (text) and the socket. */
type Script = (head: string, socket: Socket) => unknown;

interface RawServer {
  baseUrl: string;
  requests: string[];
  script(script: Script): void;
  close(): Promise<void>;
}

async function startRawServer(): Promise<RawServer> {
  let current: Script = (_head, socket) => socket.end('HTTP/1.1 204 No Content\r\n\r\n');
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      const head = text.slice(0, end);
      requests.push(head);
      Promise.resolve(current(head, socket)).catch(() => socket.destroy());
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    requests,
    script(script) {
      current = script;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes `parts` one at a time with a pause between them, so each arrives as a read of its own. */
async function trickle(socket: Socket, parts: (string | Buffer)[], gapMs = 2): Promise<void> {
  for (const part of parts) {
    if (socket.destroyed) return;
    socket.write(part);
    await sleep(gapMs);
  }
}

function chunked(body: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  for (let i = 0; at < body.length; i++) {
    const size = Math.min(sizes[i % sizes.length], body.length - at);
    out.push(Buffer.from(`${size.toString(16)}${i % 3 === 0 ? ';ext=1' : ''}\r\n`), body.subarray(at, at + size), Buffer.from('\r\n'));
    at += size;
  }
  out.push(Buffer.from('0\r\nx-trailer: yes\r\n\r\n'));
  return out;
}

describe("faults: answers framed oddly, read by Node's HTTP client", () => {
  let server: RawServer;
  let dir: string;
  const clients: DatagrokClient[] = [];
  const client = (options: Partial<ClientOptions> = {}) => {
    const c = createClient({ baseUrl: server.baseUrl, apiKey: KEY, retries: 0, ...options });
    clients.push(c);
    return c;
  };
  const download = (c: DatagrokClient, file: string, options = {}) => c.downloadFile('System:DemoFiles', 'data.bin', { file: join(dir, file) }, options);

  before(async () => {
    server = await startRawServer();
    dir = await mkdtemp(join(tmpdir(), 'dg-wire-'));
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    // Only finished files stay: never a partial or temporary one.
    for (const name of await readdir(dir)) assert.ok(!name.endsWith('.download'), `a temporary file was left: ${name}`);
  });

  it('sends one GET with the key and our user agent, keeping the connection for the next request', async () => {
    server.script((_head, socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\nabc'));
    await download(client(), 'plain.bin');
    assert.equal(await readFile(join(dir, 'plain.bin'), 'utf8'), 'abc');
    const head = server.requests.at(-1) ?? '';
    assert.match(head, /^GET \/api\/public\/v1\/files\/System\.DemoFiles\/data\.bin HTTP\/1\.1\r\n/);
    assert.match(head, new RegExp(`\r\nauthorization: Bearer ${KEY}(\r\n|$)`));
    assert.match(head, /\r\nuser-agent: datagrok-vscode(\r\n|$)/);
    assert.match(head, /\r\nconnection: keep-alive(\r\n|$)/i);
    assert.match(head, /\r\nhost: 127\.0\.0\.1:\d+(\r\n|$)/i);
  });

  it('decodes a chunked body cut at arbitrary bytes, with extensions and trailers, byte for byte', async () => {
    const body = randomBytes(300_000);
    const wire = Buffer.concat(chunked(body, [1, 7, 4096, 65_537, 3]));
    server.script(async (_head, socket) => {
      socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ncontent-type: application/octet-stream\r\n\r\n');
      // Cut the encoded body at sizes that split size lines, CRLFs and data alike.
      const parts: Buffer[] = [];
      for (let at = 0, i = 0; at < wire.length; i++) {
        const cut = [1, 2, 3, 5, 11, 1000, 70_000][i % 7];
        parts.push(wire.subarray(at, at + cut));
        at += cut;
      }
      await trickle(socket, parts, 0);
      socket.end();
    });
    const progress: number[] = [];
    await download(client(), 'chunked.bin', { onProgress: (p: { bytes: number }) => progress.push(p.bytes) });
    const got = await readFile(join(dir, 'chunked.bin'));
    assert.equal(createHash('sha256').update(got).digest('hex'), createHash('sha256').update(body).digest('hex'));
    assert.equal(progress.at(-1), body.length);
  });

  it('skips 100 Continue and 103 Early Hints, and keeps the body bytes that came with the head', async () => {
    server.script((_head, socket) =>
      socket.end('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 11\r\nX-Multi: 1\r\nX-Multi: 2\r\n\r\nhello world'),
    );
    await download(client(), 'hints.bin');
    assert.equal(await readFile(join(dir, 'hints.bin'), 'utf8'), 'hello world');
  });

  it('reads a body delimited by the connection closing', async () => {
    server.script(async (_head, socket) => {
      await trickle(socket, ['HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\n\r\n', 'part one, ', 'part two']);
      socket.end();
    });
    await download(client(), 'close.bin');
    assert.equal(await readFile(join(dir, 'close.bin'), 'utf8'), 'part one, part two');
  });

  it('an empty body makes an empty file', async () => {
    server.script((_head, socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n'));
    await download(client(), 'empty.bin');
    assert.equal((await readFile(join(dir, 'empty.bin'))).length, 0);
  });

  it('a body cut short before any data is retried; cut short mid-body, it fails and leaves no file', async () => {
    let n = 0;
    server.script((_head, socket) => {
      n++;
      if (n === 1) socket.end('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n');
      else socket.end('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n0123456789');
    });
    await download(client({ retries: 1, retryBaseDelayMs: 1 }), 'retried.bin');
    assert.equal(await readFile(join(dir, 'retried.bin'), 'utf8'), '0123456789');
    assert.equal(n, 2);

    server.script((_head, socket) => socket.end(`HTTP/1.1 200 OK\r\ncontent-length: 100000\r\ncontent-type: application/octet-stream\r\n\r\n${'x'.repeat(70_000)}`));
    await failsWith(download(client({ retries: 1, retryBaseDelayMs: 1 }), 'short.bin'), 'network', /interrupted/);
    assert.ok(!(await readdir(dir)).includes('short.bin'));
  });

  it('a malformed answer fails as an interrupted connection, never as success', async () => {
    server.script((_head, socket) => socket.end('HTTP/1.1 OK\r\n\r\nabc'));
    await failsWith(download(client(), 'bad-status.bin'), 'network', /interrupted \(HPE_INVALID_(STATUS|CONSTANT)\)/);
    server.script((_head, socket) => socket.end('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n'));
    await failsWith(download(client(), 'bad-chunk.bin'), 'network', /interrupted \(HPE_INVALID_CHUNK_SIZE\)/);
    server.script((_head, socket) => socket.end(`HTTP/1.1 200 OK\r\nx-big: ${'y'.repeat(70_000)}\r\n\r\n`));
    await failsWith(download(client(), 'big-head.bin'), 'network', /interrupted \(HPE_HEADER_OVERFLOW\)/);
    server.script((_head, socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 3, 4\r\n\r\nabc'));
    await failsWith(download(client(), 'two-lengths.bin'), 'network', /interrupted \(HPE_(UNEXPECTED_CONTENT_LENGTH|INVALID_CONTENT_LENGTH)\)/);
    const names = await readdir(dir);
    for (const name of ['bad-status.bin', 'bad-chunk.bin', 'big-head.bin', 'two-lengths.bin']) assert.ok(!names.includes(name), name);
  });

  it('an ApiError answer is the server’s message, and a 200 ApiError body is caught too', async () => {
    const error = JSON.stringify({ '#type': 'ApiError', message: 'File data.bin not found', errorCode: 404 });
    server.script((_head, socket) => socket.end(`HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: ${error.length}\r\n\r\n${error}`));
    await failsWith(download(client(), 'missing.bin'), 'notFound', /File data\.bin not found/);
    server.script((_head, socket) =>
      socket.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n${error.length.toString(16)}\r\n${error}\r\n0\r\n\r\n`),
    );
    await failsWith(download(client(), 'api-error.bin'), 'notFound', /File data\.bin not found/);
    assert.deepEqual(
      (await readdir(dir)).filter((n) => n === 'missing.bin' || n === 'api-error.bin'),
      [],
    );
  });

  it('times out a server that never answers, and a body that stalls, leaving no file', async () => {
    server.script(() => undefined);
    await failsWith(download(client({ timeouts: { transferMs: 200 } }), 'silent.bin'), 'timeout', /did not answer within 0\.2 s/);
    server.script((_head, socket) => socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\ncontent-type: application/octet-stream\r\n\r\nhalf'));
    await failsWith(download(client({ timeouts: { transferMs: 200 } }), 'stalled.bin'), 'timeout', /stopped sending data for 0\.2 s/);
    assert.ok(!(await readdir(dir)).some((n) => n === 'silent.bin' || n === 'stalled.bin'));
  });

  it('cancels mid-body: cancelled, the connection closed, no file', async () => {
    const controller = new AbortController();
    let closed = false;
    server.script(async (_head, socket) => {
      socket.on('close', () => {
        closed = true;
      });
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 10000000\r\ncontent-type: application/octet-stream\r\n\r\n');
      socket.write(Buffer.alloc(100_000));
      await sleep(30);
      controller.abort();
    });
    await failsWith(download(client(), 'cancelled.bin', { signal: controller.signal }), 'cancelled');
    await sleep(20);
    assert.ok(closed, 'the server saw the connection close');
    assert.ok(!(await readdir(dir)).includes('cancelled.bin'));
  });

  it('closing the client lets a running download finish and refuses new ones', async () => {
    server.script(async (_head, socket) => {
      await trickle(socket, ['HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\n', 'abc', 'def'], 30);
      socket.end();
    });
    // Closed here, so not in `clients` (closing twice is an error).
    const c = createClient({ baseUrl: server.baseUrl, apiKey: KEY, retries: 0 });
    const running = download(c, 'while-closing.bin');
    await sleep(10);
    let closed = false;
    const closing = c.close().then(() => {
      closed = true;
    });
    await running;
    await closing;
    assert.ok(closed);
    assert.equal(await readFile(join(dir, 'while-closing.bin'), 'utf8'), 'abcdef');
    await failsWith(download(c, 'after-close.bin'), 'network', /was closed \(signed out, or the network settings changed\)/);
  });

  it('a refused connection is a clear network error', async () => {
    const gone = await startRawServer();
    const url = gone.baseUrl;
    await gone.close();
    const c = createClient({ baseUrl: url, apiKey: KEY, retries: 0 });
    clients.push(c);
    await failsWith(c.downloadFile('System:DemoFiles', 'data.bin', { file: join(dir, 'refused.bin') }), 'network', /could not connect to 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });
});

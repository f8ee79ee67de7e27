import * as assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { TransferProgress } from '../../src/api/types';
import { sha256, useEmulator } from './harness';

describe('files', () => {
  const h = useEmulator();
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'datagrok-api-test-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function stored(connector: string, path: string) {
    return (await h.state()).files.find((f) => f.connector === connector && f.path === path);
  }

  it('downloads a file to disk with progress, streamed into place', async () => {
    const target = join(dir, 'demog.csv');
    const progress: TransferProgress[] = [];
    const result = await h.client.downloadFile('System:DemoFiles', 'demog.csv', { file: target }, { onProgress: (p) => progress.push(p) });
    const expected = await stored('System:DemoFiles', 'demog.csv');
    assert.equal(result.bytes, expected?.bytes);
    assert.equal(sha256(await readFile(target)), expected?.sha256);
    assert.deepEqual(progress.at(-1), { bytes: expected?.bytes, total: expected?.bytes });
    assert.deepEqual(
      (await readdir(dir)).filter((f) => f.includes('demog')),
      ['demog.csv'],
    );
    assert.deepEqual(h.log, [{ method: 'GET', path: '/public/v1/files/System.DemoFiles/demog.csv', status: 200, durationMs: h.log[0].durationMs, attempt: 1 }]);
  });

  it('downloads to any writable stream and reads small files into memory', async () => {
    const sink = new PassThrough();
    const parts: Buffer[] = [];
    sink.on('data', (c: Buffer) => parts.push(c));
    await h.client.downloadFile('System.DemoFiles', '/geo/cities.csv', { stream: sink });
    const text = Buffer.concat(parts).toString('utf8');
    assert.match(text, /^city,country/);
    assert.ok(text.includes('São Paulo'));
    const bytes = await h.client.readFile('System:DemoFiles', 'geo/cities.csv', { maxBytes: 1 << 20 });
    assert.equal(Buffer.from(bytes).toString('utf8'), text);
    await h.fails(h.client.readFile('System:DemoFiles', 'demog.csv', { maxBytes: 1000 }), 'tooLarge', /larger than .*Download it to disk/);
  });

  it('uploads from a file, a stream with or without size, and in-memory data', async () => {
    const local = join(dir, 'upload.bin');
    const content = Buffer.alloc(3 * 1024 * 1024 + 17, 'x');
    await writeFile(local, content);
    const progress: TransferProgress[] = [];
    await h.client.uploadFile('demo:Home', 'big/upload.bin', { file: local }, { onProgress: (p) => progress.push(p) });
    assert.deepEqual(progress.at(-1), { bytes: content.length, total: content.length });
    assert.equal((await stored('demo:Home', 'big/upload.bin'))?.sha256, sha256(content));

    const parts = ['a,b\n', '1,2\n', '3,4\n'];
    await h.client.uploadFile('demo:Home', 'sized.csv', { stream: Readable.from(parts.map((p) => Buffer.from(p))), size: 12 });
    await h.client.uploadFile('demo:Home', 'chunked.csv', {
      stream: (async function* () {
        for (const p of parts) yield Buffer.from(p);
      })(),
    });
    await h.client.uploadFile('demo:Home', 'data.txt', { data: 'héllo' });
    assert.equal((await stored('demo:Home', 'sized.csv'))?.sha256, sha256(parts.join('')));
    assert.equal((await stored('demo:Home', 'chunked.csv'))?.sha256, sha256(parts.join('')));
    assert.equal(Buffer.from(await h.client.readFile('demo:Home', 'data.txt')).toString('utf8'), 'héllo');
    // POST overwrites
    await h.client.uploadFile('demo:Home', 'data.txt', { data: 'second' });
    assert.equal(Buffer.from(await h.client.readFile('demo:Home', 'data.txt')).toString('utf8'), 'second');
    await h.fails(h.client.uploadFile('demo:Home', 'x.txt', { file: join(dir, 'missing.bin') }), 'badInput', /does not exist/);
    await h.fails(h.client.uploadFile('demo:Home', 'x.txt', { stream: Readable.from([Buffer.from('abc')]), size: 10 }), 'badInput', /declared size/);
  });

  it('encodes names with colons, spaces, %, # and unicode', async () => {
    const path = 'Ünïcødé dir/数据 100% #1?.csv';
    await h.client.uploadFile('demo:Home', path, { data: 'x,y\n1,2\n' });
    assert.ok(await stored('demo:Home', path));
    const back = await h.client.readFile('demo:Home', path);
    assert.equal(Buffer.from(back).toString(), 'x,y\n1,2\n');
    const listed = await h.client.listFiles('demo:Home', 'Ünïcødé dir');
    assert.deepEqual(
      listed.map((e) => e.path),
      [path],
    );
    const sent = (await h.requests()).map((r) => r.path);
    assert.equal(sent[0], `/api/public/v1/files/demo.Home/${encodeURIComponent('Ünïcødé dir')}/${encodeURIComponent('数据 100% #1?.csv')}`);
  });

  it('rejects "..", "." and empty segments before any request', async () => {
    for (const bad of ['../secret', 'a/../../b', './x', 'a//b', '']) {
      await h.fails(h.client.downloadFile('System:DemoFiles', bad, { file: join(dir, 'never') }), 'badInput', /Invalid file path/);
      await h.fails(h.client.uploadFile('demo:Home', bad, { data: 'x' }), 'badInput');
    }
    await h.fails(h.client.readFile('..', 'demog.csv'), 'badInput', /connector/);
    await h.fails(h.client.readFile('', 'demog.csv'), 'badInput');
    assert.deepEqual(await h.requests(), []);
    assert.deepEqual(h.log, []);
  });

  it('lists folders through the internal route', async () => {
    const root = await h.client.listFiles('System:DemoFiles', '');
    assert.deepEqual(
      root.map((e) => `${e.path}${e.isFile ? '' : '/'}`),
      ['cars.csv', 'demog.csv', 'geo/', 'readme.md'],
    );
    assert.ok(root.find((e) => e.name === 'demog.csv')?.size);
    const geo = await h.client.listFiles('System:DemoFiles', 'geo');
    assert.deepEqual(
      geo.map((e) => e.path),
      ['geo/cities.csv', 'geo/countries.csv'],
    );
    const sent = (await h.requests()).map((r) => `${r.path}?${r.query}`);
    assert.ok(sent.includes('/api/connectors/connections/f0000000-0000-4000-8000-000000000001/files/geo/?recursive=false'), sent.join('\n'));
    await h.fails(h.client.listFiles('System:Nothing', ''), 'notFound', /Connector System:Nothing not found/);
  });

  it('reports unsupported when the server cannot list or delete', async () => {
    await h.config({ listing: false, deleteFiles: false });
    await h.fails(h.client.listFiles('System:DemoFiles', ''), 'unsupported', /does not support listing/);
    await h.fails(h.client.deleteFile('demo:Home', 'notes.txt'), 'unsupported', /does not support deleting/);
    assert.ok(await stored('demo:Home', 'notes.txt'));
  });

  it('deletes files', async () => {
    await h.client.deleteFile('demo:Home', 'notes.txt');
    assert.equal(await stored('demo:Home', 'notes.txt'), undefined);
    await h.fails(h.client.deleteFile('demo:Home', 'notes.txt'), 'notFound', /not found/);
  });

  it('downloads file content that looks like an ApiError intact', async () => {
    const csv = 'id,payload\n1,"{""#type"":""ApiError"",""message"":""no""}"\n2,{"#type":"ApiError"}\n';
    await h.client.uploadFile('demo:Home', 'tricky.csv', { data: csv });
    const target = join(dir, 'tricky.csv');
    await h.client.downloadFile('demo:Home', 'tricky.csv', { file: target });
    assert.equal(await readFile(target, 'utf8'), csv);
    // Even a file that is exactly an ApiError object is content when served as a file (octet-stream).
    const json = '{"#type":"ApiError","message":"just a file","errorCode":404}';
    await h.client.uploadFile('demo:Home', 'error.json', { data: json });
    assert.equal(Buffer.from(await h.client.readFile('demo:Home', 'error.json')).toString(), json);
  });

  it('detects an ApiError answered with 200 where file content should be', async () => {
    await h.config({ errorsAsHttp200: true, apiErrorHeader: false });
    const target = join(dir, 'missing.csv');
    await h.fails(h.client.downloadFile('System:DemoFiles', 'missing.csv', { file: target }), 'notFound', /File System:DemoFiles\/missing.csv not found/);
    await assert.rejects(stat(target));
    await h.config({ errorBodyAsJsonString: true });
    await h.fails(h.client.readFile('System:DemoFiles', 'missing.csv'), 'notFound', /not found/);
  });

  it('cancels a download mid-transfer and leaves no partial file', async () => {
    await h.client.uploadFile('demo:Home', 'large.bin', { data: Buffer.alloc(32 * 1024 * 1024, 7) });
    const controller = new AbortController();
    const target = join(dir, 'large.bin');
    let seen = 0;
    await h.fails(
      h.client.downloadFile(
        'demo:Home',
        'large.bin',
        { file: target },
        {
          signal: controller.signal,
          onProgress: (p) => {
            seen = p.bytes;
            controller.abort();
          },
        },
      ),
      'cancelled',
      /was cancelled/,
    );
    assert.ok(seen > 0 && seen < 32 * 1024 * 1024);
    assert.deepEqual(
      (await readdir(dir)).filter((f) => f.includes('large')),
      [],
    );
    // A stream target is destroyed, so a reader does not hang.
    const controller2 = new AbortController();
    const sink = new PassThrough();
    sink.resume();
    await h.fails(h.client.downloadFile('demo:Home', 'large.bin', { stream: sink }, { signal: controller2.signal, onProgress: () => controller2.abort() }), 'cancelled');
    assert.ok(sink.destroyed);
  });

  it('cancels an upload mid-transfer; the server keeps nothing', async () => {
    const controller = new AbortController();
    let sent = 0;
    const source = (async function* () {
      for (let i = 0; i < 1000; i++) {
        yield Buffer.alloc(64 * 1024, 1);
        sent++;
        if (i === 20) controller.abort();
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    await h.fails(h.client.uploadFile('demo:Home', 'partial.bin', { stream: source, size: 1000 * 64 * 1024 }, { signal: controller.signal }), 'cancelled');
    assert.ok(sent < 1000);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(await stored('demo:Home', 'partial.bin'), undefined);
    await h.fails(h.client.uploadFile('demo:Home', 'x.bin', { data: 'x' }, { signal: AbortSignal.abort() }), 'cancelled');
  });

  it('retries a download dropped before any data, not one dropped mid-body', async () => {
    await h.fault({ match: 'GET /api/public/v1/files/', dropAfterBytes: 0 });
    const target = join(dir, 'cars.csv');
    await h.client.downloadFile('System:DemoFiles', 'cars.csv', { file: target });
    assert.equal(sha256(await readFile(target)), (await stored('System:DemoFiles', 'cars.csv'))?.sha256);
    assert.deepEqual(
      h.log.map((e) => [e.attempt, e.error]),
      [
        [1, 'network'],
        [2, undefined],
      ],
    );

    h.log.length = 0;
    await h.fault({ match: 'GET /api/public/v1/files/', dropAfterBytes: 1000 });
    const target2 = join(dir, 'demog-dropped.csv');
    await h.fails(h.client.downloadFile('System:DemoFiles', 'demog.csv', { file: target2 }), 'network', /interrupted/);
    assert.equal(h.log.length, 1);
    await assert.rejects(stat(target2));
    assert.deepEqual(
      (await readdir(dir)).filter((f) => f.includes('dropped')),
      [],
    );
  });

  describe('transfer idle timeout (timeouts.transferMs)', () => {
    it('times out a download that stalls mid-body, leaves no partial file and does not retry', async () => {
      const client = h.newClient({ timeouts: { transferMs: 300 } });
      await h.fault({ match: 'GET /api/public/v1/files/', stallAfterBytes: 1000 });
      const target = join(dir, 'stalled.csv');
      const progress: TransferProgress[] = [];
      const started = Date.now();
      await h.fails(
        client.downloadFile('System:DemoFiles', 'demog.csv', { file: target }, { onProgress: (p) => progress.push(p) }),
        'timeout',
        /^Downloading System:DemoFiles\/demog\.csv failed: the server stopped sending data for 0\.3 s\./,
      );
      assert.ok(Date.now() - started < 5000);
      assert.equal(progress.at(-1)?.bytes, 1000);
      await assert.rejects(stat(target));
      assert.deepEqual(
        (await readdir(dir)).filter((f) => f.includes('stalled')),
        [],
      );
      assert.equal((await h.requests()).filter((r) => r.method === 'GET').length, 1);
      assert.deepEqual(
        h.log.map((e) => e.error),
        ['timeout'],
      );
    });

    it('times out a download stalled right after the headers (before any data)', async () => {
      const client = h.newClient({ timeouts: { transferMs: 300 }, retries: 0 });
      await h.fault({ match: 'GET /api/public/v1/tables/', stallAfterBytes: 0 });
      const sink = new PassThrough();
      sink.resume();
      await h.fails(client.downloadTable('Demo:demog', { stream: sink }), 'timeout', /stopped sending data|did not answer/);
      assert.ok(sink.destroyed);
    });

    it('times out an upload whose response stalls after the server stored it, without re-sending the POST', async () => {
      const client = h.newClient({ timeouts: { transferMs: 300 } });
      // The emulator reads the whole body (the table is stored), then sends headers and 5 bytes of the
      // creation result and nothing more.
      await h.fault({ match: 'POST /api/public/v1/tables/', stallAfterBytes: 5 });
      await h.fails(client.uploadTable('Stall:t', { data: 'a,b\n1,2\n' }), 'timeout', /^Uploading table Stall:t failed: the server stopped sending data for 0\.3 s/);
      assert.equal((await h.requests()).filter((r) => r.method === 'POST').length, 1);
      assert.ok((await h.state()).tables.some((t) => t.fullName === 'demo:Stall:t'));
    });

    it('times out an upload the server neither reads nor answers, without re-sending the POST', async () => {
      const client = h.newClient({ timeouts: { transferMs: 300 } });
      await h.fault({ match: 'POST /api/public/v1/files/', delayMs: 1500 });
      // Large enough that the socket buffers fill while the server does not read.
      await h.fails(client.uploadFile('demo:Home', 'unread.bin', { data: Buffer.alloc(32 * 1024 * 1024, 1) }), 'timeout', /did not answer within 0\.3 s/);
      await h.fault({ match: 'POST /api/public/v1/files/', delayMs: 1500 });
      // Small: the whole body is sent, only the answer is late.
      await h.fails(client.uploadFile('demo:Home', 'late.txt', { data: 'x' }), 'timeout', /did not answer within 0\.3 s/);
      assert.equal((await h.requests()).filter((r) => r.method === 'POST').length, 2);
    });
  });

  it('never retries an upload', async () => {
    await h.fault({ match: 'POST /api/public/v1/files/', status: 503, retryAfter: 0 });
    await h.fails(h.client.uploadFile('demo:Home', 'once.txt', { data: 'x' }), 'unavailable', /server unavailable \(503\)/);
    assert.equal((await h.requests()).filter((r) => r.method === 'POST').length, 1);
    await h.fault({ match: 'POST /api/public/v1/files/', resetBeforeResponse: true });
    await h.fails(h.client.uploadFile('demo:Home', 'once.txt', { data: 'x' }), 'network');
    assert.equal((await h.requests()).filter((r) => r.method === 'POST').length, 2);
  });
});

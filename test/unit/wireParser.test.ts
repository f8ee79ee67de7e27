// The wire path's HTTP/1.1 framing (src/api/wireParser.ts), without sockets.
import * as assert from 'node:assert/strict';
import { ChunkedDecoder, framing, parseHead, WireError } from '../../src/api/wireParser';

function decode(input: Buffer, cut: number): { body: Buffer; end: number; done: boolean } {
  const decoder = new ChunkedDecoder();
  const parts: Buffer[] = [];
  let end = input.length;
  for (let at = 0; at < input.length && !decoder.done; at += cut) {
    const to = Math.min(input.length, at + cut);
    const stop = decoder.push(input, at, to, (b, s, e) => parts.push(Buffer.from(b.subarray(s, e))));
    if (decoder.done) end = stop;
  }
  return { body: Buffer.concat(parts), end, done: decoder.done };
}

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof WireError, String(err));
    return err.code;
  }
  throw new Error('expected a WireError');
}

describe('wire framing (src/api/wireParser.ts)', () => {
  it('parses a status line and headers: names lower-cased, repeated headers kept in order', () => {
    const head = parseHead('HTTP/1.1 206 Partial Content\r\nContent-Type: text/csv\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\nX-Empty:\r\nX-Spaced:   v  ');
    assert.equal(head.status, 206);
    assert.equal(head.statusText, 'Partial Content');
    assert.deepEqual(head.headers, { 'content-type': 'text/csv', 'set-cookie': ['a=1', 'b=2'], 'x-empty': '', 'x-spaced': 'v' });
    assert.equal(parseHead('HTTP/1.0 200').statusText, '');
  });

  it('refuses what is not an HTTP/1.x head', () => {
    const cases: Array<[string, string]> = [
      ['HTTP/2 200 OK', 'HPE_INVALID_CONSTANT'],
      ['<html>', 'HPE_INVALID_CONSTANT'],
      ['HTTP/1.1 200 OK\r\nno colon here', 'HPE_INVALID_HEADER_TOKEN'],
      ['HTTP/1.1 200 OK\r\nbad name: v', 'HPE_INVALID_HEADER_TOKEN'],
    ];
    for (const [head, expected] of cases) assert.equal(code(() => parseHead(head)), expected, head);
  });

  it('frames the body as RFC 9112 says', () => {
    const h = (lines: string) => parseHead(`HTTP/1.1 200 OK${lines}`);
    assert.deepEqual(framing('GET', h('\r\ncontent-length: 12')), { kind: 'length', bytes: 12 });
    assert.deepEqual(framing('GET', h('\r\ncontent-length: 0')), { kind: 'none' });
    assert.deepEqual(framing('GET', h('\r\ncontent-length: 5, 5')), { kind: 'length', bytes: 5 });
    assert.deepEqual(framing('GET', h('\r\ntransfer-encoding: chunked\r\ncontent-length: 5')), { kind: 'chunked' });
    assert.deepEqual(framing('GET', h('\r\nTransfer-Encoding: Chunked')), { kind: 'chunked' });
    assert.deepEqual(framing('GET', h('')), { kind: 'close' });
    assert.deepEqual(framing('HEAD', h('\r\ncontent-length: 12')), { kind: 'none' });
    assert.deepEqual(framing('GET', parseHead('HTTP/1.1 204 No Content\r\ncontent-length: 3')), { kind: 'none' });
    assert.deepEqual(framing('GET', parseHead('HTTP/1.1 304 Not Modified')), { kind: 'none' });
    const refused: Array<[string, string]> = [
      ['\r\ncontent-length: 5, 6', 'HPE_UNEXPECTED_CONTENT_LENGTH'],
      ['\r\ncontent-length: -1', 'HPE_UNEXPECTED_CONTENT_LENGTH'],
      ['\r\ntransfer-encoding: gzip, chunked', 'HPE_INVALID_TRANSFER_ENCODING'],
    ];
    for (const [lines, expected] of refused) assert.equal(code(() => framing('GET', h(lines))), expected, lines);
  });

  it('decodes a chunked body fed in pieces of any size, skipping extensions and trailers', () => {
    const encoded = Buffer.from('5;name=value\r\nhello\r\n1\r\n \r\nA\r\n0123456789\r\n0\r\nx-sum: 1\r\nx-more: 2\r\n\r\nNEXT');
    for (let cut = 1; cut <= encoded.length; cut++) {
      const { body, end, done } = decode(encoded, cut);
      assert.equal(body.toString(), 'hello 0123456789', `cut ${cut}`);
      assert.ok(done, `cut ${cut}`);
      assert.equal(encoded.subarray(end).toString(), 'NEXT', `cut ${cut}`);
    }
  });

  it('hands data on as views of the input, not copies', () => {
    const input = Buffer.from('3\r\nabc\r\n0\r\n\r\n');
    const decoder = new ChunkedDecoder();
    const seen: Buffer[] = [];
    decoder.push(input, 0, input.length, (b) => seen.push(b));
    assert.ok(seen.every((b) => b === input));
  });

  it('refuses a malformed chunked body', () => {
    const bad = (text: string) => code(() => decode(Buffer.from(text), 1000));
    assert.equal(bad('zz\r\n'), 'HPE_INVALID_CHUNK_SIZE');
    assert.equal(bad('\r\n'), 'HPE_INVALID_CHUNK_SIZE');
    assert.equal(bad('3\nabc'), 'HPE_INVALID_CHUNK_SIZE');
    assert.equal(bad('3\r\nabcX\r\n'), 'HPE_STRICT');
    assert.equal(bad('fffffffffffffff\r\n'), 'HPE_INVALID_CHUNK_SIZE');
  });
});

import * as assert from 'node:assert/strict';
import { readCreationResult } from '../../src/api/creation';
import { apiErrorOf, type FailureContext, isRouteMissing, parseErrorBody, serverFailure, transportFailure } from '../../src/api/failures';
import { parseRetryAfter } from '../../src/api/http';

const KEY = 'secret-key-123';
const ctx: FailureContext = {
  what: 'Listing groups',
  method: 'GET',
  path: '/public/v1/groups',
  hintMissingApi: false,
  origin: 'https://example.com',
  redact: (t) => t.split(KEY).join('***'),
};

describe('error classification', () => {
  it('finds an ApiError in an object or in a JSON string of one', () => {
    const obj = { '#type': 'ApiError', message: 'Table not found', errorCode: 404 };
    assert.deepEqual(apiErrorOf(obj), { message: 'Table not found', errorCode: 404 });
    assert.deepEqual(apiErrorOf(JSON.stringify(obj)), { message: 'Table not found', errorCode: 404 });
    assert.equal(apiErrorOf({ message: 'x' }), undefined);
    assert.equal(apiErrorOf('hello'), undefined);
  });

  it('maps statuses to kinds with advice, the server message, and never the key', () => {
    const cases: [number, string, RegExp][] = [
      [401, 'unauthorized', /API key was rejected \(401\).*Sign in again/],
      [403, 'forbidden', /permission denied \(403\)/],
      [404, 'notFound', /not found \(404\)/],
      [400, 'server', /rejected the request \(400\)/],
      [500, 'server', /reported an error \(500\)/],
      [429, 'unavailable', /busy \(429/],
      [503, 'unavailable', /server unavailable \(503\)/],
    ];
    for (const [status, kind, message] of cases) {
      const body = parseErrorBody(JSON.stringify({ message: `bad key ${KEY}`, '#type': 'ApiError' }), 'application/json');
      const err = serverFailure(ctx, status, body);
      assert.equal(err.kind, kind, `status ${status}`);
      assert.match(err.message, message);
      assert.match(err.message, /^Listing groups failed: /);
      assert.ok(!err.message.includes(KEY));
      assert.equal(err.serverMessage, 'bad key ***');
      assert.equal(err.status, status);
      assert.equal(err.details.method, 'GET');
      assert.equal(err.details.path, '/public/v1/groups');
    }
  });

  it('uses errorCode of an ApiError sent with 200', () => {
    const err = serverFailure(ctx, 200, parseErrorBody('{"#type":"ApiError","message":"Group not found","errorCode":404}', 'text/plain'));
    assert.equal(err.kind, 'notFound');
    assert.equal(err.status, 404);
    assert.equal(isRouteMissing(err), false);
    const noCode = serverFailure(ctx, 200, parseErrorBody('{"#type":"ApiError","message":"boom"}', 'application/json'));
    assert.equal(noCode.kind, 'server');
  });

  it('reads an ApiError cut short (its first kilobytes) as far as it came: message, code, and never the key', () => {
    const whole = JSON.stringify({ '#type': 'ApiError', message: `Group not found ${KEY}: "g"\n${'at x\n'.repeat(20_000)}`, errorCode: 404 });
    const cut = whole.slice(0, 64 * 1024);
    assert.throws(() => JSON.parse(cut));
    const err = serverFailure(ctx, 200, parseErrorBody(cut, 'application/json'));
    assert.equal(err.kind, 'server', 'the code came after the cut: a server error');
    assert.match(err.serverMessage ?? '', /^Group not found \*\*\*: "g" at x at x/);
    assert.ok(!err.message.includes(KEY));
    // The code before the message, an escape cut in two, the object JSON-encoded as a string (text/plain).
    const codeFirst = '{ "#type" : "ApiError", "errorCode": 403, "message": "No access to \\"g\\"\\u00e9 \\u00';
    const body = parseErrorBody(codeFirst, 'application/json');
    assert.deepEqual([body.apiError, body.message, body.errorCode], [true, 'No access to "g"é ', 403]);
    const encoded = JSON.stringify(`{"#type":"ApiError","message":"Script failed: ${'line\\n'.repeat(20_000)}`).slice(0, 64 * 1024);
    const fromString = parseErrorBody(encoded, 'text/plain');
    assert.deepEqual([fromString.apiError, fromString.message?.slice(0, 25)], [true, 'Script failed: line\nline\n']);
    // Not an ApiError: other cut JSON stays what it was (no message from inside a listing).
    assert.deepEqual(parseErrorBody('[{"#type":"ApiError","message":"x"', 'application/json'), { apiError: false, html: false, message: '[{"#type":"ApiError","message":"x"' });
    assert.equal(parseErrorBody(`{"items":[{"#type":"ApiError","message":"${'x'.repeat(600)}`, 'application/json').apiError, false);
  });

  it('turns HTML error pages into "server unavailable" without HTML', () => {
    const html = '<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>';
    const body = parseErrorBody(html, 'text/html');
    assert.equal(body.html, true);
    for (const status of [500, 502]) {
      const err = serverFailure(ctx, status, body);
      assert.equal(err.kind, 'unavailable');
      assert.match(err.message, new RegExp(`server unavailable \\(${status}\\)`));
      assert.ok(!err.message.includes('<'));
      assert.equal(err.serverMessage, undefined);
    }
  });

  it('marks a plain 404 as a missing route and hints at /api when the base lacks it', () => {
    const plain = serverFailure({ ...ctx, hintMissingApi: true }, 404, parseErrorBody('', undefined));
    assert.equal(plain.kind, 'notFound');
    assert.ok(isRouteMissing(plain));
    assert.match(plain.message, /Is the URL missing \/api\?/);
    const entity = serverFailure({ ...ctx, hintMissingApi: true }, 404, parseErrorBody('{"#type":"ApiError","message":"x"}', undefined));
    assert.ok(!isRouteMissing(entity));
    assert.ok(!entity.message.includes('/api'));
  });

  it('treats a 404 JSON error naming what is missing as a missing entity, not a missing route', () => {
    const entity = serverFailure(ctx, 404, parseErrorBody('{"error":"File demo:Home/x.txt not found"}', 'application/json'));
    assert.equal(entity.kind, 'notFound');
    assert.ok(!isRouteMissing(entity));
    assert.equal(entity.serverMessage, 'File demo:Home/x.txt not found');
    for (const generic of ['{"error":"Not Found"}', '{"status":404,"error":"Not Found","path":"/x"}', '{"message":"404 page not found"}', '{}', 'Not Found', 'File x not found']) {
      assert.ok(isRouteMissing(serverFailure(ctx, 404, parseErrorBody(generic, undefined))), generic);
    }
  });

  it('classifies transport errors', () => {
    const tctx = { ...ctx, cancelled: false, timeoutMs: 60000, connectMs: 30000, host: 'h' };
    const err = (code: string) => Object.assign(new Error(code), { code });
    assert.equal(transportFailure(err('ECONNREFUSED'), tctx).error.kind, 'network');
    assert.equal(transportFailure(err('ECONNREFUSED'), tctx).dropped, false);
    assert.equal(transportFailure(err('ECONNRESET'), tctx).dropped, true);
    assert.equal(transportFailure(err('ECONNRESET'), tctx).error.kind, 'network');
    assert.equal(transportFailure(err('HEADERS_TIMEOUT'), tctx).error.kind, 'timeout');
    assert.match(transportFailure(err('HEADERS_TIMEOUT'), tctx).error.message, /within 60 s/);
    assert.equal(transportFailure(err('BODY_TIMEOUT'), tctx).error.kind, 'timeout');
    assert.equal(transportFailure(err('ABORT_ERR'), { ...tctx, cancelled: true }).error.kind, 'cancelled');
  });

  it('parses Retry-After as seconds or HTTP date, capped', () => {
    assert.equal(parseRetryAfter('2'), 2000);
    assert.equal(parseRetryAfter('100000'), 30000);
    const now = Date.parse('Sun, 06 Nov 1994 08:49:37 GMT');
    assert.equal(parseRetryAfter('Sun, 06 Nov 1994 08:49:40 GMT', now), 3000);
    assert.equal(parseRetryAfter('garbage'), undefined);
    assert.equal(parseRetryAfter(undefined), undefined);
  });

  it('reads creation results case-insensitively', () => {
    assert.deepEqual(readCreationResult({ id: '1', 'Grok name': 'n', markup: 'm', url: 'u' }, 'x'), {
      ID: '1',
      name: 'n',
      Markup: 'm',
      URL: 'u',
    });
    assert.deepEqual(readCreationResult({ ID: '2', name: 'n' }, 'x'), { ID: '2', name: 'n', Markup: '', URL: '' });
    assert.throws(() => readCreationResult({ name: 'n' }, 'x'), /ID/);
  });
});

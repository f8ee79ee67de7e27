import * as assert from 'node:assert/strict';
import { badInput } from '../../src/api/errors';
import { hostOf } from '../../src/api/names';
import { positive, relativePath } from '../../src/api/request';
import { backoff, parseRetryAfter } from '../../src/api/retry';
import { formatBytes } from '../../src/api/units';

describe('transport helpers', () => {
  it('formats sizes for people', () => {
    assert.equal(formatBytes(0), '0 bytes');
    assert.equal(formatBytes(1023), '1023 bytes');
    assert.equal(formatBytes(1536), '1.5 KB');
    assert.equal(formatBytes(12 * 1024 * 1024), '12 MB');
    assert.equal(formatBytes(3 * 1024 ** 4), '3.0 TB');
  });

  it('reads Retry-After as seconds or a date, capped at 30 s', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter('2', now), 2000);
    assert.equal(parseRetryAfter('0.5', now), 500);
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now), 10_000);
    assert.equal(parseRetryAfter('3600', now), 30_000);
    assert.equal(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });

  it('backs off exponentially with at most 20% jitter, capped', () => {
    for (let n = 1; n <= 4; n++) {
      const wait = backoff(500, n);
      const base = 500 * 2 ** (n - 1);
      assert.ok(wait >= base && wait <= base * 1.2, `attempt ${n}: ${wait}`);
    }
    assert.equal(backoff(500, 20), 30_000);
  });

  it('builds the query string, skipping absent values', () => {
    assert.equal(relativePath({ method: 'GET', path: '/groups', what: 'x', query: { text: 'a b', admin: false, skip: undefined } }), '/groups?text=a+b&admin=false');
    assert.equal(relativePath({ method: 'GET', path: '/groups', what: 'x' }), '/groups');
    assert.equal(positive(-1, 5), 5);
    assert.equal(positive(Number.NaN, 5), 5);
    assert.equal(positive(2, 5), 2);
  });

  it('hostOf and badInput', () => {
    assert.equal(hostOf('https://public.datagrok.ai/api'), 'public.datagrok.ai');
    assert.equal(hostOf('not a url'), 'an invalid server URL');
    assert.equal(hostOf('https://user:secret@exa mple.com/api'), 'https://exa');
    assert.equal(hostOf('htps//key-1234'), 'an invalid server URL');
    const e = badInput('Bad.');
    assert.equal(e.kind, 'badInput');
    assert.equal(e.message, 'Bad.');
  });
});

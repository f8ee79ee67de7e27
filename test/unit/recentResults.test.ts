import * as assert from 'node:assert/strict';
import { RecentResults } from '../../src/platform/recentResults';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

// VS Code asks a file system for a file's stat and its content at once: both must share one download.
describe('recent results', () => {
  it('shares one request in flight and keeps its answer for the time to live', async () => {
    const cache = new RecentResults<string>(60_000);
    let calls = 0;
    const d = deferred<string>();
    const fetch = () => {
      calls++;
      return d.promise;
    };
    const a = cache.get('k', fetch);
    const b = cache.get('k', fetch);
    d.resolve('v');
    assert.deepEqual(await Promise.all([a, b]), ['v', 'v']);
    assert.equal(await cache.get('k', fetch), 'v');
    assert.equal(calls, 1);
    assert.equal(cache.peek('k'), 'v');
  });

  it('does not keep a failure: the next ask requests again', async () => {
    const cache = new RecentResults<string>(60_000);
    await assert.rejects(
      cache.get('k', () => Promise.reject(new Error('down'))),
      /down/,
    );
    assert.equal(cache.peek('k'), undefined);
    assert.equal(await cache.get('k', async () => 'back'), 'back');
  });

  it('fresh() never answers an older result', async () => {
    const cache = new RecentResults<string>(60_000);
    cache.set('k', 'old');
    assert.equal(await cache.fresh('k', async () => 'new'), 'new');
    assert.equal(cache.peek('k'), 'new');
  });

  it('a value set while a request is in flight wins over that request (a save during a download)', async () => {
    const cache = new RecentResults<string>(60_000);
    const d = deferred<string>();
    const download = cache.get('k', () => d.promise);
    cache.set('k', 'saved');
    d.resolve('pre-save');
    assert.equal(await download, 'pre-save');
    assert.equal(cache.peek('k'), 'saved');
  });

  it('expires after the time to live, and forgets on delete and clear', async () => {
    const cache = new RecentResults<string>(20);
    cache.set('k', 'v');
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(cache.peek('k'), undefined);
    cache.set('a', '1');
    cache.delete('a');
    assert.equal(cache.peek('a'), undefined);
    cache.set('b', '2');
    cache.clear();
    assert.equal(cache.peek('b'), undefined);
  });
});

// The light start's loader (src/platform/lazyModules.ts, loadOnce): the extension's entry loads its
// features (dist/features.js) with it on first use, from whichever stand-in is reached first.
import * as assert from 'node:assert/strict';
import { loadOnce } from '../../src/platform/lazyModules';

describe('loadOnce (features loaded on first use)', () => {
  it('loads on the first get only, and every later get returns the same value', () => {
    let loads = 0;
    const part = loadOnce('the part', () => ({ n: ++loads }));
    assert.equal(part.loaded, false);
    assert.equal(loads, 0, 'nothing is loaded before it is asked for');
    const first = part.get();
    assert.equal(part.loaded, true);
    assert.equal(part.get(), first);
    assert.equal(loads, 1);
  });

  it('a failed load names the part and the cause, is heard of once, and is not retried', () => {
    let loads = 0;
    const failures: Error[] = [];
    const part = loadOnce(
      "the extension's features (dist/features.js)",
      () => {
        loads++;
        throw new Error("Cannot find module './features.js'");
      },
      (error) => failures.push(error),
    );
    const expected =
      /^Could not load the extension's features \(dist\/features\.js\): Cannot find module '\.\/features\.js'\. Reload the window; if this happens again, reinstall the extension\.$/;
    const failsAsExpected = (error: unknown) => {
      assert.match((error as Error).message, expected);
      return true;
    };
    assert.throws(() => part.get(), failsAsExpected);
    assert.throws(() => part.get(), failsAsExpected);
    assert.equal(loads, 1, 'a half-run bundle is not run again');
    assert.equal(failures.length, 1);
    assert.match(failures[0].message, expected);
    assert.equal((failures[0].cause as Error).message, "Cannot find module './features.js'");
    assert.equal(part.loaded, false);
  });

  it("a get from inside the load (a stand-in reached by the part's own start) fails instead of loading twice", () => {
    let loads = 0;
    const part: { get(): number } = loadOnce('the part', () => {
      loads++;
      assert.throws(() => part.get(), /the part is still loading/);
      return 7;
    });
    assert.equal(part.get(), 7);
    assert.equal(loads, 1);
  });
});

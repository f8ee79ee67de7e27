import * as assert from 'node:assert/strict';
import { contentHash, FileVersions } from '../../src/platform/files/versions';

// The modification time a file reports is how VS Code tells "the file changed on the server since you
// opened it" (its save conflict): it must move when the content changes, and only then.
describe('file versions', () => {
  const key = 'http://s/api|System.DemoFiles|a.csv';
  const hash = (text: string) => contentHash(new TextEncoder().encode(text));

  it('keeps the time while the content read is the same, and moves it when the content differs', () => {
    const v = new FileVersions();
    const first = v.observeContent(key, hash('one'), 3);
    assert.equal(v.observeContent(key, hash('one'), 3), first);
    const second = v.observeContent(key, hash('two'), 3);
    assert.ok(second > first, 'same size, other content: a new version');
    assert.ok(v.hasContent(key));
  });

  it('a write always makes a newer version', () => {
    const v = new FileVersions();
    const read = v.observeContent(key, hash('one'), 3);
    const written = v.observeWrite(key, hash('one'), 3);
    assert.ok(written > read);
    assert.equal(v.peek(key), written);
  });

  it('a listing moves the time when the server time or the size changes, not when it repeats', () => {
    const v = new FileVersions();
    const t0 = v.observeListing(key, '2026-01-01T00:00:00Z', 10);
    assert.equal(t0, Date.parse('2026-01-01T00:00:00Z'));
    assert.equal(v.observeListing(key, '2026-01-01T00:00:00Z', 10), t0);
    const t1 = v.observeListing(key, '2026-01-02T00:00:00Z', 10);
    assert.equal(t1, Date.parse('2026-01-02T00:00:00Z'));
    // A listing without a time keeps what is known.
    assert.equal(v.observeListing(key, undefined), t1);
  });

  it('a listing that only adds the server time to a read file keeps its version', () => {
    const v = new FileVersions();
    const read = v.observeContent(key, hash('one'), 3);
    assert.equal(v.observeListing(key, '2020-01-01T00:00:00Z', 3), read);
    assert.ok(v.observeListing(key, '2020-01-01T00:00:00Z', 4) > read, 'another size is another version');
  });

  it('forgets a file', () => {
    const v = new FileVersions();
    v.observeContent(key, hash('x'), 1);
    v.forget(key);
    assert.equal(v.peek(key), undefined);
    assert.equal(v.hasContent(key), false);
  });
});

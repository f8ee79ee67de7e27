// Pure pieces of "nothing lost, nothing falsely reported": key checks and redaction, which files a rename
// relates, and file versions that move when a colleague saved (never from size alone).
import * as assert from 'node:assert/strict';
import { apiKeyProblem } from '../../src/api/names';
import { redactKey } from '../../src/api/redact';
import { compareFiles } from '../../src/files/connectorPaths';
import { planMount } from '../../src/files/mountPlan';
import { contentHash, FileVersions } from '../../src/platform/files/versions';

describe('keys: what may travel in a header, and what never reaches a message', () => {
  it('names the position and the code of a character that cannot be sent', () => {
    assert.match(apiKeyProblem('ab\u200bcd') ?? '', /invisible character \(U\+200B\) at position 3 of 5/);
    assert.match(apiKeyProblem('\ufeffabcd') ?? '', /invisible character \(U\+FEFF\) at position 1/);
    assert.equal(apiKeyProblem('aB3-_.~+/='), undefined);
  });

  it('hides the key whole, percent-encoded, and a long prefix echoed cut short', () => {
    const key = 'k3y/with+chars=0123456789';
    assert.equal(redactKey(`bad ${key}!`, key), 'bad ***!');
    assert.equal(redactKey(`bad ${encodeURIComponent(key)}`, key), 'bad ***');
    assert.equal(redactKey(`bad ${encodeURIComponent(key).toLowerCase()}`, key), 'bad ***');
    assert.equal(redactKey(`bad ${key.slice(0, 10)}…`, key), 'bad ***…');
    assert.equal(redactKey('Authorization: Bearer abc.def', key), 'Authorization: Bearer ***');
    assert.equal(redactKey('k3y/wit is short', key), 'k3y/wit is short', 'fewer than 8 characters of it are ordinary text');
  });
});

describe('rename: which files a rename relates', () => {
  it('the same server file when only the connector is written differently', () => {
    for (const connector of ['system.demofiles', 'System:DemoFiles', 'SYSTEM.DEMOFILES']) {
      assert.equal(compareFiles({ connector: 'System.DemoFiles', path: 'a.csv' }, { connector, path: 'a.csv' }), 'same', connector);
    }
  });

  it('a case-only change of the path, and other files', () => {
    assert.equal(compareFiles({ connector: 'S.D', path: 'geo/report.csv' }, { connector: 's.d', path: 'geo/Report.csv' }), 'caseOnly');
    assert.equal(compareFiles({ connector: 'S.D', path: 'a.csv' }, { connector: 'S.D', path: 'b.csv' }), 'other');
    assert.equal(compareFiles({ connector: 'S.D', path: 'a.csv' }, { connector: 'S.E', path: 'a.csv' }), 'other');
  });
});

describe('file versions: a colleague’s same-size save is seen', () => {
  const key = 'k';
  const h = (t: string) => contentHash(new TextEncoder().encode(t));
  const at = (iso: string) => Date.parse(iso);

  it('a listing after our read, with a later updatedOn by the server clock, is a new version', () => {
    const v = new FileVersions();
    const read = v.observeContent(key, h('ours'), 4, at('2026-01-01T10:00:00Z'));
    assert.equal(v.needsContentCheck(key), false);
    const listed = v.observeListing(key, '2026-01-01T10:00:05.000Z', 4);
    assert.ok(listed > read, 'same size, changed 5 s after we read it: newer');
  });

  it('the listing time of our own write (within the Date header second) is taken as ours', () => {
    const v = new FileVersions();
    const wrote = v.observeWrite(key, h('mine'), 4, at('2026-01-01T10:00:00Z'));
    assert.equal(v.observeListing(key, '2026-01-01T10:00:00.640Z', 4), wrote);
    // and from then on that time is the baseline
    assert.equal(v.observeListing(key, '2026-01-01T10:00:00.640Z', 4), wrote);
    assert.ok(v.observeListing(key, '2026-01-01T10:00:09.000Z', 4) > wrote);
  });

  it('without the server clock only the content can tell', () => {
    const v = new FileVersions();
    const read = v.observeContent(key, h('ours'), 4);
    assert.equal(v.needsContentCheck(key), true);
    assert.equal(v.observeListing(key, '2030-01-01T00:00:00Z', 4), read, 'not adopted as ours, not taken as a change');
    assert.equal(v.needsContentCheck(key), true);
    assert.ok(v.observeContent(key, h('them'), 4) > read, 'the download with other bytes is the new version');
  });

  it('a size other than ours is a new version whatever the times', () => {
    const v = new FileVersions();
    const read = v.observeContent(key, h('ours'), 4, at('2026-01-01T10:00:00Z'));
    assert.ok(v.observeListing(key, '2026-01-01T09:00:00Z', 5) > read);
  });
});

describe('mount: nothing unsaved is lost to a window reload', () => {
  const base = { multiRoot: false, unsaved: 0, interactive: true, newWindow: false };
  it('adds at once to a multi-root workspace (no reload)', () => {
    assert.equal(planMount({ ...base, multiRoot: true, unsaved: 3 }), 'add');
  });
  it('asks first when the window would reload', () => {
    assert.equal(planMount(base), 'ask');
    assert.equal(planMount({ ...base, unsaved: 2 }), 'ask');
  });
  it('a script never reloads a window holding unsaved work; with nothing unsaved it goes ahead', () => {
    assert.equal(planMount({ ...base, interactive: false, unsaved: 1 }), 'refuse');
    assert.equal(planMount({ ...base, interactive: false }), 'add');
  });
  it('a new window when asked for, whatever the window holds', () => {
    assert.equal(planMount({ ...base, interactive: false, unsaved: 1, newWindow: true }), 'newWindow');
  });
});

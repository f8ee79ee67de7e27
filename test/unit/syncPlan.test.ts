// Folder sync's pure part (src/platform/syncPlan.ts): states from base, local hash and server ETag; the
// actions of a pull, push or sync; deletes only when confirmed; conflicts; case-only renames.
import * as assert from 'node:assert/strict';
import { type BaseEntry, classify, type FileStatus, keepConfirmed, plan, type RemoteEntry } from '../../src/platform/syncPlan';

const base = (entries: Record<string, [string, string]>) => new Map(Object.entries(entries).map(([p, [etag, hash]]) => [p, { etag, hash, size: 1 } as BaseEntry]));
const local = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([p, hash]) => [p, { hash, size: 10 }]));
const remote = (entries: Record<string, RemoteEntry>) => new Map(Object.entries(entries));
const states = (s: FileStatus[]) => Object.fromEntries(s.map((x) => [x.path, x.state]));

describe('sync plan', () => {
  it('classifies each combination of base, local and remote', () => {
    const s = classify(
      base({ same: ['e1', 'h1'], here: ['e2', 'h2'], there: ['e3', 'h3'], both: ['e4', 'h4'], goneHere: ['e5', 'h5'], goneThere: ['e6', 'h6'], goneBoth: ['e7', 'h7'], delEdit: ['e8', 'h8'], editDel: ['e9', 'h9'], sameEdit: ['e10', 'h10'] }),
      local({ same: 'h1', here: 'H2', there: 'h3', both: 'H4', goneThere: 'h6', editDel: 'H9', sameEdit: 'X', newHere: 'n', newBothSame: 'k', newBothDiff: 'a' }),
      remote({
        same: { etag: 'e1' },
        here: { etag: 'e2' },
        there: { etag: 'E3', hash: 'x', size: 20 },
        both: { etag: 'E4', hash: 'y' },
        goneHere: { etag: 'e5' },
        delEdit: { etag: 'E8', hash: 'z' },
        sameEdit: { etag: 'E10', hash: 'X' },
        newThere: { etag: 'n', hash: 'q' },
        newBothSame: { etag: 'k1', hash: 'k' },
        newBothDiff: { etag: 'b1', hash: 'b' },
      }),
    );
    assert.deepEqual(states(s), {
      same: 'same',
      here: 'localChanged',
      there: 'remoteChanged',
      both: 'conflict',
      goneHere: 'localDeleted',
      goneThere: 'remoteDeleted',
      delEdit: 'conflict',
      editDel: 'conflict',
      sameEdit: 'same',
      newHere: 'localNew',
      newThere: 'remoteNew',
      newBothSame: 'same',
      newBothDiff: 'conflict',
    });
  });

  const statuses = classify(
    base({ a: ['e', 'h'], b: ['e', 'h'], c: ['e', 'h'], d: ['e', 'h'] }),
    local({ a: 'H', c: 'h', d: 'H', n: 'x' }),
    remote({ a: { etag: 'e' }, b: { etag: 'e' }, d: { etag: 'E', hash: 'y', size: 5 }, r: { etag: 'r', hash: 'r', size: 7 } }),
  );

  it('pull downloads, push uploads, sync both; deletes are skips until confirmed', () => {
    const actions = (direction: 'pull' | 'push' | 'both', propagateDeletes = false) => plan(statuses, { direction, onConflict: 'ask', propagateDeletes }).map((x) => `${x.path}:${x.action}`);
    assert.deepEqual(actions('pull'), ['c:skip', 'd:conflict', 'r:download']);
    assert.deepEqual(actions('push'), ['a:upload', 'b:skip', 'd:conflict', 'n:upload']);
    assert.deepEqual(actions('both', true), ['b:deleteRemote', 'c:deleteLocal', 'a:upload', 'd:conflict', 'n:upload', 'r:download']);
  });

  it('resolves conflicts only as asked, and only in the direction that writes', () => {
    const one = (direction: 'pull' | 'push' | 'both', onConflict: 'keepBoth' | 'mine' | 'theirs') => plan(statuses, { direction, onConflict, propagateDeletes: false }).find((x) => x.path === 'd');
    assert.deepEqual([one('both', 'mine')?.action, one('both', 'theirs')?.action, one('both', 'keepBoth')?.resolution], ['upload', 'download', 'keepBoth']);
    assert.equal(one('pull', 'mine')?.action, 'skip');
    assert.equal(one('push', 'theirs')?.action, 'skip');
  });

  it('a case-only rename deletes the old name first, and the new name waits for an unconfirmed delete', () => {
    const s = classify(base({ 'Data.csv': ['e', 'h'] }), local({ 'data.csv': 'h2' }), remote({ 'Data.csv': { etag: 'e' } }));
    assert.deepEqual(plan(s, { direction: 'push', onConflict: 'ask', propagateDeletes: true }).map((x) => `${x.path}:${x.action}`), ['Data.csv:deleteRemote', 'data.csv:upload']);
    assert.deepEqual(plan(s, { direction: 'push', onConflict: 'ask', propagateDeletes: false }).map((x) => `${x.path}:${x.action}`), ['Data.csv:skip', 'data.csv:skip']);
    const previewed = plan(s, { direction: 'push', onConflict: 'ask', propagateDeletes: true });
    assert.deepEqual(keepConfirmed(previewed, new Set(['data.csv'])).map((x) => `${x.path}:${x.action}`), ['Data.csv:skip', 'data.csv:skip']);
    assert.deepEqual(keepConfirmed(previewed, new Set(['data.csv', 'Data.csv'])).map((x) => `${x.path}:${x.action}`), ['Data.csv:deleteRemote', 'data.csv:upload']);
  });
});

// Folder sync's pure part (src/platform/sync/plan.ts): states from base, local hash and server ETag; the
// actions of a pull, push or sync; deletes only when confirmed; conflicts; case-only renames.
import * as assert from 'node:assert/strict';
import { type BaseEntry, classify, type FileStatus, keepConfirmed, plan, type RemoteEntry } from '../../src/platform/sync/plan';

const base = (entries: Record<string, [string, string]>) => new Map(Object.entries(entries).map(([p, [etag, hash]]) => [p, { etag, hash, size: 1 } as BaseEntry]));
const local = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([p, hash]) => [p, { hash, size: 10 }]));
const remote = (entries: Record<string, RemoteEntry>) => new Map(Object.entries(entries));
const states = (s: FileStatus[]) => Object.fromEntries(s.map((x) => [x.path, x.state]));

describe('sync plan', () => {
  it('classifies each combination of base, local and remote', () => {
    const s = classify(
      base({
        same: ['e1', 'h1'],
        here: ['e2', 'h2'],
        there: ['e3', 'h3'],
        both: ['e4', 'h4'],
        goneHere: ['e5', 'h5'],
        goneThere: ['e6', 'h6'],
        goneBoth: ['e7', 'h7'],
        delEdit: ['e8', 'h8'],
        editDel: ['e9', 'h9'],
        sameEdit: ['e10', 'h10'],
      }),
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
    const actions = (direction: 'pull' | 'push' | 'both', propagateDeletes = false) =>
      plan(statuses, { direction, onConflict: 'ask', propagateDeletes }).map((x) => `${x.path}:${x.action}`);
    assert.deepEqual(actions('pull'), ['c:skip', 'd:conflict', 'r:download']);
    assert.deepEqual(actions('push'), ['a:upload', 'b:skip', 'd:conflict', 'n:upload']);
    assert.deepEqual(actions('both', true), ['b:deleteRemote', 'c:deleteLocal', 'a:upload', 'd:conflict', 'n:upload', 'r:download']);
  });

  it('resolves conflicts only as asked, and only in the direction that writes', () => {
    const one = (direction: 'pull' | 'push' | 'both', onConflict: 'keepBoth' | 'mine' | 'theirs') =>
      plan(statuses, { direction, onConflict, propagateDeletes: false }).find((x) => x.path === 'd');
    assert.deepEqual([one('both', 'mine')?.action, one('both', 'theirs')?.action, one('both', 'keepBoth')?.resolution], ['upload', 'download', 'keepBoth']);
    assert.equal(one('pull', 'mine')?.action, 'skip');
    assert.equal(one('push', 'theirs')?.action, 'skip');
  });

  it('a case-only rename deletes the old name first, and the new name waits for an unconfirmed delete', () => {
    const s = classify(base({ 'Data.csv': ['e', 'h'] }), local({ 'data.csv': 'h2' }), remote({ 'Data.csv': { etag: 'e' } }));
    assert.deepEqual(
      plan(s, { direction: 'push', onConflict: 'ask', propagateDeletes: true }).map((x) => `${x.path}:${x.action}`),
      ['Data.csv:deleteRemote', 'data.csv:upload'],
    );
    assert.deepEqual(
      plan(s, { direction: 'push', onConflict: 'ask', propagateDeletes: false }).map((x) => `${x.path}:${x.action}`),
      ['Data.csv:skip', 'data.csv:skip'],
    );
    const previewed = plan(s, { direction: 'push', onConflict: 'ask', propagateDeletes: true });
    assert.deepEqual(
      keepConfirmed(previewed, new Set(['data.csv'])).map((x) => `${x.path}:${x.action}`),
      ['Data.csv:skip', 'data.csv:skip'],
    );
    assert.deepEqual(
      keepConfirmed(previewed, new Set(['data.csv', 'Data.csv'])).map((x) => `${x.path}:${x.action}`),
      ['Data.csv:deleteRemote', 'data.csv:upload'],
    );
  });

  it('never replaces, sends or deletes the ignore rules unasked; a first copy from the server comes down', () => {
    const rules = (
      b: Record<string, [string, string]>,
      l: Record<string, string>,
      r: Record<string, RemoteEntry>,
      direction: 'pull' | 'push' | 'both',
      onConflict: 'ask' | 'mine' | 'theirs' = 'ask',
    ) => plan(classify(base(b), local(l), remote(r)), { direction, onConflict, propagateDeletes: true }).map((x) => `${x.path}:${x.action}`);
    const was: Record<string, [string, string]> = { '.datagrokignore': ['e', 'h'] };
    assert.deepEqual(rules(was, { '.datagrokignore': 'h' }, { '.datagrokignore': { etag: 'E', hash: 'x' } }, 'pull'), ['.datagrokignore:conflict']);
    assert.deepEqual(rules(was, { '.datagrokignore': 'H' }, { '.datagrokignore': { etag: 'e' } }, 'push'), ['.datagrokignore:conflict']);
    assert.deepEqual(rules(was, { '.datagrokignore': 'h' }, {}, 'both'), ['.datagrokignore:conflict']);
    assert.deepEqual(rules({}, { '.DatagrokIgnore': 'n' }, {}, 'push'), ['.DatagrokIgnore:conflict']);
    assert.deepEqual(rules({}, {}, { '.datagrokignore': { etag: 'n', hash: 'q' } }, 'pull'), ['.datagrokignore:download']);
    // The user's explicit choice is the yes.
    assert.deepEqual(rules(was, { '.datagrokignore': 'h' }, { '.datagrokignore': { etag: 'E', hash: 'x' } }, 'pull', 'theirs'), ['.datagrokignore:download']);
    assert.deepEqual(rules(was, { '.datagrokignore': 'H' }, { '.datagrokignore': { etag: 'e' } }, 'push', 'mine'), ['.datagrokignore:upload']);
    const why = plan(classify(base(was), local({ '.datagrokignore': 'h' }), remote({ '.datagrokignore': { etag: 'E', hash: 'x' } })), {
      direction: 'pull',
      onConflict: 'ask',
      propagateDeletes: false,
    })[0].reason;
    assert.match(why ?? '', /ignore rules changed; they decide what leaves this machine/);
  });

  it('on a case-insensitive folder, names that differ only in case are a conflict, never an overwrite', () => {
    const two = classify(base({}), local({}), remote({ 'Case.txt': { etag: 'a', hash: 'a' }, 'case.txt': { etag: 'b', hash: 'b' } }), { caseInsensitive: true });
    const actions = plan(two, { direction: 'pull', onConflict: 'ask', propagateDeletes: false });
    assert.deepEqual(
      actions.map((x) => `${x.path}:${x.action}`),
      ['Case.txt:conflict', 'case.txt:conflict'],
    );
    assert.match(actions[0].reason ?? '', /differs only in case from case\.txt/);
    const overLocal = classify(base({}), local({ 'README.md': 'h' }), remote({ 'readme.md': { etag: 'a', hash: 'a' } }), { caseInsensitive: true });
    assert.deepEqual(
      plan(overLocal, { direction: 'both', onConflict: 'ask', propagateDeletes: false }).map((x) => `${x.path}:${x.action}`),
      ['README.md:upload', 'readme.md:conflict'],
    );
    // A case-sensitive folder holds both; a confirmed case-only rename deletes the old name first.
    assert.deepEqual(
      plan(classify(base({}), local({}), remote({ 'Case.txt': { etag: 'a', hash: 'a' }, 'case.txt': { etag: 'b', hash: 'b' } })), {
        direction: 'pull',
        onConflict: 'ask',
        propagateDeletes: false,
      }).map((x) => x.action),
      ['download', 'download'],
    );
    const renamed = classify(base({ 'Data.csv': ['e', 'h'] }), local({ 'Data.csv': 'h' }), remote({ 'data.csv': { etag: 'f', hash: 'h' } }), { caseInsensitive: true });
    assert.deepEqual(
      plan(renamed, { direction: 'pull', onConflict: 'ask', propagateDeletes: true }).map((x) => `${x.path}:${x.action}`),
      ['Data.csv:deleteLocal', 'data.csv:download'],
    );
  });

  it('a name no file here can have is a skip with its reason', () => {
    const long = 'x'.repeat(300);
    const actions = plan(classify(base({}), local({}), remote({ [long]: { etag: 'a', hash: 'a' }, ok: { etag: 'b', hash: 'b' } })), {
      direction: 'pull',
      onConflict: 'ask',
      propagateDeletes: false,
    });
    assert.deepEqual(
      actions.map((x) => x.action),
      ['download', 'skip'],
    );
    assert.match(actions[1].reason ?? '', /not written here: its name .* is 300 bytes long/);
  });
});

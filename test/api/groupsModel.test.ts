// The platform's groups model against the emulator over real HTTP: what the Groups view loads, with
// how many requests, and that Retry reloads only what failed. No editor: src/platform imports no vscode.
import * as assert from 'node:assert/strict';
import { GroupsModel } from '../../src/platform/groups/model';
import { IDS, useEmulator } from './harness';

describe('platform: groups model', () => {
  const h = useEmulator();
  const model = () => new GroupsModel({ client: async () => h.client, currentUser: () => h.client.currentUserGroup() });

  it('loads the user context, my groups and pending requests in 4 requests (user, memberships all + admin, the one administered group), then from its cache', async () => {
    const m = model();
    const ctx = await m.userContext();
    assert.equal(ctx.me.name, 'demo');
    assert.ok(ctx.adminOf.has(IDS.chemists) && !ctx.adminOf.has(IDS.dataScience));
    assert.ok(ctx.memberOf.has(IDS.dataScience) && !ctx.memberOf.has(IDS.biologists));
    const mine = await m.myMemberships();
    assert.ok(mine.some((r) => r.group.id === IDS.chemists && r.isAdmin));
    const pending = await m.pendingRequests();
    assert.deepEqual(pending.requests.map((r) => r.id).sort(), [IDS.bobToChemists, IDS.carolToChemists].sort());
    assert.deepEqual(pending.failures, []);
    // current user, memberships (all + admin), requests of the one administered group
    assert.equal(h.log.length, 4, h.log.map((e) => `${e.method} ${e.path}`).join('\n'));
    await m.userContext();
    await m.pendingRequests();
    assert.equal(h.log.length, 4, 'answered from the cache');
  });

  it('fires the pending count and a change on reload; a write reloads', async () => {
    const m = model();
    const counts: number[] = [];
    let changes = 0;
    m.onDidLoadPendingRequests((n) => counts.push(n));
    m.onDidChange(() => changes++);
    await m.pendingRequests();
    await m.resolveRequest(IDS.bobToChemists, true);
    assert.equal(changes, 1);
    const after = await m.pendingRequests();
    assert.deepEqual(
      after.requests.map((r) => r.id),
      [IDS.carolToChemists],
    );
    assert.deepEqual(counts, [2, 1]);
  });

  it('a failed load is not kept: asking again reloads only what failed', async () => {
    const m = model();
    await m.userContext();
    await h.fault({ match: `GET /api/public/v1/groups/${IDS.chemists}/requests`, status: 500, count: 1 });
    const failed = await m.pendingRequests();
    assert.equal(failed.failures.length, 1);
    assert.equal(failed.failures[0].group.id, IDS.chemists);
    const before = h.log.length;
    const retried = await m.pendingRequests();
    assert.deepEqual(retried.failures, []);
    assert.equal(retried.requests.length, 2);
    assert.deepEqual(
      h.log.slice(before).map((e) => `${e.method} ${e.path}`),
      [`GET /public/v1/groups/${IDS.chemists}/requests`],
    );
  });

  it('a lookup with a signal is not cached, so aborting it reaches no other caller', async () => {
    const m = model();
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(m.lookup('Chem', controller.signal), (e: Error) => /cancelled/i.test(e.message));
    assert.deepEqual(
      (await m.lookup('Chem')).map((g) => g.name),
      ['Chemists'],
    );
  });
});

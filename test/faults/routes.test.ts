// A server upgraded (or rolled back) while the editor stays open: the route remembered for it answers
// "no such route", and the client probes the other generation once instead of failing for good.
import * as assert from 'node:assert/strict';
import { useEmulator } from '../api/harness';

describe('faults: a remembered route goes away', () => {
  const h = useEmulator();

  it('a function call moves to the current route when the reference one disappears, and back', async () => {
    assert.equal(await h.client.callFunction('Demo:Add', { a: 1, b: 2 }), 3);
    assert.equal(h.client.routes.functionCall, 'reference');
    await h.config({ generation: 'new' });
    assert.equal(await h.client.callFunction('Demo:Add', { a: 2, b: 2 }), 4);
    assert.equal(h.client.routes.functionCall, 'current');
    await h.config({ generation: 'old' });
    assert.equal(await h.client.callFunction('Demo:Add', { a: 3, b: 2 }), 5);
    assert.equal(h.client.routes.functionCall, 'reference');
  });

  it('the current user moves to the other route once, then stays there', async () => {
    await h.client.currentUserGroup();
    assert.equal(h.client.routes.currentUserGroup, 'reference');
    await h.config({ generation: 'new' });
    const before = h.log.length;
    assert.equal((await h.client.currentUserGroup()).name, 'demo');
    assert.equal(h.log.length - before, 2, 'the remembered route, then the other one');
    await h.client.currentUserGroup();
    assert.equal(h.log.length - before, 3, 'then only the route that works');
  });

  it('when both routes are missing the error hints at /api', async () => {
    await h.client.currentUserGroup();
    await h.fault({ match: '/user/group', status: 404, count: 1 });
    await h.fault({ match: '/groups/current', status: 404, count: 1 });
    await h.fails(h.client.currentUserGroup(), 'notFound');
  });
});

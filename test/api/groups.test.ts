import * as assert from 'node:assert/strict';
import { IDS, useEmulator } from './harness';

describe('groups', () => {
  const h = useEmulator();

  it('lists, searches and looks up groups', async () => {
    const all = await h.client.listGroups();
    assert.ok(all.some((g) => g.name === 'Chemists'));
    const chem = await h.client.listGroups({ text: 'name contains "chem"' });
    assert.ok(chem.length >= 1 && chem.every((g) => /chem/i.test(g.name)), JSON.stringify(chem.map((g) => g.name)));
    const withChildren = await h.client.listGroups({ include: 'children.child' });
    const chemists = withChildren.find((g) => g.id === IDS.chemists);
    assert.ok(chemists?.children?.some((r) => r.child?.name === 'alice'));
    const found = await h.client.lookupGroups('Scien');
    assert.deepEqual(
      found.map((g) => g.name),
      ['Data Science'],
    );
  });

  it('reads a group, its members and memberships', async () => {
    const g = await h.client.getGroup(IDS.chemists);
    assert.equal(g.name, 'Chemists');
    const members = await h.client.getMembers(IDS.chemists);
    assert.deepEqual(members.map((m) => m.name).sort(), ['alice', 'demo']);
    const admins = await h.client.getMembers(IDS.chemists, true);
    assert.deepEqual(
      admins.map((m) => m.name),
      ['demo'],
    );
    const memberships = await h.client.getMemberships(IDS.demo);
    assert.ok(memberships.some((m) => m.name === 'Developers'));
    const adminOf = await h.client.getMemberships(IDS.demo, true);
    assert.deepEqual(
      adminOf.map((m) => m.name),
      ['Chemists'],
    );
  });

  it('creates a group', async () => {
    const created = await h.client.createGroup({ name: 'Física & Química', description: 'test' }, true);
    assert.equal(created.name, 'Física & Química');
    assert.ok(created.id);
    const again = await h.client.getGroup(created.id);
    assert.equal(again.description, 'test');
    await h.fails(h.client.createGroup({ name: 'Chemists' }), 'server', /already exists/);
    await h.fails(h.client.createGroup({ name: ' ' }), 'badInput');
  });

  it('requests membership, lists, approves and denies requests', async () => {
    const request = await h.client.requestMembership(IDS.biologists);
    assert.equal(request.to?.id, IDS.biologists);
    assert.ok(request.approved === null || request.approved === undefined);
    await h.fails(h.client.requestMembership(IDS.developers), 'server', /already a member/);

    const pending = await h.client.listRequests(IDS.chemists);
    assert.deepEqual(pending.map((r) => r.id).sort(), [IDS.bobToChemists, IDS.carolToChemists]);
    await h.client.approveRequest(IDS.bobToChemists);
    await h.client.denyRequest(IDS.carolToChemists);
    const after = await h.client.listRequests(IDS.chemists);
    assert.equal(after.find((r) => r.id === IDS.bobToChemists)?.approved, true);
    assert.equal(after.find((r) => r.id === IDS.carolToChemists)?.approved, false);
    assert.ok(after.every((r) => typeof r.resolutionDate === 'string'));
    const members = await h.client.getMembers(IDS.chemists);
    assert.ok(members.some((m) => m.name === 'bob'));
    assert.ok(!members.some((m) => m.name === 'carol'));
    // Resolving a resolved request is an error, also when the server answers it with 200 + ApiError.
    await h.fails(h.client.approveRequest(IDS.bobToChemists), 'server', /already approved/);
    await h.config({ errorsAsHttp200: true, apiErrorHeader: false });
    await h.fails(h.client.denyRequest(IDS.bobToChemists), 'server', /already approved/);
    await h.fails(h.client.listRequests(IDS.dataScience), 'forbidden', /not an administrator/);
  });

  describe('two generations of servers', () => {
    it('reads the current user on a reference-only server with one request', async () => {
      await h.config({ generation: 'old' });
      const me = await h.client.currentUserGroup();
      assert.equal(me.id, IDS.demo);
      assert.deepEqual(
        (await h.requests()).map((r) => r.path),
        ['/api/public/v1/user/group'],
      );
      assert.equal(h.client.routes.currentUserGroup, 'reference');
    });

    it('falls back to /groups/current on a current server and remembers it', async () => {
      await h.config({ generation: 'new' });
      assert.equal((await h.client.currentUserGroup()).id, IDS.demo);
      assert.equal((await h.client.currentUserGroup()).id, IDS.demo);
      assert.deepEqual(
        (await h.requests()).map((r) => `${r.path} ${r.status}`),
        ['/api/public/v1/user/group 404', '/api/public/v1/groups/current 200', '/api/public/v1/groups/current 200'],
      );
      assert.equal(h.client.routes.currentUserGroup, 'current');
    });

    it('falls back for function calls (one POST per route) and remembers it', async () => {
      await h.config({ generation: 'new' });
      assert.equal(await h.client.callFunction('Demo:Add', { a: 1, b: 2 }), 3);
      assert.equal(await h.client.callFunction('Demo:Add', { a: 2, b: 2 }), 4);
      assert.deepEqual(
        (await h.requests()).map((r) => `${r.method} ${r.path} ${r.status}`),
        ['POST /api/public/v1/Demo.Add/call 404', 'POST /api/public/v1/functions/Demo.Add/call 200', 'POST /api/public/v1/functions/Demo.Add/call 200'],
      );
    });

    it('uses the reference function route on an old server', async () => {
      await h.config({ generation: 'old' });
      assert.equal(await h.client.callFunction('Demo:Add', { a: 1, b: 2 }), 3);
      await h.fails(h.client.callFunction('Demo:Nope', {}), 'notFound', /Function Demo:Nope not found/);
      assert.deepEqual(
        (await h.requests()).map((r) => `${r.path} ${r.status}`),
        ['/api/public/v1/Demo.Add/call 200', '/api/public/v1/Demo.Nope/call 404'],
      );
    });

    it('does not fall back on an ApiError 404 about a missing function', async () => {
      await h.fails(h.client.callFunction('Demo:Missing', {}), 'notFound', /Function Demo:Missing not found/);
      assert.equal((await h.requests()).length, 1);
    });
  });
});

// Pure pieces of the group menus and membership requests: the save body that adds or removes one member,
// the stable order of requests, and which sign-in failures keep the key box open.
import * as assert from 'node:assert/strict';
import { DatagrokError } from '../../src/api/errors';
import type { Group, MembershipRequest } from '../../src/api/types';
import { keyToRetry } from '../../src/connection/signInFailure';
import { memberSaveBody } from '../../src/platform/groups/members';
import { requestNote, sortRequests } from '../../src/platform/groups/model';

const g = (id: string, name: string, friendlyName?: string): Group => ({ id, name, friendlyName });
const team = { ...g('t', 'Chemists', 'Chemistry'), description: 'Med chem' };
const alice = g('a', 'alice');
const bob = g('b', 'bob');
const allUsers = g('all', 'All users');

describe('group members: the save body', () => {
  const members = [
    { group: alice, isAdmin: true },
    { group: bob, isAdmin: false },
  ];
  const memberships = [{ group: allUsers, isAdmin: false }];
  const pairs = (body: Group) => ({
    children: body.children?.map((r) => `${r.parent?.id}>${r.child?.id}${r.isAdmin ? ' admin' : ''}`),
    parents: body.parents?.map((r) => `${r.parent?.id}>${r.child?.id}${r.isAdmin ? ' admin' : ''}`),
  });

  it('keeps every current relation (both sides, admin flags) and adds the new member', () => {
    const body = memberSaveBody(team, members, memberships, { add: g('c', 'carol'), isAdmin: false });
    assert.equal(body.id, 't');
    assert.equal(body.name, 'Chemists');
    assert.equal(body.friendlyName, 'Chemistry');
    assert.equal(body.description, 'Med chem');
    assert.deepEqual(pairs(body), { children: ['t>a admin', 't>b', 't>c'], parents: ['all>t'] });
  });

  it('removes exactly one member, and changes an existing member to admin without a duplicate', () => {
    assert.deepEqual(pairs(memberSaveBody(team, members, memberships, { remove: bob })).children, ['t>a admin']);
    assert.deepEqual(pairs(memberSaveBody(team, members, memberships, { add: bob, isAdmin: true })).children, ['t>a admin', 't>b admin']);
  });
});

describe('membership requests: a stable order', () => {
  const r = (id: string, from: Group, to: Group): MembershipRequest => ({ id, from, to });
  it('orders by group, then requester, then id, whatever order the server sent', () => {
    const list = [r('3', bob, team), r('1', g('z', 'zed'), allUsers), r('2', alice, team), r('0', alice, team)];
    assert.deepEqual(
      sortRequests(list).map((x) => x.id),
      ['1', '0', '2', '3'],
    );
    assert.deepEqual(
      sortRequests([...list].reverse()).map((x) => x.id),
      ['1', '0', '2', '3'],
    );
  });
});

describe('sign-in: which failures keep the key box open', () => {
  it('a rejected key or one that cannot be a key: retry in the box; anything else closes it', () => {
    assert.ok(keyToRetry(new DatagrokError('unauthorized', 'rejected')));
    assert.ok(keyToRetry(new DatagrokError('badInput', 'not a key')));
    for (const kind of ['network', 'notFound', 'timeout', 'cancelled', 'unavailable'] as const) assert.ok(!keyToRetry(new DatagrokError(kind, kind)), kind);
    assert.ok(!keyToRetry(new Error('other')));
  });
});

describe('membership requests: the note in the tooltip', () => {
  const bobG = g('b', 'bob', 'Bob Brown');
  const chem = g('t', 'Chemists');
  it("keeps the requester's own words, drops a note that only restates who asks to join what", () => {
    assert.equal(requestNote({ id: '1', from: bobG, to: chem, description: 'Bob Brown wants to join Chemists' }), undefined);
    assert.equal(requestNote({ id: '1', from: bobG, to: chem, description: 'bob asks to join chemists' }), undefined);
    assert.equal(requestNote({ id: '1', from: bobG, to: chem, description: 'I run the NMR lab' }), 'I run the NMR lab');
    assert.equal(requestNote({ id: '1', from: bobG, to: chem, description: '  ' }), undefined);
    assert.equal(requestNote({ id: '1', from: bobG, to: chem }), undefined);
  });
});

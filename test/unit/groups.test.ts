import * as assert from 'node:assert/strict';
import type { Group, MembershipRequest } from '../../src/api/types';
import { Emitter } from '../../src/platform/events';
import { displayName, groupName, isPending, sortGroups } from '../../src/platform/groups/model';

const g = (id: string, name: string, friendlyName?: string): Group => ({ id, name, friendlyName }) as Group;

describe('groups: names and order', () => {
  it('groupName is the server name, displayName what a person reads', () => {
    const alice = g('1', 'alice', 'Alice Smith');
    assert.equal(groupName(alice), 'alice');
    assert.equal(displayName(alice), 'Alice Smith');
    assert.equal(displayName(g('2', 'bob')), 'bob');
    assert.equal(groupName(g('3', '', 'Only friendly')), 'Only friendly');
    assert.equal(groupName(undefined), 'unknown');
    assert.equal(displayName(undefined), 'unknown');
  });

  it('sorts by name ignoring case and accents, numbers naturally, and drops duplicates', () => {
    const sorted = sortGroups([g('a', 'beta'), g('b', 'Alpha'), g('c', 'group 10'), g('d', 'group 9'), g('a', 'beta again'), g('e', 'Éclair')]);
    assert.deepEqual(
      sorted.map((x) => x.name),
      ['Alpha', 'beta', 'Éclair', 'group 9', 'group 10'],
    );
  });

  it('a request is pending until approved, denied or resolved', () => {
    const r = (o: Partial<MembershipRequest>) => ({ id: 'r', ...o }) as MembershipRequest;
    assert.ok(isPending(r({})));
    assert.ok(isPending(r({ approved: null as unknown as boolean })));
    assert.ok(!isPending(r({ approved: true })));
    assert.ok(!isPending(r({ approved: false })));
    assert.ok(!isPending(r({ resolutionDate: '2026-01-01' })));
  });
});

describe('platform events', () => {
  it('calls every listener, survives one that throws, and stops after dispose', () => {
    const e = new Emitter<number>();
    const heard: number[] = [];
    e.event(() => {
      throw new Error('bad listener');
    });
    const sub = e.event((n) => heard.push(n));
    e.fire(1);
    sub.dispose();
    e.fire(2);
    assert.deepEqual(heard, [1]);
    e.event((n) => heard.push(n * 10));
    e.dispose();
    e.fire(3);
    assert.deepEqual(heard, [1]);
  });
});

// Adding and removing a member. The API reference has no member route: the one way it offers is saving
// the group with its relations (`POST /public/v1/groups?saveRelations=true`, a body with the existing
// group's id), as Datagrok's own Python client adds members. What the server does with relations a body
// leaves out is not documented, so the body always carries the group's full current relations (both
// sides, admin flags kept) with only the one change, and the result is read back: a change the server
// did not make is reported, never claimed.
import { DatagrokError } from '../../api/errors';
import type { CallOptions, Group, GroupRelation } from '../../api/types';
import type { DatagrokApi } from '../../api/datagrokApi';

/** A group a user or group is related to (a member of, or holding as a member), with the admin flag. */
export interface RelatedGroup {
  group: Group;
  isAdmin: boolean;
}

export type MemberChange = { add: Group; isAdmin: boolean } | { remove: Group };

function relation(parent: string, child: string, isAdmin: boolean): GroupRelation {
  // No relation id: the listings carry none, and the server knows its relations by their two groups.
  return { isAdmin, parent: { id: parent }, child: { id: child } } as GroupRelation;
}

function name(g: Group): string {
  return g.friendlyName || g.name || g.id;
}

/** The save body: the group's fields, its current members and memberships, with the one change made. */
export function memberSaveBody(group: Group, members: readonly RelatedGroup[], memberships: readonly RelatedGroup[], change: MemberChange): Group {
  const children = members.filter((m) => !('remove' in change && m.group.id === change.remove.id) && !('add' in change && m.group.id === change.add.id));
  const childRelations = children.map((m) => relation(group.id, m.group.id, m.isAdmin));
  if ('add' in change) childRelations.push(relation(group.id, change.add.id, change.isAdmin));
  return {
    id: group.id,
    name: group.name,
    friendlyName: group.friendlyName,
    description: group.description,
    children: childRelations,
    parents: memberships.map((m) => relation(m.group.id, group.id, m.isAdmin)),
  };
}

async function related(list: (admin?: boolean) => Promise<Group[]>): Promise<RelatedGroup[]> {
  const [all, admin] = await Promise.all([list(), list(true)]);
  const adminIds = new Set(admin.map((g) => g.id));
  const seen = new Set<string>();
  return [...all, ...admin].filter((g) => !seen.has(g.id) && seen.add(g.id)).map((group) => ({ group, isAdmin: adminIds.has(group.id) }));
}

/** Makes the change on the server and checks it took; rejects with what the server kept otherwise. */
export async function changeMembers(api: DatagrokApi, groupId: string, change: MemberChange, options: CallOptions = {}): Promise<Group> {
  const [group, members, memberships] = await Promise.all([
    api.getGroup(groupId, options),
    related((admin) => api.getMembers(groupId, admin, options)),
    related((admin) => api.getMemberships(groupId, admin, options)),
  ]);
  const who = 'add' in change ? change.add : change.remove;
  const already = members.find((m) => m.group.id === who.id);
  if ('add' in change && already && already.isAdmin === change.isAdmin) {
    throw new DatagrokError('badInput', `${name(who)} is already ${change.isAdmin ? 'an administrator' : 'a member'} of ${name(group)}: nothing was changed.`);
  }
  if ('remove' in change && !already) {
    throw new DatagrokError('badInput', `${name(who)} is not a member of ${name(group)}: nothing was changed.`);
  }
  await api.createGroup(memberSaveBody(group, members, memberships, change), true, options);
  const after = await related((admin) => api.getMembers(groupId, admin, options));
  const now = after.find((m) => m.group.id === who.id);
  const took = 'add' in change ? now?.isAdmin === change.isAdmin : now === undefined;
  if (!took) {
    const what = 'add' in change ? `add ${name(who)} to` : `remove ${name(who)} from`;
    throw new DatagrokError(
      'server',
      `The server accepted the save but did not ${what} ${name(group)}. This server may not change members through the API; do it in Datagrok's web interface (Groups).`,
    );
  }
  return group;
}

// Saving and deleting groups. `POST /public/v1/groups` is "save or update" on real servers: a body with an
// existing group's id updates that group (the grok CLI and the new Python client add and remove members
// this way), a body with an unknown client-made id creates the group under that id.
import type { Group, GroupRelation } from '../../src/api/types';
import { BOTH, type GroupStore } from './groups';
import { ApiError, isUuid } from './http';

interface WantedRelation {
  id?: string;
  parentId: string;
  childId: string;
  isAdmin: boolean;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The relations a body asks for; `self` stands for the group being saved. */
function wantedRelations(store: GroupStore, list: unknown, side: 'child' | 'parent', self: string): WantedRelation[] | undefined {
  if (list === undefined || list === null) return undefined;
  if (!Array.isArray(list)) throw new ApiError(400, `${side === 'child' ? 'children' : 'parents'} must be a list of relations`);
  return (list as Array<Partial<GroupRelation> | null>).map((rel) => {
    const other = side === 'child' ? rel?.child : rel?.parent;
    const otherId = text(other?.id);
    if (!otherId) throw new ApiError(400, `Each ${side === 'child' ? 'child' : 'parent'} relation needs ${side}.id`);
    const otherRecord = store.get(otherId).id;
    const id = text(rel?.id);
    return {
      id: id && isUuid(id) ? id.toLowerCase() : undefined,
      parentId: side === 'child' ? self : otherRecord,
      childId: side === 'child' ? otherRecord : self,
      isAdmin: rel?.isAdmin === true,
    };
  });
}

/** Makes the group's relations on one side exactly `wanted` (added, removed, admin flag updated). */
function replaceRelations(store: GroupStore, groupId: string, side: 'child' | 'parent', wanted: WantedRelation[]): void {
  const current = side === 'child' ? store.childrenOf(groupId) : store.parentsOf(groupId);
  const key = (r: { parentId: string; childId: string }) => `${r.parentId}/${r.childId}`;
  const keep = new Set(wanted.map(key));
  for (const r of [...current]) if (!keep.has(key(r))) store.unrelate(r);
  for (const w of wanted) {
    const existing = store.childrenOf(w.parentId).find((r) => r.childId === w.childId);
    if (existing) existing.isAdmin = w.isAdmin;
    else store.relate(w.parentId, w.childId, w.isAdmin, w.id);
  }
}

export function saveGroup(store: GroupStore, body: unknown, saveRelations: boolean): Group {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(400, 'Request body must be a Group object');
  const input = body as Partial<Group> & Record<string, unknown>;
  const rawId = text(input.id);
  if (rawId !== undefined && rawId !== '' && !isUuid(rawId)) throw new ApiError(400, `Group id "${rawId}" is not a UUID`);
  const id = rawId ? rawId.toLowerCase() : undefined;
  const existing = id ? store.groups.get(id) : undefined;
  const name = (text(input.name) ?? existing?.name ?? '').trim();
  if (!name) throw new ApiError(400, 'Group name is required');
  const clash = [...store.groups.values()].find((g) => g.id !== id && g.name.toLowerCase() === name.toLowerCase());
  if (clash) throw new ApiError(400, `Group "${name}" already exists`);
  if (existing && !store.isAdminOf(existing.id)) throw new ApiError(403, `You are not an administrator of ${existing.name}`);
  if (existing?.personal && name !== existing.name) throw new ApiError(400, `${existing.name} is a user: its group cannot be renamed`);

  // Check every relation before changing anything, so a bad body leaves the store as it was.
  const selfId = existing?.id ?? id ?? '';
  const children = saveRelations ? wantedRelations(store, input.children, 'child', selfId) : undefined;
  const parents = saveRelations ? wantedRelations(store, input.parents, 'parent', selfId) : undefined;

  let group = existing;
  if (group) {
    group.name = name;
    group.friendlyName = text(input.friendlyName) || (text(input.name) ? name : group.friendlyName);
    if (typeof input.description === 'string') group.description = input.description;
    if (typeof input.hidden === 'boolean') group.hidden = input.hidden;
    group.updatedOn = new Date().toISOString();
  } else {
    group = store.add({ name, friendlyName: text(input.friendlyName) || name, description: text(input.description) ?? '', hidden: input.hidden === true }, id);
  }
  const gid = group.id;
  const bind = (list: WantedRelation[] | undefined) => list?.map((w) => ({ ...w, parentId: w.parentId || gid, childId: w.childId || gid }));
  const wantedChildren = bind(children);
  const wantedParents = bind(parents);
  if (wantedChildren) replaceRelations(store, gid, 'child', wantedChildren);
  if (wantedParents) replaceRelations(store, gid, 'parent', wantedParents);
  // The creator of a new group administers it.
  if (!existing) store.relate(gid, store.currentUserId, true);
  return store.toJson(group, BOTH);
}

/** DELETE /public/v1/groups/{id}: admins of a (non-personal) group only. */
export function deleteGroup(store: GroupStore, idOrName: string): void {
  const g = store.get(idOrName);
  if (g.personal) throw new ApiError(400, `${g.name} is a user's personal group and cannot be deleted`);
  if (!store.isAdminOf(g.id)) throw new ApiError(403, `You are not an administrator of ${g.name}`);
  store.remove(g.id);
}

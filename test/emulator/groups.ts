// Groups and their relations, in memory, and their JSON (saving: group-save.ts; requests: memberships.ts).
import { randomUUID } from 'node:crypto';
import type { Group, GroupRelation } from '../../src/api/types';
import { ApiError } from './http';
import { searchMatches } from './search';

export interface GroupRecord {
  id: string;
  name: string;
  friendlyName: string;
  description: string;
  createdOn: string;
  updatedOn: string;
  personal: boolean;
  hidden: boolean;
}

export interface RelationRecord {
  id: string;
  parentId: string;
  childId: string;
  isAdmin: boolean;
}

export interface RequestRecord {
  id: string;
  fromId: string;
  toId: string;
  description: string;
  createdOn: string;
  updatedOn: string;
  approved: boolean | null;
  resolutionDate: string | null;
}

/**
 * Which relation lists to put into a group's JSON. No `include` query → both (the grok CLI reads a group's
 * members from the plain record); `include=children…` / `parents…` → only the lists named.
 */
export interface Include {
  children?: boolean;
  parents?: boolean;
}

export const BOTH: Include = { children: true, parents: true };

export function parseInclude(include: string | null): Include {
  if (include === null || include.trim() === '') return BOTH;
  const parts = include.split(',').map((s) => s.trim().toLowerCase());
  return {
    children: parts.some((p) => p === 'children' || p.startsWith('children.')),
    parents: parts.some((p) => p === 'parents' || p.startsWith('parents.')),
  };
}

export class GroupStore {
  readonly groups = new Map<string, GroupRecord>();
  relations: RelationRecord[] = [];
  /** Relations indexed by parent id and by child id (large servers: --groups 10000). */
  private readonly byParent = new Map<string, RelationRecord[]>();
  private readonly byChild = new Map<string, RelationRecord[]>();
  requests: RequestRecord[] = [];
  currentUserId = '';

  clear(): void {
    this.groups.clear();
    this.relations = [];
    this.byParent.clear();
    this.byChild.clear();
    this.requests = [];
  }

  add(g: Partial<GroupRecord> & { name: string }, id: string = randomUUID()): GroupRecord {
    const now = new Date().toISOString();
    const record: GroupRecord = {
      id,
      name: g.name,
      friendlyName: g.friendlyName ?? g.name,
      description: g.description ?? '',
      createdOn: g.createdOn ?? now,
      updatedOn: g.updatedOn ?? g.createdOn ?? now,
      personal: g.personal ?? false,
      hidden: g.hidden ?? false,
    };
    this.groups.set(id, record);
    return record;
  }

  /** Adds (or updates) the relation "child is a member of parent". */
  relate(parentId: string, childId: string, isAdmin = false, id: string = randomUUID()): RelationRecord {
    const existing = this.childrenOf(parentId).find((r) => r.childId === childId);
    if (existing) {
      existing.isAdmin = existing.isAdmin || isAdmin;
      return existing;
    }
    const relation = { id, parentId, childId, isAdmin };
    this.relations.push(relation);
    if (!this.byParent.has(parentId)) this.byParent.set(parentId, []);
    if (!this.byChild.has(childId)) this.byChild.set(childId, []);
    this.byParent.get(parentId)!.push(relation);
    this.byChild.get(childId)!.push(relation);
    return relation;
  }

  childrenOf(parentId: string): RelationRecord[] {
    return this.byParent.get(parentId) ?? [];
  }

  parentsOf(childId: string): RelationRecord[] {
    return this.byChild.get(childId) ?? [];
  }

  /** By id, or by name / friendly name (real servers find `groups/{idOrName}` both ways). */
  get(idOrName: string): GroupRecord {
    const g = this.findByIdOrName(idOrName);
    if (!g) throw new ApiError(404, `Group ${idOrName} not found`);
    return g;
  }

  /** By id, name or friendly name (case-insensitive), as sharing accepts. */
  findByIdOrName(idOrName: string): GroupRecord | undefined {
    const direct = this.groups.get(idOrName) ?? this.groups.get(idOrName.toLowerCase());
    if (direct) return direct;
    const lower = idOrName.toLowerCase();
    for (const g of this.groups.values()) if (g.name.toLowerCase() === lower) return g;
    for (const g of this.groups.values()) if (g.friendlyName.toLowerCase() === lower) return g;
    return undefined;
  }

  isAdminOf(groupId: string, userGroupId = this.currentUserId): boolean {
    return this.childrenOf(groupId).some((r) => r.childId === userGroupId && r.isAdmin);
  }

  isMemberOf(groupId: string, userGroupId = this.currentUserId): boolean {
    return this.childrenOf(groupId).some((r) => r.childId === userGroupId);
  }

  /** The plain record, without relation lists (the sides of a relation are these). */
  plain(g: GroupRecord): Group {
    return { ...g };
  }

  /**
   * A group with its relation lists. Every relation carries both `parent` and `child` (the new Python
   * client reads both keys in either list), each the plain group record.
   */
  toJson(g: GroupRecord, include: Include = BOTH): Group {
    const json: Group = this.plain(g);
    if (include.children) json.children = this.childrenOf(g.id).map((r) => this.relationJson(r));
    if (include.parents) json.parents = this.parentsOf(g.id).map((r) => this.relationJson(r));
    return json;
  }

  relationJson(r: RelationRecord): GroupRelation {
    return { id: r.id, isAdmin: r.isAdmin, parent: this.plain(this.get(r.parentId)), child: this.plain(this.get(r.childId)) };
  }

  list(text: string | null, include: Include): Group[] {
    const all = [...this.groups.values()];
    const hits = text?.trim() ? all.filter((g) => searchMatches(text, g)) : all;
    return hits.map((g) => this.toJson(g, include));
  }

  lookup(query: string | null): Group[] {
    const q = (query ?? '').toLowerCase();
    return [...this.groups.values()].filter((g) => g.name.toLowerCase().includes(q) || g.friendlyName.toLowerCase().includes(q)).map((g) => this.toJson(g));
  }

  /** `admin` absent → every member; true → admin members only; false → non-admin members only. */
  members(id: string, admin: boolean | undefined): Group[] {
    return this.childrenOf(this.get(id).id)
      .filter((r) => admin === undefined || r.isAdmin === admin)
      .map((r) => this.plain(this.get(r.childId)));
  }

  /** `admin` absent → every membership; true → where this group is admin; false → where it is not. */
  memberships(id: string, admin: boolean | undefined): Group[] {
    return this.parentsOf(this.get(id).id)
      .filter((r) => admin === undefined || r.isAdmin === admin)
      .map((r) => this.plain(this.get(r.parentId)));
  }

  /** Removes one relation (both indexes). */
  unrelate(relation: RelationRecord): void {
    const drop = (list: RelationRecord[] | undefined) => {
      const i = list?.indexOf(relation) ?? -1;
      if (list && i >= 0) list.splice(i, 1);
    };
    drop(this.relations);
    drop(this.byParent.get(relation.parentId));
    drop(this.byChild.get(relation.childId));
  }

  /** Removes a group with its relations and the membership requests to or from it. */
  remove(id: string): void {
    for (const r of [...this.childrenOf(id), ...this.parentsOf(id)]) this.unrelate(r);
    this.byParent.delete(id);
    this.byChild.delete(id);
    this.requests = this.requests.filter((r) => r.toId !== id && r.fromId !== id);
    this.groups.delete(id);
  }
}

// Groups, their relations and membership requests, in memory.
import { randomUUID } from 'node:crypto';
import type { Group, GroupRelation, MembershipRequest } from '../../src/api/types';
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
  approved: boolean | null;
  resolutionDate: string | null;
}

/** Which relations to put into a group's JSON (the `include` query: `children.child`, `parents.parent`). */
export interface Include {
  children?: boolean;
  childObjects?: boolean;
  parents?: boolean;
  parentObjects?: boolean;
}

export function parseInclude(include: string | null): Include {
  const parts = (include ?? '').split(',').map((s) => s.trim().toLowerCase());
  return {
    children: parts.some((p) => p === 'children' || p.startsWith('children.')),
    childObjects: parts.includes('children.child'),
    parents: parts.some((p) => p === 'parents' || p.startsWith('parents.')),
    parentObjects: parts.includes('parents.parent'),
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

  get(id: string): GroupRecord {
    const g = this.groups.get(id.toLowerCase()) ?? this.groups.get(id);
    if (!g) throw new ApiError(404, `Group ${id} not found`);
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

  toJson(g: GroupRecord, include: Include = {}): Group {
    const json: Group = { ...g };
    if (include.children) {
      json.children = this.childrenOf(g.id).map((r) => this.relationJson(r, include.childObjects ? 'child' : 'childRef'));
    }
    if (include.parents) {
      json.parents = this.parentsOf(g.id).map((r) => this.relationJson(r, include.parentObjects ? 'parent' : 'parentRef'));
    }
    return json;
  }

  private relationJson(r: RelationRecord, side: 'child' | 'childRef' | 'parent' | 'parentRef'): GroupRelation {
    const json: GroupRelation = { id: r.id, isAdmin: r.isAdmin };
    if (side === 'child') json.child = this.toJson(this.get(r.childId));
    if (side === 'childRef') json.child = { id: r.childId, name: this.get(r.childId).name };
    if (side === 'parent') json.parent = this.toJson(this.get(r.parentId));
    if (side === 'parentRef') json.parent = { id: r.parentId, name: this.get(r.parentId).name };
    return json;
  }

  list(text: string | null, include: Include): Group[] {
    const all = [...this.groups.values()];
    const hits = text?.trim() ? all.filter((g) => searchMatches(text, g)) : all;
    return hits.map((g) => this.toJson(g, include));
  }

  lookup(query: string | null): Group[] {
    const q = (query ?? '').toLowerCase();
    return [...this.groups.values()]
      .filter((g) => g.name.toLowerCase().includes(q) || g.friendlyName.toLowerCase().includes(q))
      .map((g) => this.toJson(g));
  }

  members(id: string, adminOnly: boolean): Group[] {
    return this.childrenOf(this.get(id).id)
      .filter((r) => !adminOnly || r.isAdmin)
      .map((r) => this.toJson(this.get(r.childId)));
  }

  memberships(id: string, adminOnly: boolean): Group[] {
    return this.parentsOf(this.get(id).id)
      .filter((r) => !adminOnly || r.isAdmin)
      .map((r) => this.toJson(this.get(r.parentId)));
  }

  /** POST /groups: the creator becomes an admin member; relations in the body kept only with saveRelations. */
  create(body: unknown, saveRelations: boolean): Group {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(400, 'Request body must be a Group object');
    const input = body as Partial<Group>;
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (!name) throw new ApiError(400, 'Group name is required');
    if ([...this.groups.values()].some((g) => g.name.toLowerCase() === name.toLowerCase())) {
      throw new ApiError(400, `Group "${name}" already exists`);
    }
    const relations: Array<[string, string, boolean]> = [];
    if (saveRelations) {
      for (const rel of input.parents ?? []) {
        const parentId = rel?.parent?.id;
        if (typeof parentId !== 'string') throw new ApiError(400, 'Each parent relation needs parent.id');
        relations.push([this.get(parentId).id, '', rel.isAdmin === true]);
      }
      for (const rel of input.children ?? []) {
        const childId = rel?.child?.id;
        if (typeof childId !== 'string') throw new ApiError(400, 'Each child relation needs child.id');
        relations.push(['', this.get(childId).id, rel.isAdmin === true]);
      }
    }
    const g = this.add({
      name,
      friendlyName: typeof input.friendlyName === 'string' && input.friendlyName ? input.friendlyName : name,
      description: typeof input.description === 'string' ? input.description : '',
      hidden: input.hidden === true,
    });
    for (const [parentId, childId, isAdmin] of relations) this.relate(parentId || g.id, childId || g.id, isAdmin);
    this.relate(g.id, this.currentUserId, true);
    return this.toJson(g, { children: true, childObjects: true, parents: true, parentObjects: true });
  }

  requestMembership(groupId: string): MembershipRequest {
    const to = this.get(groupId);
    if (to.personal) throw new ApiError(400, `${to.name} is a user, not a group you can join`);
    if (this.isMemberOf(to.id)) throw new ApiError(400, `You are already a member of ${to.name}`);
    const pending = this.requests.find((r) => r.toId === to.id && r.fromId === this.currentUserId && r.approved === null);
    if (pending) return this.requestJson(pending);
    const from = this.get(this.currentUserId);
    const request: RequestRecord = {
      id: randomUUID(),
      fromId: from.id,
      toId: to.id,
      description: `${from.friendlyName} wants to join ${to.friendlyName}`,
      createdOn: new Date().toISOString(),
      approved: null,
      resolutionDate: null,
    };
    this.requests.push(request);
    return this.requestJson(request);
  }

  requestsOf(groupId: string): MembershipRequest[] {
    const g = this.get(groupId);
    if (!this.isAdminOf(g.id)) throw new ApiError(403, `You are not an administrator of ${g.name}`);
    return this.requests.filter((r) => r.toId === g.id).map((r) => this.requestJson(r));
  }

  resolve(requestId: string, approve: boolean): void {
    const request = this.requests.find((r) => r.id === requestId.toLowerCase() || r.id === requestId);
    if (!request) throw new ApiError(404, `Membership request ${requestId} not found`);
    const to = this.get(request.toId);
    if (!this.isAdminOf(to.id)) throw new ApiError(403, `You are not an administrator of ${to.name}`);
    if (request.approved !== null) throw new ApiError(400, `Membership request ${requestId} is already ${request.approved ? 'approved' : 'denied'}`);
    request.approved = approve;
    request.resolutionDate = new Date().toISOString();
    if (approve) this.relate(to.id, request.fromId, false);
  }

  requestJson(r: RequestRecord): MembershipRequest {
    const json: MembershipRequest = {
      id: r.id,
      description: r.description,
      approved: r.approved,
      from: this.toJson(this.get(r.fromId)),
      to: this.toJson(this.get(r.toId)),
    };
    if (r.resolutionDate) json.resolutionDate = r.resolutionDate;
    return json;
  }
}

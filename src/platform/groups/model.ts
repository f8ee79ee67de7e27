// The groups data the tree shows, loaded from the active server on demand and cached until a refresh.
// A Model: owns data and fires change events; never calls window.*. Failed loads are not cached, so
// asking again (Retry) reloads only what failed.
import { DatagrokError } from '../../api/errors';
import type { Group, MembershipRequest } from '../../api/types';
import type { DatagrokApi } from '../../api/datagrokApi';
import { markLoaded } from '../answerAge';
import { Emitter } from '../events';
import { changeMembers, type RelatedGroup } from './members';

export type { RelatedGroup };
import { displayName, groupName } from './names';
import { PerSession, scopeOf, type ServerSession } from '../session';

export { displayName, groupName };

/** Who the user is and which groups they belong to / administer, for badges and context values. */
export interface UserContext {
  me: Group;
  memberOf: ReadonlySet<string>;
  adminOf: ReadonlySet<string>;
}

/** A group in a relation list, with whether the relation carries admin rights. */
export interface PendingRequests {
  requests: MembershipRequest[];
  /** Groups whose requests could not be read, with why. */
  failures: { group: Group; error: unknown }[];
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Sorted by name (case-insensitive), duplicates dropped: tree items need unique ids. */
export function sortGroups(groups: readonly Group[]): Group[] {
  const seen = new Set<string>();
  return groups.filter((g) => g && typeof g.id === 'string' && !seen.has(g.id) && seen.add(g.id)).sort((a, b) => collator.compare(groupName(a), groupName(b)));
}

/** Requests in a fixed order (group, then requester, then id): a handled one keeps its place among the rest. */
export function sortRequests(requests: readonly MembershipRequest[]): MembershipRequest[] {
  const key = (r: MembershipRequest) => [groupName(r.to), displayName(r.from), r.id];
  return [...requests].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < x.length; i++) {
      const c = collator.compare(x[i], y[i]);
      if (c !== 0) return c;
    }
    return 0;
  });
}

/**
 * The requester's own note on a request, or undefined when it only restates who asks to join what (a
 * server may fill the note with "<user> wants to join <group>"): the tooltip already says that.
 */
export function requestNote(r: MembershipRequest): string | undefined {
  const note = r.description?.trim();
  if (!note) return undefined;
  const lower = note.toLowerCase();
  const names = (g: Group | undefined) => [g?.name, g?.friendlyName].filter((n): n is string => !!n).map((n) => n.toLowerCase());
  const restates = names(r.from).some((n) => lower.includes(n)) && names(r.to).some((n) => lower.includes(n)) && note.length <= 120;
  return restates ? undefined : note;
}

/** A request handled in this session: it stays listed, in its place, until the user refreshes. */
export interface HandledRequest {
  request: MembershipRequest;
  outcome: 'approved' | 'denied' | 'undone';
}

export function isPending(r: MembershipRequest): boolean {
  return (r.approved === undefined || r.approved === null) && !r.resolutionDate;
}

async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      try {
        results[i] = { status: 'fulfilled', value: await work(items[i]) };
      } catch (reason) {
        results[i] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** What the model knows of one session: answers per key, and the requests handled in it. */
interface GroupsState {
  cache: Map<string, Promise<unknown>>;
  handled: Map<string, HandledRequest>;
}

export class GroupsModel {
  private readonly state: PerSession<GroupsState>;
  private readonly changed = new Emitter<void>();
  private readonly pendingLoaded = new Emitter<number>();

  /** Fires after a change made through the model (create, request, approve, deny) or a reload. */
  readonly onDidChange = this.changed.event;
  /** Fires with the number of pending requests the user can act on, each time they are loaded. */
  readonly onDidLoadPendingRequests = this.pendingLoaded.event;

  constructor(private readonly connection: ServerSession) {
    this.state = new PerSession(connection, () => ({ cache: new Map(), handled: new Map() }));
  }

  private get handledRequests(): Map<string, HandledRequest> {
    return this.state.get().handled;
  }

  /** Drops every cached answer and tells listeners to ask again; `forgetHandled` also drops the handled requests. */
  reload(forgetHandled = false): void {
    const state = this.state.get();
    state.cache = new Map();
    if (forgetHandled) state.handled = new Map();
    this.changed.fire();
  }

  /** The requests handled in this session (to one group, or all), listed in place until a refresh. */
  handled(groupId?: string): HandledRequest[] {
    return [...this.handledRequests.values()].filter((h) => groupId === undefined || h.request.to?.id === groupId);
  }

  /** How a request was handled in this session, if it was. */
  handledRequest(requestId: string): HandledRequest | undefined {
    return this.handledRequests.get(requestId);
  }

  /** Loads once per key until a reload; a failed load, or an answer `keep` refuses, is not kept. */
  private cached<T>(key: string, load: (api: DatagrokApi) => Promise<T>, keep?: (value: T) => boolean): Promise<T> {
    const { cache } = this.state.get();
    const hit = cache.get(key) as Promise<T> | undefined;
    if (hit) return hit;
    const loading = scopeOf(this.connection).guard(
      this.connection
        .client()
        .then(load)
        .then((value) => markLoaded(value)),
    );
    cache.set(key, loading);
    const evict = () => {
      if (cache.get(key) === loading) cache.delete(key);
    };
    loading.then((value) => {
      if (keep && !keep(value)) evict();
    }, evict);
    return loading;
  }

  /** From the user's memberships, the same (cached) answer "My groups" and the pending requests use. */
  userContext(): Promise<UserContext> {
    return this.cached('context', async () => {
      const me = await this.connection.currentUser();
      const memberships = await this.memberships(me.id);
      return {
        me,
        memberOf: new Set(memberships.map((r) => r.group.id)),
        adminOf: new Set(memberships.filter((r) => r.isAdmin).map((r) => r.group.id)),
      };
    });
  }

  /** Every group of the server, sorted by name. */
  allGroups(): Promise<Group[]> {
    return this.cached('all', async (api) => sortGroups(await api.listGroups()));
  }

  /**
   * The server's own lookup (a substring match on names), sorted by name. With a signal (a lookup the
   * caller may abort, e.g. as the user types) it is not cached, so an abort never reaches another caller.
   */
  lookup(text: string, signal?: AbortSignal): Promise<Group[]> {
    if (signal) return scopeOf(this.connection).guard(this.connection.client().then(async (api) => sortGroups(await api.lookupGroups(text, { signal }))));
    return this.cached(`lookup:${text}`, async (api) => sortGroups(await api.lookupGroups(text)));
  }

  /** The groups the user is a member of, with whether they administer each. */
  async myMemberships(): Promise<RelatedGroup[]> {
    const ctx = await this.userContext();
    return this.memberships(ctx.me.id);
  }

  members(groupId: string): Promise<RelatedGroup[]> {
    return this.cached(`members:${groupId}`, async (api) => {
      const [all, admins] = await Promise.all([api.getMembers(groupId), api.getMembers(groupId, true)]);
      const adminIds = new Set(admins.map((g) => g.id));
      return sortGroups(all).map((group) => ({ group, isAdmin: adminIds.has(group.id) }));
    });
  }

  /**
   * The groups a group belongs to. The listing's groups carry no admin flag, so it takes two requests:
   * all memberships and the admin ones (a group only the admin listing names is kept too).
   */
  memberships(groupId: string): Promise<RelatedGroup[]> {
    return this.cached(`memberships:${groupId}`, async (api) => {
      const [all, admin] = await Promise.all([api.getMemberships(groupId), api.getMemberships(groupId, true)]);
      const adminIds = new Set(admin.map((g) => g.id));
      return sortGroups([...all, ...admin]).map((group) => ({ group, isAdmin: adminIds.has(group.id) }));
    });
  }

  /** Pending requests to one group (needs admin rights on it). */
  requestsTo(groupId: string): Promise<MembershipRequest[]> {
    return this.cached(`requests:${groupId}`, async (api) => (await api.listRequests(groupId)).filter(isPending));
  }

  /** Pending requests to every group the user administers. */
  pendingRequests(): Promise<PendingRequests> {
    // Per-group failures resolve rather than reject, so an answer with failures is not kept: Retry asks
    // again, and the groups that answered stay cached in requestsTo, so only the failed ones are reloaded.
    return this.cached(
      'pending',
      async () => {
        const administered = (await this.myMemberships()).filter((r) => r.isAdmin).map((r) => r.group);
        const settled = await mapLimit(administered, 6, (g) => this.requestsTo(g.id));
        const result: PendingRequests = { requests: [], failures: [] };
        settled.forEach((s, i) => {
          if (s.status === 'fulfilled') result.requests.push(...s.value);
          else result.failures.push({ group: administered[i], error: s.reason });
        });
        this.pendingLoaded.fire(result.requests.length);
        return result;
      },
      (result) => result.failures.length === 0,
    );
  }

  async createGroup(group: { name: string; friendlyName?: string; description?: string }, signal?: AbortSignal): Promise<Group> {
    const api = await this.connection.client();
    const created = await api.createGroup(group, false, { signal });
    this.reload();
    return created;
  }

  async requestMembership(groupId: string, signal?: AbortSignal): Promise<MembershipRequest> {
    const api = await this.connection.client();
    const request = await api.requestMembership(groupId, { signal });
    this.reload();
    return request;
  }

  /** Approves or denies; given the request, it stays listed in its place as handled until a refresh. */
  async resolveRequest(requestId: string, approve: boolean, signal?: AbortSignal, request?: MembershipRequest): Promise<void> {
    const api = await this.connection.client();
    await (approve ? api.approveRequest(requestId, { signal }) : api.denyRequest(requestId, { signal }));
    if (request) this.handledRequests.set(requestId, { request, outcome: approve ? 'approved' : 'denied' });
    this.reload();
  }

  /**
   * Undoes an approve made in this session: removes the requester from the group again. The request
   * itself stays approved on the server (the API cannot reopen a request); the requester may ask again.
   */
  async undoApprove(requestId: string, signal?: AbortSignal): Promise<MembershipRequest> {
    const handled = this.handledRequests.get(requestId);
    if (handled?.outcome !== 'approved' || !handled.request.from || !handled.request.to) {
      throw new DatagrokError('badInput', 'Undo works on a request approved in this session (before a refresh): there is nothing to undo for this one.');
    }
    const { from, to } = handled.request;
    await changeMembers(await this.connection.client(), to.id, { remove: from }, { signal });
    this.handledRequests.set(requestId, { request: handled.request, outcome: 'undone' });
    this.reload();
    return handled.request;
  }

  /** Adds a user or group to a group the user administers (as a member or an administrator). */
  async addMember(groupId: string, member: Group, isAdmin: boolean, signal?: AbortSignal): Promise<Group> {
    const group = await changeMembers(await this.connection.client(), groupId, { add: member, isAdmin }, { signal });
    this.reload();
    return group;
  }

  /** Removes a member from a group the user administers (the user themself: leaving it). */
  async removeMember(groupId: string, member: Group, signal?: AbortSignal): Promise<Group> {
    const group = await changeMembers(await this.connection.client(), groupId, { remove: member }, { signal });
    this.reload();
    return group;
  }

  getGroup(groupId: string, signal?: AbortSignal): Promise<Group> {
    return this.connection.client().then((api) => api.getGroup(groupId, { signal }));
  }

  dispose(): void {
    this.changed.dispose();
    this.pendingLoaded.dispose();
  }
}

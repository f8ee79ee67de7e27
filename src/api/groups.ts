// Groups and membership requests.
import { badInput } from './errors';
import type { Transport } from './http';
import { idSegment } from './names';
import type { RouteChoice } from './routes';
import { list, one } from './shapes';
import type { CallOptions, Group, MembershipRequest } from './types';

export function listGroups(http: Transport, query: { include?: string; text?: string } = {}, options: CallOptions = {}): Promise<Group[]> {
  return list(http, {
    method: 'GET',
    path: '/public/v1/groups',
    query: { include: query.include || undefined, text: query.text || undefined },
    what: 'Listing groups',
    signal: options.signal,
  });
}

export function createGroup(http: Transport, group: Partial<Group> & { name: string }, saveRelations?: boolean, options: CallOptions = {}): Promise<Group> {
  const what = `Creating group ${group?.name ?? ''}`.trim();
  if (!group || typeof group !== 'object' || typeof group.name !== 'string' || group.name.trim() === '') {
    return Promise.reject(badInput('Creating a group failed: the group needs a name.'));
  }
  return one(http, {
    method: 'POST',
    path: '/public/v1/groups',
    query: { saveRelations },
    what,
    signal: options.signal,
    body: JSON.stringify(group),
    contentType: 'application/json',
  });
}

export function lookupGroups(http: Transport, query?: string, options: CallOptions = {}): Promise<Group[]> {
  return list(http, {
    method: 'GET',
    path: '/public/v1/groups/lookup',
    query: { query: query || undefined },
    what: 'Looking up groups',
    signal: options.signal,
  });
}

export function getGroup(http: Transport, id: string, options: CallOptions = {}): Promise<Group> {
  return one(http, { method: 'GET', path: `/public/v1/groups/${idSegment(id, 'group ID')}`, what: `Reading group ${id}`, signal: options.signal });
}

export function getMembers(http: Transport, id: string, admin?: boolean, options: CallOptions = {}): Promise<Group[]> {
  return list(http, {
    method: 'GET',
    path: `/public/v1/groups/${idSegment(id, 'group ID')}/members`,
    query: { admin },
    what: `Listing members of group ${id}`,
    signal: options.signal,
  });
}

export function getMemberships(http: Transport, id: string, admin?: boolean, options: CallOptions = {}): Promise<Group[]> {
  return list(http, {
    method: 'GET',
    path: `/public/v1/groups/${idSegment(id, 'group ID')}/memberships`,
    query: { admin },
    what: `Listing memberships of group ${id}`,
    signal: options.signal,
  });
}

export function requestMembership(http: Transport, groupId: string, options: CallOptions = {}): Promise<MembershipRequest> {
  return one(http, {
    method: 'POST',
    path: `/public/v1/groups/${idSegment(groupId, 'group ID')}/request`,
    what: `Requesting membership of group ${groupId}`,
    signal: options.signal,
  });
}

export function listRequests(http: Transport, groupId: string, options: CallOptions = {}): Promise<MembershipRequest[]> {
  return list(http, {
    method: 'GET',
    path: `/public/v1/groups/${idSegment(groupId, 'group ID')}/requests`,
    what: `Listing membership requests of group ${groupId}`,
    signal: options.signal,
  });
}

export function resolveRequest(http: Transport, requestId: string, decision: 'approve' | 'deny', options: CallOptions = {}): Promise<void> {
  return http.empty({
    method: 'POST',
    path: `/public/v1/groups/requests/${idSegment(requestId, 'request ID')}/${decision}`,
    what: `${decision === 'approve' ? 'Approving' : 'Denying'} membership request ${requestId}`,
    signal: options.signal,
  });
}

export function currentUserGroup(http: Transport, route: RouteChoice, options: CallOptions = {}): Promise<Group> {
  // When neither generation's route exists, the URL is almost certainly wrong: the 404 carries the /api hint.
  return route.run((r, afterMissing) =>
    one<Group>(http, {
      method: 'GET',
      path: r === 0 ? '/public/v1/user/group' : '/public/v1/groups/current',
      what: 'Reading the current user',
      signal: options.signal,
      hintMissingApi: afterMissing || undefined,
    }),
  );
}

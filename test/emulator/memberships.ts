// Membership requests: asking to join a group, listing a group's requests, approving and denying them.
import { randomUUID } from 'node:crypto';
import type { MembershipRequest } from '../../src/api/types';
import type { GroupStore, RequestRecord } from './groups';
import { ApiError } from './http';

/** The JSON of a request: `createdOn`, `updatedOn`, and `resolutionDate` null while pending (as real servers send it). */
export function requestJson(store: GroupStore, r: RequestRecord): MembershipRequest & { createdOn: string; updatedOn: string } {
  return {
    id: r.id,
    description: r.description,
    createdOn: r.createdOn,
    updatedOn: r.updatedOn,
    approved: r.approved,
    resolutionDate: r.resolutionDate,
    from: store.plain(store.get(r.fromId)),
    to: store.plain(store.get(r.toId)),
  };
}

export function requestMembership(store: GroupStore, groupId: string): MembershipRequest {
  const to = store.get(groupId);
  if (to.personal) throw new ApiError(400, `${to.name} is a user, not a group you can join`);
  if (store.isMemberOf(to.id)) throw new ApiError(400, `You are already a member of ${to.name}`);
  const pending = store.requests.find((r) => r.toId === to.id && r.fromId === store.currentUserId && r.approved === null);
  if (pending) return requestJson(store, pending);
  const from = store.get(store.currentUserId);
  const now = new Date().toISOString();
  const request: RequestRecord = {
    id: randomUUID(),
    fromId: from.id,
    toId: to.id,
    description: `${from.friendlyName} wants to join ${to.friendlyName}`,
    createdOn: now,
    updatedOn: now,
    approved: null,
    resolutionDate: null,
  };
  store.requests.push(request);
  return requestJson(store, request);
}

export function requestsOf(store: GroupStore, groupId: string): MembershipRequest[] {
  const g = store.get(groupId);
  if (!store.isAdminOf(g.id)) throw new ApiError(403, `You are not an administrator of ${g.name}`);
  return store.requests.filter((r) => r.toId === g.id).map((r) => requestJson(store, r));
}

export function resolveRequest(store: GroupStore, requestId: string, approve: boolean): void {
  const request = store.requests.find((r) => r.id === requestId.toLowerCase() || r.id === requestId);
  if (!request) throw new ApiError(404, `Membership request ${requestId} not found`);
  const to = store.get(request.toId);
  if (!store.isAdminOf(to.id)) throw new ApiError(403, `You are not an administrator of ${to.name}`);
  if (request.approved !== null) throw new ApiError(400, `Membership request ${requestId} is already ${request.approved ? 'approved' : 'denied'}`);
  request.approved = approve;
  request.resolutionDate = new Date().toISOString();
  request.updatedOn = request.resolutionDate;
  if (approve) store.relate(to.id, request.fromId, false);
}

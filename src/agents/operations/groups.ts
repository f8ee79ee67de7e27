// Groups: find them, list the pending membership requests the user can act on, approve or deny one.
import { badInput } from '../../api/errors';
import { hostOf } from '../../api/names';
import type { Group, MembershipRequest } from '../../api/types';
import { displayName, groupName } from '../../platform/groups/model';
import type { Confirmation, OperationContext } from './context';
import { cacheNote } from './freshness';
import { bool, clip, type Input, json, optionalText, text } from './inputs';

const brief = (g: Group) => ({
  id: g.id,
  name: groupName(g),
  friendlyName: g.friendlyName,
  personal: g.personal || undefined,
  description: g.description ? clip(g.description) : undefined,
});

export async function listGroups(ctx: OperationContext, input: Input): Promise<string> {
  const started = Date.now();
  const query = optionalText(input, 'query');
  if (query) {
    const found = await ctx.groups.lookup(query);
    return json({ query, groups: found.slice(0, 100).map(brief), ...cacheNote(found, started) });
  }
  const mine = await ctx.groups.myMemberships();
  return json({ memberOf: mine.map((r) => ({ ...brief(r.group), admin: r.isAdmin })), ...cacheNote(mine, started) });
}

const requestBrief = (r: MembershipRequest) => ({ id: r.id, from: displayName(r.from), group: displayName(r.to), groupId: r.to?.id, note: r.description });

export async function listPendingRequests(ctx: OperationContext): Promise<string> {
  ctx.groups.reload();
  const pending = await ctx.groups.pendingRequests();
  return json({
    pending: pending.requests.map(requestBrief),
    unreadable: pending.failures.length
      ? pending.failures.map((f) => ({ group: displayName(f.group), error: f.error instanceof Error ? f.error.message : String(f.error) }))
      : undefined,
  });
}

async function findRequest(ctx: OperationContext, input: Input): Promise<{ request: MembershipRequest; approve: boolean }> {
  const id = text(input, 'request');
  const approve = bool(input, 'approve');
  const pending = await ctx.groups.pendingRequests();
  const request = pending.requests.find((r) => r.id === id);
  if (!request) {
    throw badInput(`No pending membership request ${id} to a group you administer: list them with datagrok_listPendingRequests.`);
  }
  return { request, approve };
}

export async function confirmResolve(ctx: OperationContext, input: Input): Promise<Confirmation> {
  const { request, approve } = await findRequest(ctx, input);
  const api = await ctx.client();
  const who = displayName(request.from);
  const group = displayName(request.to);
  return approve
    ? { title: `Approve ${who} joining ${group}?`, message: `Approve the request of **${who}** to join **${group}** on ${hostOf(api.baseUrl)}: ${who} becomes a member.` }
    : { title: `Deny ${who} joining ${group}?`, message: `Deny the request of **${who}** to join **${group}** on ${hostOf(api.baseUrl)}.` };
}

export async function resolveRequest(ctx: OperationContext, input: Input, signal?: AbortSignal): Promise<string> {
  const { request, approve } = await findRequest(ctx, input);
  await ctx.groups.resolveRequest(request.id, approve, signal);
  return json({ request: request.id, from: displayName(request.from), group: displayName(request.to), approved: approve });
}

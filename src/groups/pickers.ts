// Palette prompts of the groups feature: a group to join (looked up on the server as you type) and a
// pending request to approve or deny.
import type * as vscode from 'vscode';
import type { Group, MembershipRequest } from '../api/types';
import { UserCancelled } from '../core/commands';
import { displayName, type GroupsModel, groupName } from '../platform/groups/model';
import { pickGroupsByLookup } from '../ui/groupLookup';
import { pickLoading } from '../ui/loadingPick';
import { BACK } from '../ui/quickSteps';

/** Group names: what the server would reject or what would be unreadable in the tree. */
export function groupNameProblem(name: string): string | undefined {
  const t = name.trim();
  if (t === '') return 'Type a name for the group, e.g. "Chemists".';
  if (t.length > 100) return `The name is ${t.length} characters long; use at most 100.`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(t)) return 'The name must not contain control characters (tabs, line breaks).';
  if (/[/\\]/.test(t)) return 'The name must not contain "/" or "\\".';
  return undefined;
}

/** Asks for a group to join, using the server's lookup as the user types. */
export async function pickGroupToJoin(model: GroupsModel, host: string): Promise<Group> {
  const [group] = await pickGroupsByLookup({
    title: 'Datagrok: Request Membership',
    placeholder: `Type part of a group name to look it up on ${host}`,
    lookup: async (text, signal) => {
      const [ctx, groups] = await Promise.all([model.userContext(), model.lookup(text, signal)]);
      return groups.filter((g) => !g.personal && g.id !== ctx.me.id && !ctx.memberOf.has(g.id)).slice(0, 200);
    },
    noMatch: (text) => `No group you could join matches "${text}"`,
  });
  return group;
}

interface RequestItem extends vscode.QuickPickItem {
  request: MembershipRequest;
}

/** Asks which pending request to act on: the pick shows at once and fills when the requests are read. */
export async function pickPendingRequest(model: GroupsModel, verb: 'Approve' | 'Deny', host: string): Promise<MembershipRequest> {
  const picked = await pickLoading<RequestItem>({
    title: `Datagrok: ${verb} Membership Request`,
    what: 'the pending membership requests',
    server: host,
    placeholder: `The request to ${verb.toLowerCase()}`,
    ignoreFocusOut: false,
    empty: 'No pending membership requests to the groups you administer.',
    load: async () => {
      const { requests, failures } = await model.pendingRequests();
      // Nothing to offer and a group that could not be read: that is what to say (with Retry).
      if (requests.length === 0 && failures.length > 0) {
        const first = failures[0];
        throw new Error(`Could not read the requests to ${groupName(first.group)}: ${first.error instanceof Error ? first.error.message : String(first.error)}`);
      }
      return requests.map((r) => ({ label: displayName(r.from), description: `to ${groupName(r.to)}`, detail: r.description || undefined, request: r }));
    },
  });
  if (picked === BACK) throw new UserCancelled();
  return picked.request;
}

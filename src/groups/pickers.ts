// Palette prompts of the groups feature: a group to join (looked up on the server as you type) and a
// pending request to approve or deny.
import * as vscode from 'vscode';
import type { Group, MembershipRequest } from '../api/types';
import { UserCancelled } from '../core/commands';
import { displayName, type GroupsModel, groupName } from '../platform/groups/model';
import { pickGroupsByLookup } from '../ui/groupLookup';

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

/** Asks which pending request to act on; undefined when there is none. */
export async function pickPendingRequest(model: GroupsModel, verb: 'Approve' | 'Deny'): Promise<MembershipRequest | undefined> {
  const { requests } = await model.pendingRequests();
  if (requests.length === 0) return undefined;
  const picked = await vscode.window.showQuickPick(
    requests.map((r) => ({
      label: displayName(r.from),
      description: `to ${groupName(r.to)}`,
      detail: r.description || undefined,
      request: r,
    })),
    { title: `Datagrok: ${verb} Membership Request`, placeHolder: `The request to ${verb.toLowerCase()}`, matchOnDescription: true },
  );
  if (!picked) throw new UserCancelled();
  return picked.request;
}

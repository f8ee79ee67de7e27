// Palette prompts of the groups commands: a group to join (looked up on the server as you type) and a
// pending request to approve or deny.
import * as vscode from 'vscode';
import type { Group, MembershipRequest } from '../api/types';
import { UserCancelled } from '../core/commands';
import { type GroupsModel, groupName } from './groupsModel';

interface GroupItem extends vscode.QuickPickItem {
  group?: Group;
}

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
export function pickGroupToJoin(model: GroupsModel, host: string): Promise<Group> {
  return new Promise<Group>((resolve, reject) => {
    const pick = vscode.window.createQuickPick<GroupItem>();
    pick.title = 'Datagrok: Request Membership';
    pick.placeholder = `Type part of a group name to look it up on ${host}`;
    pick.matchOnDescription = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let query = 0;
    let settled = false;
    const lookup = (text: string) => {
      const mine = ++query;
      if (timer) clearTimeout(timer);
      if (text.trim() === '') {
        pick.items = [];
        pick.busy = false;
        return;
      }
      pick.busy = true;
      timer = setTimeout(async () => {
        try {
          const [ctx, groups] = await Promise.all([model.userContext(), model.lookup(text.trim())]);
          if (mine !== query) return;
          const joinable = groups.filter((g) => !g.personal && g.id !== ctx.me.id && !ctx.memberOf.has(g.id));
          pick.items = joinable.length
            ? joinable.slice(0, 200).map((g) => ({
                label: g.name,
                description: g.friendlyName && g.friendlyName !== g.name ? g.friendlyName : undefined,
                detail: g.description || undefined,
                group: g,
              }))
            : [{ label: `No group you could join matches "${text.trim()}"`, alwaysShow: true }];
        } catch (e) {
          if (mine !== query) return;
          pick.items = [{ label: `$(error) ${e instanceof Error ? e.message : String(e)}`, alwaysShow: true }];
        } finally {
          if (mine === query) pick.busy = false;
        }
      }, 250);
    };
    pick.onDidChangeValue(lookup);
    pick.onDidAccept(() => {
      const group = pick.selectedItems[0]?.group;
      if (!group) return;
      settled = true;
      resolve(group);
      pick.hide();
    });
    pick.onDidHide(() => {
      if (timer) clearTimeout(timer);
      pick.dispose();
      if (!settled) reject(new UserCancelled());
    });
    pick.show();
  });
}

/** Asks which pending request to act on; undefined when there is none. */
export async function pickPendingRequest(model: GroupsModel, verb: 'Approve' | 'Deny'): Promise<MembershipRequest | undefined> {
  const { requests } = await model.pendingRequests();
  if (requests.length === 0) return undefined;
  const picked = await vscode.window.showQuickPick(
    requests.map((r) => ({
      label: r.from?.friendlyName || groupName(r.from),
      description: `wants to join ${groupName(r.to)}`,
      detail: r.description || undefined,
      request: r,
    })),
    { title: `Datagrok: ${verb} Membership Request`, placeHolder: `The request to ${verb.toLowerCase()}`, matchOnDescription: true },
  );
  if (!picked) throw new UserCancelled();
  return picked.request;
}

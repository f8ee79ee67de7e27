// The group menu's commands: Open in Browser, Copy Name, Add Member and Leave (administrators), and
// Undo of an approve. Members change by saving the group with its relations (src/platform/groups/members.ts).
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import type { Group, MembershipRequest } from '../api/types';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { displayName, groupName } from '../platform/groups/model';
import { pickGroupsByLookup } from '../ui/groupLookup';
import type { GroupsView } from './commands';
import { GroupNode, RequestNode } from './nodes';

function text(options: object | undefined, key: string, command: string): string {
  const value = (options as Record<string, unknown> | undefined)?.[key];
  if (typeof value !== 'string' || value.trim() === '') throw badInput(`${command} needs { ${key} } (an ID).`);
  return value.trim();
}

/** The group a command works on: its tree item, or `{ groupId }` read from the server. */
async function targetGroup(g: GroupsView, inv: CommandInvocation<{ groupId: string }>, command: string): Promise<Group> {
  if (inv.arg instanceof GroupNode) return inv.arg.group;
  const groupId = text(inv.options, 'groupId', command);
  return inv.withProgress('Reading the group…', (_p, signal) => g.tree.model.getGroup(groupId, signal));
}

/**
 * The group's page in the web interface. The API gives a group no web address, so this is the server's
 * Groups view (`<origin>/groups`, Datagrok's documented address for it), where the group can be found.
 */
export function groupsPageUrl(baseUrl: string): string {
  return `${new URL(baseUrl).origin}/groups`;
}

/** datagrok.groups.openInBrowser: opens the server's Groups page; returns the address opened. */
export async function openGroupInBrowser(g: GroupsView, inv: CommandInvocation<{ groupId: string }>): Promise<string> {
  const group = inv.arg instanceof GroupNode ? inv.arg.group : undefined;
  if (!group && !inv.options) throw badInput('Open in Browser works on a group item, or with { groupId }.');
  const url = groupsPageUrl(g.services.connection.baseUrl());
  const opened = await vscode.env.openExternal(vscode.Uri.parse(url));
  if (!opened) throw badInput(`VS Code could not open ${url}.`);
  if (group) vscode.window.setStatusBarMessage(`Opened the Groups page of ${new URL(url).host}: look for ${groupName(group)} there`, 5000);
  return url;
}

/** datagrok.groups.copyName: copies the group's name (a user's login) and returns it. */
export async function copyGroupName(g: GroupsView, inv: CommandInvocation<{ groupId: string }>): Promise<string> {
  const group = await targetGroup(g, inv, 'datagrok.groups.copyName');
  const name = groupName(group);
  await vscode.env.clipboard.writeText(name);
  vscode.window.setStatusBarMessage(`Copied ${name}`, 3000);
  return name;
}

export interface AddMemberOptions {
  groupId: string;
  memberId: string;
  admin?: boolean;
}

/** datagrok.groups.addMember: a user or group picked by lookup (or `{ groupId, memberId, admin? }`); returns the group. */
export async function addMember(g: GroupsView, inv: CommandInvocation<AddMemberOptions>): Promise<Group> {
  const model = g.tree.model;
  let group: Group;
  let member: Group;
  let admin: boolean;
  if (inv.options && !(inv.arg instanceof GroupNode)) {
    const groupId = text(inv.options, 'groupId', 'datagrok.groups.addMember');
    const memberId = text(inv.options, 'memberId', 'datagrok.groups.addMember');
    if (inv.options.admin !== undefined && typeof inv.options.admin !== 'boolean') throw badInput('datagrok.groups.addMember: admin must be true or false.');
    admin = inv.options.admin === true;
    [group, member] = await inv.withProgress('Reading the group and the new member…', (_p, signal) =>
      Promise.all([model.getGroup(groupId, signal), model.getGroup(memberId, signal)]),
    );
  } else {
    group = await targetGroup(g, inv as CommandInvocation<never>, 'datagrok.groups.addMember');
    const title = `Datagrok: Add Member to ${groupName(group)} (1/2)`;
    // Read beside the first lookup, not before the pick shows.
    const members = model.members(group.id).then((list) => new Set(list.map((m) => m.group.id)));
    void members.catch(() => undefined); // a failure is the lookup's to show
    [member] = await pickGroupsByLookup({
      title,
      placeholder: 'Type part of a user or group name',
      lookup: async (t, signal) => {
        const [found, known] = await Promise.all([model.lookup(t, signal), members]);
        return found.filter((c) => c.id !== group.id && !known.has(c.id)).slice(0, 200);
      },
      noMatch: (t) => `No user or group outside ${groupName(group)} matches "${t}"`,
      log: g.services.log,
    });
    const role = await vscode.window.showQuickPick(
      [
        { label: '$(person) Member', admin: false },
        { label: '$(shield) Administrator', description: 'can add members and approve requests', admin: true },
      ],
      { title: `Datagrok: Add Member to ${groupName(group)} (2/2)`, placeHolder: `${displayName(member)} joins ${groupName(group)} as` },
    );
    if (!role) throw new UserCancelled();
    admin = role.admin;
  }
  const saved = await inv.withProgress(`Adding ${displayName(member)} to ${groupName(group)}…`, (_p, signal) => model.addMember(group.id, member, admin, signal));
  void vscode.window.showInformationMessage(`${displayName(member)} is now ${admin ? 'an administrator' : 'a member'} of ${groupName(group)}.`);
  return saved;
}

/** datagrok.groups.leave: leaves a group the user administers, after a yes (unless called with options). */
export async function leaveGroup(g: GroupsView, inv: CommandInvocation<{ groupId: string }>): Promise<undefined> {
  const model = g.tree.model;
  const group = await targetGroup(g, inv, 'datagrok.groups.leave');
  const [ctx, members] = await inv.withProgress(`Reading the members of ${groupName(group)}…`, () => Promise.all([model.userContext(), model.members(group.id)]));
  if (group.id === ctx.me.id) throw badInput('That is your own user: you cannot leave it.');
  const mine = members.find((m) => m.group.id === ctx.me.id);
  if (!mine) throw badInput(`You are not a direct member of ${groupName(group)}: nothing to leave.`);
  if (!mine.isAdmin) {
    throw badInput(`Only an administrator of ${groupName(group)} can change its members through the API: ask one of them to remove you, or leave it in Datagrok's web interface.`);
  }
  if (!members.some((m) => m.isAdmin && m.group.id !== ctx.me.id)) {
    throw badInput(`You are the only administrator of ${groupName(group)}: make another member an administrator first (Add Member), so someone can still manage it.`);
  }
  if (inv.interactive) {
    const yes = await vscode.window.showWarningMessage(
      `Leave ${groupName(group)}?`,
      { modal: true, detail: `You lose what the group gives its members. To come back, an administrator has to add you or approve a request.` },
      'Leave',
    );
    if (yes !== 'Leave') throw new UserCancelled();
  }
  await inv.withProgress(`Leaving ${groupName(group)}…`, (_p, signal) => model.removeMember(group.id, ctx.me, signal));
  void vscode.window.showInformationMessage(`You left ${groupName(group)}.`);
  return undefined;
}

/** datagrok.groups.undoApprove: the requester of an approved request (this session) leaves the group again. */
export async function undoApprove(g: GroupsView, inv: CommandInvocation<{ requestId: string }>): Promise<MembershipRequest> {
  const requestId = inv.arg instanceof RequestNode ? inv.arg.request.id : text(inv.options, 'requestId', 'datagrok.groups.undoApprove');
  const request = await inv.withProgress('Undoing the approve…', (_p, signal) => g.tree.model.undoApprove(requestId, signal));
  void vscode.window.showInformationMessage(
    `Undone: ${displayName(request.from)} is no longer a member of ${groupName(request.to)}. The request stays approved on the server (the API cannot reopen it); they can ask again.`,
  );
  return request;
}

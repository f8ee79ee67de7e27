// The groups commands: thin handlers over the GroupsModel and the tree, bound to their ids in
// register.ts. Errors go to the command layer.
import * as vscode from 'vscode';
import type { Group, MembershipRequest } from '../api/types';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { badInput } from '../api/errors';
import { optionalText } from '../core/options';
import type { Services } from '../services';
import { hostOf } from '../api/names';
import { displayName, groupName } from '../platform/groups/model';
import type { GroupsTreeProvider } from './groupsTree';
import { GroupsNode } from './node';
import { GroupNode, RequestNode } from './nodes';
import { groupNameProblem, pickGroupToJoin, pickPendingRequest } from './pickers';

export interface CreateGroupOptions {
  name: string;
  friendlyName?: string;
  description?: string;
}

function requiredId(options: object | undefined, key: string, command: string): string {
  const value = (options as Record<string, unknown> | undefined)?.[key];
  if (typeof value !== 'string' || value.trim() === '') throw badInput(`${command} needs { ${key} } (an ID).`);
  return value.trim();
}

async function askText(title: string, prompt: string, value = '', validate?: (v: string) => string | undefined): Promise<string> {
  const text = await vscode.window.showInputBox({ title, prompt, value, ignoreFocusOut: true, validateInput: validate });
  if (text === undefined) throw new UserCancelled();
  return text.trim();
}

function who(r: MembershipRequest | undefined): string {
  return r?.from ? displayName(r.from) : 'the requester';
}

/** What the groups commands work on: the services, the tree and its view. */
export interface GroupsView {
  readonly services: Services;
  readonly tree: GroupsTreeProvider;
  readonly view: vscode.TreeView<GroupsNode>;
}

function host(g: GroupsView): string {
  return hostOf(g.services.connection.baseUrl());
}

/** Reloads the tree; from an error item's Retry, only that part. */
export async function refreshGroups(g: GroupsView, inv: CommandInvocation<never>): Promise<void> {
  if (inv.arg instanceof GroupsNode) g.tree.retry(inv.arg);
  else g.tree.refresh();
}

export async function showMoreGroups(g: GroupsView, inv: CommandInvocation<never>): Promise<void> {
  if (inv.arg instanceof GroupsNode) g.tree.showMore(inv.arg);
}

export async function searchGroups(g: GroupsView, inv: CommandInvocation<{ text?: string }>): Promise<Group[]> {
  const model = g.tree.model;
  let text: string;
  if (inv.options) {
    text = optionalText(inv.options.text, 'text') ?? '';
  } else {
    text = await askText('Datagrok: Search Groups', `Part of a group name, looked up on ${host(g)} (empty clears the search)`, g.tree.search ?? '');
  }
  // Looked up first: a failed search leaves the tree as it was.
  const groups = text ? await inv.withProgress(`Looking up "${text}" on ${host(g)}…`, () => model.lookup(text)) : [];
  const section = g.tree.setSearch(text);
  if (!section) return [];
  if (inv.interactive) void g.view.reveal(section, { expand: true, focus: false, select: false }).then(undefined, () => undefined);
  return groups;
}

export async function createGroup(g: GroupsView, inv: CommandInvocation<CreateGroupOptions>): Promise<Group> {
  let group: CreateGroupOptions;
  if (inv.options) {
    const name = typeof inv.options.name === 'string' ? inv.options.name.trim() : '';
    const problem = typeof inv.options.name === 'string' ? groupNameProblem(name) : 'datagrok.groups.create needs { name }.';
    if (problem) throw badInput(problem);
    group = {
      name,
      friendlyName: optionalText(inv.options.friendlyName, 'friendlyName') || undefined,
      description: optionalText(inv.options.description, 'description') || undefined,
    };
  } else {
    const title = 'Datagrok: Create Group';
    const name = await askText(title, `The new group's name on ${host(g)}`, '', groupNameProblem);
    const friendlyName = await askText(title, 'Its friendly name, as people see it (Enter keeps the name)', name);
    const description = await askText(title, 'A description (optional)');
    group = { name, friendlyName: friendlyName || undefined, description: description || undefined };
  }
  const created = await inv.withProgress(`Creating group ${group.name}…`, (_p, signal) => g.tree.model.createGroup(group, signal));
  void vscode.window.showInformationMessage(`Created group ${created.name} on ${host(g)}.`);
  return created;
}

export async function requestMembership(g: GroupsView, inv: CommandInvocation<{ groupId: string }>): Promise<MembershipRequest> {
  let groupId: string;
  let name: string | undefined;
  if (inv.arg instanceof GroupNode) {
    if (!inv.arg.joinable) throw badInput(`You are already a member of ${inv.arg.group.name}, or it is a user rather than a group.`);
    groupId = inv.arg.group.id;
    name = inv.arg.group.name;
  } else if (inv.options) {
    groupId = requiredId(inv.options, 'groupId', 'datagrok.groups.requestMembership');
  } else {
    const group = await pickGroupToJoin(g.tree.model, host(g));
    groupId = group.id;
    name = group.name;
  }
  const request = await inv.withProgress(`Requesting membership of ${name ?? 'the group'}…`, (_p, signal) => g.tree.model.requestMembership(groupId, signal));
  const target = name ?? groupName(request.to);
  void vscode.window.showInformationMessage(`Requested membership of ${target}; an administrator of ${target} has to approve it.`);
  return request;
}

/** Whether an approve or deny asks first (`datagrok.groups.confirmApproveDeny`): deny only, by default. */
export function needsConfirmation(setting: unknown, approve: boolean): boolean {
  if (setting === 'never') return false;
  if (setting === 'always') return true;
  return !approve;
}

/**
 * Approves (or denies) a request: from its tree item, `{ requestId }`, or a pick of the pending ones.
 * The request stays listed in its place, marked, until a refresh (nothing shifts under the cursor); an
 * approve offers Undo. A deny cannot be undone through the API, so it asks first (see needsConfirmation).
 */
export async function resolveRequest(g: GroupsView, approve: boolean, inv: CommandInvocation<{ requestId: string }>): Promise<undefined> {
  const model = g.tree.model;
  const verb = approve ? 'Approve' : 'Deny';
  let request: MembershipRequest | undefined;
  let requestId: string;
  if (inv.arg instanceof RequestNode) {
    request = inv.arg.request;
    requestId = request.id;
  } else if (inv.options) {
    requestId = requiredId(inv.options, 'requestId', `datagrok.groups.${approve ? 'approve' : 'deny'}Request`);
    // Known when it is one of the listed requests: then it stays listed in place, and Undo knows who.
    request = await model.pendingRequests().then(
      (p) => p.requests.find((r) => r.id === requestId),
      () => undefined,
    );
  } else {
    request = await pickPendingRequest(model, verb, host(g));
    requestId = request.id;
  }
  const target = request?.to ? groupName(request.to) : undefined;
  if (inv.interactive && needsConfirmation(vscode.workspace.getConfiguration('datagrok.groups').get('confirmApproveDeny'), approve)) {
    const what = request ? `${who(request)}'s request to join ${target}` : 'this request';
    const detail = approve
      ? 'Undo stays available until the Groups view is refreshed.'
      : 'A denied request cannot be reopened; they would have to ask again. (Setting: datagrok.groups.confirmApproveDeny)';
    const yes = await vscode.window.showWarningMessage(`${verb} ${what}?`, { modal: true, detail }, verb);
    if (yes !== verb) throw new UserCancelled();
  }
  const title = request ? `${approve ? 'Approving' : 'Denying'} ${who(request)}'s request…` : `${approve ? 'Approving' : 'Denying'} the request…`;
  await inv.withProgress(title, (_p, signal) => model.resolveRequest(requestId, approve, signal, request));
  if (approve && request) {
    const message = `Approved: ${who(request)} is now a member of ${target}.`;
    void vscode.window.showInformationMessage(message, 'Undo').then((choice) => {
      if (choice === 'Undo') void vscode.commands.executeCommand('datagrok.groups.undoApprove', { requestId });
    });
    return undefined;
  }
  const message = request ? `Denied ${who(request)}'s request to join ${target}.` : `${approve ? 'Approved' : 'Denied'} membership request ${requestId}.`;
  void vscode.window.showInformationMessage(message);
  return undefined;
}

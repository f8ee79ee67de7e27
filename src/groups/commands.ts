// The groups commands: thin handlers over the GroupsModel and the tree. Errors go to the command layer.
import * as vscode from 'vscode';
import type { Group, MembershipRequest } from '../api/types';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { badInput } from '../api/errors';
import { optionalText } from '../core/options';
import type { Services } from '../services';
import { hostOf } from '../api/names';
import { displayName, groupName } from '../platform/groups';
import type { GroupsTreeProvider } from './groupsTree';
import { GroupNode, GroupsNode, RequestNode } from './nodes';
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

export function registerGroupCommands(services: Services, tree: GroupsTreeProvider, view: vscode.TreeView<GroupsNode>): vscode.Disposable[] {
  const { commands, connection } = services;
  const model = tree.model;
  const host = () => hostOf(connection.baseUrl());

  const resolve = (approve: boolean) => async (inv: CommandInvocation<{ requestId: string }>) => {
    const verb = approve ? 'Approve' : 'Deny';
    let request: MembershipRequest | undefined;
    let requestId: string;
    if (inv.arg instanceof RequestNode) {
      request = inv.arg.request;
      requestId = request.id;
    } else if (inv.options) {
      requestId = requiredId(inv.options, 'requestId', `datagrok.groups.${approve ? 'approve' : 'deny'}Request`);
    } else {
      request = await pickPendingRequest(model, verb);
      if (!request) {
        void vscode.window.showInformationMessage('No pending membership requests to the groups you administer.');
        return undefined;
      }
      requestId = request.id;
    }
    const title = request ? `${approve ? 'Approving' : 'Denying'} ${who(request)}'s request…` : `${approve ? 'Approving' : 'Denying'} the request…`;
    await inv.withProgress(title, (_p, signal) => model.resolveRequest(requestId, approve, signal));
    const target = request?.to ? groupName(request.to) : undefined;
    const message = request
      ? approve
        ? `Approved: ${who(request)} is now a member of ${target}.`
        : `Denied ${who(request)}'s request to join ${target}.`
      : `${approve ? 'Approved' : 'Denied'} membership request ${requestId}.`;
    void vscode.window.showInformationMessage(message);
    return undefined;
  };

  return [
    commands.register('datagrok.groups.refresh', async (inv) => {
      // From an error item's Retry: reload that part only.
      if (inv.arg instanceof GroupsNode) tree.retry(inv.arg);
      else tree.refresh();
    }),
    commands.register('datagrok.groups.showMore', async (inv) => {
      if (inv.arg instanceof GroupsNode) tree.showMore(inv.arg);
    }),
    commands.register<{ text?: string }>('datagrok.groups.search', async (inv): Promise<Group[]> => {
      let text: string;
      if (inv.options) {
        text = optionalText(inv.options.text, 'text') ?? '';
      } else {
        text = await askText('Datagrok: Search Groups', `Part of a group name, looked up on ${host()} (empty clears the search)`, tree.search ?? '');
      }
      // Looked up first: a failed search leaves the tree as it was.
      const groups = text ? await inv.withProgress(`Looking up "${text}" on ${host()}…`, () => model.lookup(text)) : [];
      const section = tree.setSearch(text);
      if (!section) return [];
      if (inv.interactive) void view.reveal(section, { expand: true, focus: false, select: false }).then(undefined, () => undefined);
      return groups;
    }),
    commands.register<CreateGroupOptions>('datagrok.groups.create', async (inv): Promise<Group> => {
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
        const name = await askText(title, `The new group's name on ${host()}`, '', groupNameProblem);
        const friendlyName = await askText(title, 'Its friendly name, as people see it (Enter keeps the name)', name);
        const description = await askText(title, 'A description (optional)');
        group = { name, friendlyName: friendlyName || undefined, description: description || undefined };
      }
      const created = await inv.withProgress(`Creating group ${group.name}…`, (_p, signal) => model.createGroup(group, signal));
      void vscode.window.showInformationMessage(`Created group ${created.name} on ${host()}.`);
      return created;
    }),
    commands.register<{ groupId: string }>('datagrok.groups.requestMembership', async (inv): Promise<MembershipRequest> => {
      let groupId: string;
      let name: string | undefined;
      if (inv.arg instanceof GroupNode) {
        if (!inv.arg.joinable) throw badInput(`You are already a member of ${inv.arg.group.name}, or it is a user rather than a group.`);
        groupId = inv.arg.group.id;
        name = inv.arg.group.name;
      } else if (inv.options) {
        groupId = requiredId(inv.options, 'groupId', 'datagrok.groups.requestMembership');
      } else {
        const group = await pickGroupToJoin(model, host());
        groupId = group.id;
        name = group.name;
      }
      const request = await inv.withProgress(`Requesting membership of ${name ?? 'the group'}…`, (_p, signal) => model.requestMembership(groupId, signal));
      const target = name ?? groupName(request.to);
      void vscode.window.showInformationMessage(`Requested membership of ${target}; an administrator of ${target} has to approve it.`);
      return request;
    }),
    commands.register<{ requestId: string }>('datagrok.groups.approveRequest', resolve(true)),
    commands.register<{ requestId: string }>('datagrok.groups.denyRequest', resolve(false)),
  ];
}

// The items of the Groups tree. Each node has a stable id (the path of ids from the root), so a
// refresh keeps what was expanded, and loads its children lazily through the GroupsModel.
import * as vscode from 'vscode';
import { DatagrokError } from '../api/errors';
import type { Group, MembershipRequest } from '../api/types';
import { displayName, type GroupsModel, groupName, type UserContext } from '../platform/groups';

export const PAGE_SIZE = 200;

/** What nodes need from the tree to build their children. */
export interface TreeState {
  readonly model: GroupsModel;
  /** The server's host, for messages. */
  readonly host: string;
  /** How many items a paged list shows now. */
  limit(node: GroupsNode): number;
}

export abstract class GroupsNode {
  constructor(
    readonly id: string,
    readonly parent: GroupsNode | undefined,
  ) {}

  abstract treeItem(): vscode.TreeItem;

  children(_state: TreeState): Promise<GroupsNode[]> {
    return Promise.resolve([]);
  }

  protected item(label: string, collapsible: vscode.TreeItemCollapsibleState): vscode.TreeItem {
    const item = new vscode.TreeItem(label, collapsible);
    item.id = this.id;
    return item;
  }
}

const { Collapsed, Expanded, None } = vscode.TreeItemCollapsibleState;

function groupTooltip(g: Group): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown('**');
  md.appendText(g.name);
  md.appendMarkdown('**');
  if (g.friendlyName && g.friendlyName !== g.name) {
    md.appendMarkdown(' — ');
    md.appendText(g.friendlyName);
  }
  md.appendMarkdown(g.personal ? ' *(user)*' : '');
  md.appendMarkdown('\n\nID: ');
  md.appendText(g.id);
  if (g.description) {
    md.appendMarkdown('\n\n');
    md.appendText(g.description);
  }
  return md;
}

/**
 * A group; `relationAdmin` is the admin flag of the relation it was listed under (a member that
 * administers the group, a group the user or parent administers), shown as an "admin" badge.
 */
export class GroupNode extends GroupsNode {
  constructor(
    parent: GroupsNode,
    readonly group: Group,
    private readonly ctx: UserContext,
    private readonly relationAdmin = false,
  ) {
    super(`${parent.id}/${group.id}`, parent);
  }

  /** For datagrok.copyId. */
  get entityId(): string {
    return this.group.id;
  }

  /** The user may ask to join: not a member, not their own group, not a user. */
  get joinable(): boolean {
    const g = this.group;
    return !g.personal && g.id !== this.ctx.me.id && !this.ctx.memberOf.has(g.id);
  }

  treeItem(): vscode.TreeItem {
    const g = this.group;
    const item = this.item(g.name || g.id, Collapsed);
    const badges: string[] = [];
    if (g.friendlyName && g.friendlyName !== g.name) badges.push(g.friendlyName);
    if (g.id === this.ctx.me.id) badges.push('you');
    if (this.relationAdmin) badges.push('admin');
    if (g.personal) badges.push('personal');
    item.description = badges.join(' · ');
    item.tooltip = groupTooltip(g);
    item.iconPath = new vscode.ThemeIcon(g.personal ? 'account' : 'organization');
    item.contextValue = this.joinable ? 'datagrok.group.joinable' : 'datagrok.group';
    return item;
  }

  override async children(): Promise<GroupsNode[]> {
    const nodes: GroupsNode[] = [new RelationFolderNode(this, 'members', this.ctx), new RelationFolderNode(this, 'memberships', this.ctx)];
    if (this.ctx.adminOf.has(this.group.id)) nodes.push(new GroupRequestsFolderNode(this, this.group));
    return nodes;
  }
}

/** "Members" or "Memberships" under a group. */
export class RelationFolderNode extends GroupsNode {
  constructor(
    private readonly groupNode: GroupNode,
    readonly kind: 'members' | 'memberships',
    private readonly ctx: UserContext,
  ) {
    super(`${groupNode.id}/${kind}`, groupNode);
  }

  treeItem(): vscode.TreeItem {
    const item = this.item(this.kind === 'members' ? 'Members' : 'Memberships', Collapsed);
    item.iconPath = new vscode.ThemeIcon(this.kind === 'members' ? 'person' : 'type-hierarchy-super');
    item.tooltip =
      this.kind === 'members' ? `Users and groups that belong to ${this.groupNode.group.name}` : `Groups that ${this.groupNode.group.name} belongs to`;
    return item;
  }

  override async children(state: TreeState): Promise<GroupsNode[]> {
    const id = this.groupNode.group.id;
    const related = this.kind === 'members' ? await state.model.members(id) : await state.model.memberships(id);
    if (related.length === 0) return [new MessageNode(this, this.kind === 'members' ? 'No members' : 'Not a member of any group')];
    return paged(this, state, related, (r) => new GroupNode(this, r.group, this.ctx, r.isAdmin));
  }
}

/** "Pending requests" under a group the user administers. */
export class GroupRequestsFolderNode extends GroupsNode {
  constructor(
    parent: GroupNode,
    private readonly group: Group,
  ) {
    super(`${parent.id}/requests`, parent);
  }

  treeItem(): vscode.TreeItem {
    const item = this.item('Pending requests', Collapsed);
    item.iconPath = new vscode.ThemeIcon('git-pull-request');
    item.tooltip = `Requests to join ${this.group.name}: you are one of its administrators`;
    return item;
  }

  override async children(state: TreeState): Promise<GroupsNode[]> {
    const requests = await state.model.requestsTo(this.group.id);
    if (requests.length === 0) return [new MessageNode(this, 'No pending requests')];
    return requests.map((r) => new RequestNode(this, r, true));
  }
}

export class RequestNode extends GroupsNode {
  constructor(
    parent: GroupsNode,
    readonly request: MembershipRequest,
    /** The user administers the target group and the request is pending. */
    readonly actionable: boolean,
  ) {
    super(`${parent.id}/${request.id}`, parent);
  }

  get entityId(): string {
    return this.request.id;
  }

  treeItem(): vscode.TreeItem {
    const r = this.request;
    const item = this.item(displayName(r.from), None);
    item.description = `wants to join ${groupName(r.to)}`;
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**');
    md.appendText(`${displayName(r.from)} (${groupName(r.from)})`);
    md.appendMarkdown('** asks to join **');
    md.appendText(groupName(r.to));
    md.appendMarkdown('**');
    if (r.description) {
      md.appendMarkdown('\n\n');
      md.appendText(r.description);
    }
    md.appendMarkdown('\n\nRequest ID: ');
    md.appendText(r.id);
    item.tooltip = md;
    item.iconPath = new vscode.ThemeIcon('git-pull-request');
    item.contextValue = this.actionable ? 'datagrok.request.actionable' : 'datagrok.request';
    return item;
  }
}

/** A line of text (an empty list, a note). */
export class MessageNode extends GroupsNode {
  constructor(
    parent: GroupsNode,
    private readonly message: string,
    private readonly icon?: string,
  ) {
    super(`${parent.id}/message`, parent);
  }

  treeItem(): vscode.TreeItem {
    const item = this.item(this.message, None);
    if (this.icon) item.iconPath = new vscode.ThemeIcon(this.icon);
    return item;
  }
}

/**
 * A load that failed, shown in place of the children. A rejected key offers sign-in; anything else
 * offers Retry (reloads the parent). `key` tells apart several errors under one parent.
 */
export class ErrorNode extends GroupsNode {
  constructor(
    parent: GroupsNode,
    readonly error: unknown,
    private readonly host: string,
    key = 'error',
  ) {
    super(`${parent.id}/${key}`, parent);
  }

  get signInNeeded(): boolean {
    return this.error instanceof DatagrokError && this.error.kind === 'unauthorized';
  }

  get message(): string {
    return this.error instanceof Error ? this.error.message : String(this.error);
  }

  treeItem(): vscode.TreeItem {
    let label: string;
    let item: vscode.TreeItem;
    if (this.signInNeeded) {
      const rejected = this.error instanceof DatagrokError && this.error.status === 401;
      label = rejected ? `The API key was rejected by ${this.host}. Sign in` : `Not signed in to ${this.host}. Sign in`;
      item = this.item(label, None);
      item.command = { title: 'Sign In', command: 'datagrok.signIn' };
    } else {
      item = this.item(this.message, None);
      item.description = 'click to retry';
      item.command = { title: 'Retry', command: 'datagrok.groups.refresh', arguments: [this.parent] };
    }
    item.tooltip = this.message;
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    item.contextValue = 'datagrok.error';
    return item;
  }
}

/** The last item of a long list: shows the next page. */
export class ShowMoreNode extends GroupsNode {
  constructor(
    readonly list: GroupsNode,
    private readonly shown: number,
    private readonly total: number,
  ) {
    super(`${list.id}/more`, list);
  }

  treeItem(): vscode.TreeItem {
    const item = this.item(`Show more… (${this.shown} of ${this.total})`, None);
    item.iconPath = new vscode.ThemeIcon('ellipsis');
    item.command = { title: 'Show More', command: 'datagrok.groups.showMore', arguments: [this.list] };
    return item;
  }
}

/** The first `limit` items as nodes, plus "Show more…" when there are more: thousands of groups stay responsive. */
export function paged<T>(list: GroupsNode, state: TreeState, items: readonly T[], node: (item: T) => GroupsNode): GroupsNode[] {
  const limit = state.limit(list);
  const nodes = items.slice(0, limit).map(node);
  if (items.length > limit) nodes.push(new ShowMoreNode(list, limit, items.length));
  return nodes;
}

/** Top level: "Pending requests". */
export class PendingSectionNode extends GroupsNode {
  constructor() {
    super('pending', undefined);
  }

  treeItem(): vscode.TreeItem {
    const item = this.item('Pending requests', Expanded);
    item.iconPath = new vscode.ThemeIcon('bell');
    item.tooltip = 'Requests to join the groups you administer';
    return item;
  }

  override async children(state: TreeState): Promise<GroupsNode[]> {
    const { requests, failures } = await state.model.pendingRequests();
    const nodes: GroupsNode[] = requests.map((r) => new RequestNode(this, r, true));
    for (const f of failures) nodes.push(new ErrorNode(this, f.error, state.host, `error-${f.group.id}`));
    if (nodes.length === 0) nodes.push(new MessageNode(this, 'No pending requests to the groups you administer'));
    return nodes;
  }
}

/** Top level: "My groups": the user's own group, then the groups they belong to. */
export class MyGroupsSectionNode extends GroupsNode {
  constructor() {
    super('mine', undefined);
  }

  treeItem(): vscode.TreeItem {
    const item = this.item('My groups', Expanded);
    item.iconPath = new vscode.ThemeIcon('account');
    item.tooltip = 'Your own group and the groups you are a member of';
    return item;
  }

  override async children(state: TreeState): Promise<GroupsNode[]> {
    const ctx = await state.model.userContext();
    const memberships = await state.model.myMemberships();
    return [new GroupNode(this, ctx.me, ctx), ...memberships.map((r) => new GroupNode(this, r.group, ctx, r.isAdmin))];
  }
}

/** Top level: "All groups" of the server, sorted by name, a page at a time. */
export class AllGroupsSectionNode extends GroupsNode {
  constructor() {
    super('all', undefined);
  }

  treeItem(): vscode.TreeItem {
    const item = this.item('All groups', Collapsed);
    item.iconPath = new vscode.ThemeIcon('organization');
    item.tooltip = 'Every group on the server, by name';
    return item;
  }

  override async children(state: TreeState): Promise<GroupsNode[]> {
    const [ctx, groups] = await Promise.all([state.model.userContext(), state.model.allGroups()]);
    if (groups.length === 0) return [new MessageNode(this, 'No groups')];
    return paged(this, state, groups, (g) => new GroupNode(this, g, ctx, ctx.adminOf.has(g.id)));
  }
}

/** Top level while a search is active: the server's lookup results. */
export class SearchSectionNode extends GroupsNode {
  constructor(readonly text: string) {
    super('search', undefined);
  }

  treeItem(): vscode.TreeItem {
    const item = this.item(`Search: ${this.text}`, Expanded);
    item.iconPath = new vscode.ThemeIcon('search');
    item.tooltip = `Groups whose name contains "${this.text}" (run Search Groups with no text to clear)`;
    item.contextValue = 'datagrok.search';
    return item;
  }

  override async children(state: TreeState): Promise<GroupsNode[]> {
    const [ctx, groups] = await Promise.all([state.model.userContext(), state.model.lookup(this.text)]);
    if (groups.length === 0) return [new MessageNode(this, `No group matches "${this.text}"`)];
    return paged(this, state, groups, (g) => new GroupNode(this, g, ctx, ctx.adminOf.has(g.id)));
  }
}

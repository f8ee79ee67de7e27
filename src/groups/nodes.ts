// The Groups tree's group and request items, and the folders under a group (members, memberships,
// pending requests).
import * as vscode from 'vscode';
import type { Group, MembershipRequest } from '../api/types';
import { displayName, groupName, type HandledRequest, requestNote, sortRequests, type UserContext } from '../platform/groups/model';
import { GroupsNode, MessageNode, paged, type TreeState } from './node';

const { Collapsed, None } = vscode.TreeItemCollapsibleState;

function groupTooltip(g: Group): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown('**');
  md.appendText(g.name);
  md.appendMarkdown('**');
  if (g.friendlyName && g.friendlyName !== g.name) {
    md.appendMarkdown(' — ');
    md.appendText(g.friendlyName);
  }
  md.appendMarkdown(g.personal ? ' *(a user)*' : '');
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

  /** The user administers this group (adds members, may leave it). */
  get administered(): boolean {
    return this.ctx.adminOf.has(this.group.id);
  }

  /** The user is a member of this group. */
  get belongs(): boolean {
    return this.ctx.memberOf.has(this.group.id);
  }

  /** Menus by context value: joinable, administered (Add Member, Leave), member, or any other. */
  private contextValue(): string {
    if (this.joinable) return 'datagrok.group.joinable';
    if (this.administered) return 'datagrok.group.admin';
    if (this.belongs) return 'datagrok.group.member';
    return 'datagrok.group';
  }

  treeItem(): vscode.TreeItem {
    const g = this.group;
    const item = this.item(g.name || g.id, Collapsed);
    const badges: string[] = [];
    if (g.friendlyName && g.friendlyName !== g.name) badges.push(g.friendlyName);
    if (g.id === this.ctx.me.id) badges.push('you');
    if (this.relationAdmin) badges.push('admin');
    item.description = badges.join(' · ');
    item.tooltip = groupTooltip(g);
    item.iconPath = new vscode.ThemeIcon(g.personal ? 'account' : 'organization');
    item.contextValue = this.contextValue();
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
    item.tooltip = this.kind === 'members' ? `Users and groups that belong to ${this.groupNode.group.name}` : `Groups that ${this.groupNode.group.name} belongs to`;
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
    const requests = requestNodes(this, await state.model.requestsTo(this.group.id), state.model.handled(this.group.id));
    if (requests.length === 0) return [new MessageNode(this, 'No pending requests')];
    return requests;
  }
}

const OUTCOME = {
  approved: { text: 'approved', icon: 'check', context: 'datagrok.request.approved' },
  denied: { text: 'denied', icon: 'close', context: 'datagrok.request.denied' },
  undone: { text: 'approval undone', icon: 'discard', context: 'datagrok.request.undone' },
} as const;

/**
 * A membership request. One handled in this session (`outcome`) stays in its place, marked, until a
 * refresh: the rows under the cursor do not move after an approve or deny.
 */
export class RequestNode extends GroupsNode {
  constructor(
    parent: GroupsNode,
    readonly request: MembershipRequest,
    /** The user administers the target group and the request is pending. */
    readonly actionable: boolean,
    readonly outcome?: HandledRequest['outcome'],
  ) {
    super(`${parent.id}/${request.id}`, parent);
  }

  get entityId(): string {
    return this.request.id;
  }

  treeItem(): vscode.TreeItem {
    const r = this.request;
    const item = this.item(displayName(r.from), None);
    const handled = this.outcome ? OUTCOME[this.outcome] : undefined;
    item.description = handled ? `to ${groupName(r.to)} · ${handled.text}` : `to ${groupName(r.to)}`;
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**');
    md.appendText(displayName(r.from));
    md.appendMarkdown('**');
    if (r.from?.name && r.from.name !== displayName(r.from)) md.appendText(` (${r.from.name})`);
    md.appendMarkdown('\n\nRequest to join **');
    md.appendText(groupName(r.to));
    md.appendMarkdown('**');
    const made = r.createdOn ? new Date(r.createdOn) : undefined;
    if (made && !Number.isNaN(made.getTime())) md.appendText(`, made ${made.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`);
    const note = requestNote(r);
    if (note) {
      md.appendMarkdown('\n\n*');
      md.appendText(note);
      md.appendMarkdown('*');
    }
    if (this.outcome === 'approved') md.appendMarkdown('\n\nApproved. Undo removes the membership again.');
    else if (this.outcome === 'denied') md.appendMarkdown('\n\nDenied.');
    else if (this.outcome === 'undone') md.appendMarkdown('\n\nApproved, then undone: not a member. The request stays approved on the server; they can ask again.');
    // Said before an approve: the server cannot reopen a request, so Undo can only remove the membership.
    if (!this.outcome && this.actionable)
      md.appendMarkdown('\n\nApprove makes them a member. Undo (offered after) removes the membership again, but the request stays approved on the server.');
    item.tooltip = md;
    item.iconPath = new vscode.ThemeIcon(handled?.icon ?? 'git-pull-request');
    item.contextValue = handled?.context ?? (this.actionable ? 'datagrok.request.actionable' : 'datagrok.request');
    return item;
  }
}

/** Pending requests and the ones handled in this session, in one stable order. */
export function requestNodes(parent: GroupsNode, pending: readonly MembershipRequest[], handled: readonly HandledRequest[]): RequestNode[] {
  const outcome = new Map(handled.map((h) => [h.request.id, h.outcome]));
  const all = [...pending.filter((r) => !outcome.has(r.id)), ...handled.map((h) => h.request)];
  return sortRequests(all).map((r) => new RequestNode(parent, r, !outcome.has(r.id), outcome.get(r.id)));
}

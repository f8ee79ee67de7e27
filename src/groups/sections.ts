// The top-level sections of the Groups tree: pending requests, my groups, all groups, the search.
import * as vscode from 'vscode';
import type { Group } from '../api/types';
import { ErrorNode, GroupsNode, MessageNode, paged, type TreeState } from './node';
import { GroupNode, requestNodes } from './nodes';

const { Collapsed, Expanded } = vscode.TreeItemCollapsibleState;

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
    const nodes: GroupsNode[] = requestNodes(this, requests, state.model.handled());
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

/** Top level: "All groups" of the server, with teams and people apart. */
export class AllGroupsSectionNode extends GroupsNode {
  constructor() {
    super('all', undefined);
  }

  treeItem(): vscode.TreeItem {
    const item = this.item('All groups', Collapsed);
    item.iconPath = new vscode.ThemeIcon('organization');
    item.tooltip = 'Every group on the server, and every user (each user is a group of one, so groups can include people)';
    return item;
  }

  override async children(state: TreeState): Promise<GroupsNode[]> {
    const groups = await state.model.allGroups();
    if (groups.length === 0) return [new MessageNode(this, 'No groups')];
    return [
      new AllKindNode(
        this,
        'teams',
        groups.filter((g) => !g.personal),
      ),
      new AllKindNode(
        this,
        'people',
        groups.filter((g) => g.personal),
      ),
    ];
  }
}

/** Under All groups: "Groups" (teams) or "People" (users), by name, a page at a time. */
export class AllKindNode extends GroupsNode {
  constructor(
    parent: GroupsNode,
    readonly kind: 'teams' | 'people',
    private readonly groups: Group[],
  ) {
    super(`${parent.id}/${kind}`, parent);
  }

  treeItem(): vscode.TreeItem {
    const item = this.item(this.kind === 'teams' ? 'Groups' : 'People', Collapsed);
    item.iconPath = new vscode.ThemeIcon(this.kind === 'teams' ? 'organization' : 'account');
    item.description = String(this.groups.length);
    item.tooltip = this.kind === 'teams' ? 'The groups of the server, by name' : 'The users of the server, by login';
    return item;
  }

  override async children(state: TreeState): Promise<GroupsNode[]> {
    const ctx = await state.model.userContext();
    if (this.groups.length === 0) return [new MessageNode(this, this.kind === 'teams' ? 'No groups' : 'No users')];
    return paged(this, state, this.groups, (g) => new GroupNode(this, g, ctx, ctx.adminOf.has(g.id)));
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

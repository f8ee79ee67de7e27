// The Groups tree's node base and its generic items (a message, an error with Retry, "show more").
// Each node has a stable id (the path of ids from the root), so a refresh keeps what was expanded, and
// loads its children lazily through the GroupsModel.
import * as vscode from 'vscode';
import { DatagrokError } from '../api/errors';
import type { GroupsModel } from '../platform/groups';

const { None } = vscode.TreeItemCollapsibleState;

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

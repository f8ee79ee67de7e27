// The Groups view's TreeDataProvider: top-level sections, lazy children through the nodes, errors as
// items (never a broken tree), paging state for long lists, and the active search.
import * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
import { hostOf } from '../api/names';
import type { GroupsModel } from '../platform/groups/model';
import { ErrorNode, type GroupsNode, PAGE_SIZE, type TreeState } from './node';
import { AllGroupsSectionNode, MyGroupsSectionNode, PendingSectionNode, SearchSectionNode } from './sections';

export class GroupsTreeProvider implements vscode.TreeDataProvider<GroupsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<GroupsNode | undefined>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly limits = new Map<string, number>();
  private searchText: string | undefined;

  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    readonly model: GroupsModel,
    private readonly connection: Connection,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subscriptions.push(
      this.changed,
      model.onDidChange(() => this.changed.fire(undefined)),
      connection.onDidChange(() => model.reload(true)),
    );
  }

  /** The active search text, if a search is shown. */
  get search(): string | undefined {
    return this.searchText;
  }

  /** Shows (or, with empty text, removes) the "Search: <text>" section; returns that section. */
  setSearch(text: string | undefined): SearchSectionNode | undefined {
    const t = text?.trim();
    this.searchText = t ? t : undefined;
    this.limits.delete('search');
    this.changed.fire(undefined);
    return this.searchText ? new SearchSectionNode(this.searchText) : undefined;
  }

  /** Reloads everything from the server; requests handled in this session are no longer listed. */
  refresh(): void {
    this.model.reload(true);
  }

  /** Asks again for one node's children (failed loads are not cached, so only they are reloaded). */
  retry(node: GroupsNode): void {
    this.changed.fire(node);
  }

  /** Shows the next page of a long list. */
  showMore(list: GroupsNode): void {
    this.limits.set(list.id, (this.limits.get(list.id) ?? PAGE_SIZE) + PAGE_SIZE);
    this.changed.fire(list);
  }

  getTreeItem(node: GroupsNode): vscode.TreeItem {
    const item = node.treeItem();
    // Screen readers otherwise read a plain-text tooltip instead of the label.
    if (typeof item.tooltip === 'string') item.accessibilityInformation ??= { label: [item.label, item.description].filter((t) => typeof t === 'string' && t !== '').join(', ') };
    return item;
  }

  getParent(node: GroupsNode): GroupsNode | undefined {
    return node.parent;
  }

  async getChildren(node?: GroupsNode): Promise<GroupsNode[]> {
    if (!node) {
      // Signed out: no items, so the view shows its welcome content.
      if (!this.connection.isSignedIn) return [];
      const roots: GroupsNode[] = [];
      if (this.searchText) roots.push(new SearchSectionNode(this.searchText));
      roots.push(new PendingSectionNode(), new MyGroupsSectionNode(), new AllGroupsSectionNode());
      return roots;
    }
    const host = this.host();
    const state: TreeState = {
      model: this.model,
      host,
      limit: (n) => this.limits.get(n.id) ?? PAGE_SIZE,
    };
    try {
      return await node.children(state);
    } catch (error) {
      this.log.warn(`Groups view: loading ${node.id} failed: ${error instanceof Error ? error.message : String(error)}`);
      return [new ErrorNode(node, error, host)];
    }
  }

  private host(): string {
    try {
      return hostOf(this.connection.baseUrl());
    } catch {
      return this.connection.serverUrl;
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

// The explorer views' tree (Functions, Files, Tables, Dashboards): lazy children, errors shown in place
// with Retry (or Sign In), long lists paged 200 at a time with "Show more…", nothing while signed out
// (the view shows its welcome), and a reload when the server or sign-in changes.
import * as vscode from 'vscode';
import { DatagrokError } from '../api/errors';
import { hostOf } from '../api/names';
import { PAGE_SIZE } from '../platform/paging';

export { PAGE_SIZE };

const { None } = vscode.TreeItemCollapsibleState;

/** What nodes need to build their children. */
export interface ExplorerContext {
  /** The server's host, for messages. */
  readonly host: string;
  /** How many items a paged list shows now. */
  limit(node: ExplorerNode): number;
}

export abstract class ExplorerNode {
  constructor(
    /** Stable: the path of ids from the root, so a refresh keeps what was expanded. */
    readonly id: string,
    readonly parent: ExplorerNode | undefined,
  ) {}

  abstract treeItem(): vscode.TreeItem;

  children(_ctx: ExplorerContext): Promise<ExplorerNode[]> {
    return Promise.resolve([]);
  }

  protected item(label: string, collapsible: vscode.TreeItemCollapsibleState): vscode.TreeItem {
    const item = new vscode.TreeItem(label, collapsible);
    item.id = this.id;
    return item;
  }
}

/** A line of text (an empty list, a note). */
export class MessageNode extends ExplorerNode {
  constructor(
    parent: ExplorerNode | undefined,
    private readonly message: string,
    private readonly icon?: string,
  ) {
    super(`${parent?.id ?? ''}/message`, parent);
  }

  treeItem(): vscode.TreeItem {
    const item = this.item(this.message, None);
    if (this.icon) item.iconPath = new vscode.ThemeIcon(this.icon);
    return item;
  }
}

/**
 * A load that failed, in place of the children: Sign In for a missing or rejected key, otherwise Retry
 * (`retryCommand` with the parent). `key` tells apart several errors under one parent.
 */
export class ErrorNode extends ExplorerNode {
  constructor(
    parent: ExplorerNode | undefined,
    readonly error: unknown,
    private readonly host: string,
    private readonly retryCommand: string,
    key = 'error',
  ) {
    super(`${parent?.id ?? ''}/${key}`, parent);
  }

  get signInNeeded(): boolean {
    return this.error instanceof DatagrokError && this.error.kind === 'unauthorized';
  }

  get message(): string {
    return this.error instanceof Error ? this.error.message : String(this.error);
  }

  treeItem(): vscode.TreeItem {
    const signIn = this.signInNeeded;
    const rejected = this.error instanceof DatagrokError && this.error.status === 401;
    const label = rejected ? `The API key was rejected by ${this.host}. Sign in` : `Not signed in to ${this.host}. Sign in`;
    const item = this.item(signIn ? label : this.message, None);
    item.command = signIn ? { title: 'Sign In', command: 'datagrok.signIn' } : { title: 'Retry', command: this.retryCommand, arguments: [this.parent] };
    if (!signIn) item.description = 'click to retry';
    item.tooltip = this.message;
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    item.contextValue = 'datagrok.error';
    return item;
  }
}

/** The last item of a long list: shows the next page. */
export class ShowMoreNode extends ExplorerNode {
  constructor(
    readonly list: ExplorerNode,
    private readonly shown: number,
    private readonly total: number,
    private readonly showMoreCommand: string,
  ) {
    super(`${list.id}/more`, list);
  }

  treeItem(): vscode.TreeItem {
    const item = this.item(`Show more… (${this.shown} of ${this.total})`, None);
    item.iconPath = new vscode.ThemeIcon('ellipsis');
    item.command = { title: 'Show More', command: this.showMoreCommand, arguments: [this.list] };
    return item;
  }
}

/** The first `limit` items of a list as nodes, plus "Show more…" (running `showMoreCommand`) when there are more. */
export function paged<T>(list: ExplorerNode, ctx: ExplorerContext, items: readonly T[], node: (item: T) => ExplorerNode, showMoreCommand: string): ExplorerNode[] {
  const limit = ctx.limit(list);
  const nodes = items.slice(0, limit).map(node);
  if (items.length > limit) nodes.push(new ShowMoreNode(list, limit, items.length, showMoreCommand));
  return nodes;
}

export interface ExplorerOptions {
  /** The view id, e.g. `datagrok.functions`; `<view>.refresh` and `<view>.showMore` are the commands its items use. */
  readonly view: string;
  /** The top level (signed in). */
  roots(ctx: ExplorerContext): Promise<ExplorerNode[]>;
  /** Whether the active server has a key: signed out, the view is empty and shows its welcome. */
  signedIn(): boolean;
  /** The active server's base URL (may throw when the setting is bad). */
  baseUrl(): string;
  readonly log: vscode.LogOutputChannel;
}

export class ExplorerTree implements vscode.TreeDataProvider<ExplorerNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ExplorerNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly limits = new Map<string, number>();

  constructor(private readonly options: ExplorerOptions) {}

  /** The first `limit` items as nodes, plus "Show more…" when there are more. */
  paged<T>(list: ExplorerNode, ctx: ExplorerContext, items: readonly T[], node: (item: T) => ExplorerNode): ExplorerNode[] {
    return paged(list, ctx, items, node, `${this.options.view}.showMore`);
  }

  /** Everything asked again (the caller reloads its model first). */
  refresh(): void {
    this.limits.clear();
    this.changed.fire(undefined);
  }

  /** One node's children asked again (after an error: Retry). */
  retry(node: ExplorerNode | undefined): void {
    this.changed.fire(node);
  }

  showMore(list: ExplorerNode): void {
    this.limits.set(list.id, (this.limits.get(list.id) ?? PAGE_SIZE) + PAGE_SIZE);
    this.changed.fire(list);
  }

  getTreeItem(node: ExplorerNode): vscode.TreeItem {
    return node.treeItem();
  }

  getParent(node: ExplorerNode): ExplorerNode | undefined {
    return node.parent;
  }

  async getChildren(node?: ExplorerNode): Promise<ExplorerNode[]> {
    if (!node && !this.options.signedIn()) return [];
    const ctx: ExplorerContext = { host: this.host(), limit: (n) => this.limits.get(n.id) ?? PAGE_SIZE };
    try {
      return node ? await node.children(ctx) : await this.options.roots(ctx);
    } catch (error) {
      this.options.log.warn(`${this.options.view}: loading ${node?.id ?? 'the top level'} failed: ${error instanceof Error ? error.message : String(error)}`);
      return [new ErrorNode(node, error, ctx.host, `${this.options.view}.refresh`)];
    }
  }

  private host(): string {
    try {
      return hostOf(this.options.baseUrl());
    } catch {
      return 'the server';
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

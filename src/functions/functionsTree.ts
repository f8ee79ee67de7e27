// The Functions view: the server's functions grouped by package (collapsed), each a leaf with its
// kind's icon and short description; the signature tooltip is read lazily (resolveTreeItem). A search
// asks the server (smart-search text) and shows only what it answers.
import * as vscode from 'vscode';
import type { FuncInfo } from '../api/types';
import type { Connection } from '../connection/connection';
import type { Catalog } from '../platform/functions/catalog';
import { byPackage } from '../platform/functions/catalog';
import { type ExplorerContext, ExplorerNode, ExplorerTree, MessageNode } from '../ui/explorerTree';
import { kindIcon, shortDescription, signatureMarkdown } from './functionDisplay';

export const FUNCTIONS_VIEW = 'datagrok.functions';
const { Collapsed, Expanded, None } = vscode.TreeItemCollapsibleState;

/** A package: its functions (paged) as children. */
export class PackageNode extends ExplorerNode {
  constructor(
    private readonly tree: FunctionsTree,
    readonly name: string,
    readonly functions: readonly FuncInfo[],
    private readonly expanded: boolean,
    prefix: string,
  ) {
    super(`${prefix}pkg:${name}`, undefined);
  }

  treeItem(): vscode.TreeItem {
    const item = this.item(this.name, this.expanded ? Expanded : Collapsed);
    item.iconPath = new vscode.ThemeIcon('package');
    item.description = `${this.functions.length}`;
    item.tooltip = `${this.name}: ${this.functions.length} function${this.functions.length === 1 ? '' : 's'}`;
    item.contextValue = 'datagrok.functionPackage';
    return item;
  }

  override async children(ctx: ExplorerContext): Promise<ExplorerNode[]> {
    return this.tree.paged(this, ctx, this.functions, (f) => new FunctionNode(this, f));
  }
}

/** A function, script or query. */
export class FunctionNode extends ExplorerNode {
  constructor(
    parent: PackageNode,
    readonly func: FuncInfo,
  ) {
    super(`${parent.id}/fn:${func.nqName}`, parent);
  }

  treeItem(): vscode.TreeItem {
    const item = this.item(this.func.name, None);
    item.iconPath = new vscode.ThemeIcon(kindIcon(this.func.kind));
    item.description = shortDescription(this.func.description);
    item.contextValue = `datagrok.function.${this.func.kind}`;
    item.accessibilityInformation = { label: `${this.func.kind} ${this.func.nqName}${this.func.description ? `: ${this.func.description}` : ''}` };
    // No tooltip here: VS Code then asks resolveTreeItem, which reads the signature.
    return item;
  }
}

export class FunctionsTree extends ExplorerTree {
  private searchText = '';

  constructor(
    readonly catalog: Catalog,
    connection: Connection,
    log: vscode.LogOutputChannel,
  ) {
    super({
      view: FUNCTIONS_VIEW,
      roots: (ctx) => this.roots(ctx),
      signedIn: () => connection.isSignedIn,
      baseUrl: () => connection.baseUrl(),
      log,
    });
  }

  /** The search text the view shows ('' when it shows everything). */
  get search(): string {
    return this.searchText;
  }

  /** Shows the functions matching `text` ('' shows all again). */
  setSearch(text: string): void {
    this.searchText = text.trim();
    this.refresh();
  }

  private async roots(ctx: ExplorerContext): Promise<ExplorerNode[]> {
    const text = this.searchText;
    const groups = [...byPackage(await this.catalog.searchFunctions(text))];
    if (groups.length === 0) {
      return [new MessageNode(undefined, text ? `No functions on ${ctx.host} match "${text}".` : `${ctx.host} lists no functions.`)];
    }
    // Searching: the packages open, under ids of their own so the full list keeps its expansion.
    const prefix = text ? `search:${text}/` : '';
    return groups.map(([name, funcs]) => new PackageNode(this, name, funcs, text !== '', prefix));
  }

  /** The tooltip: the function's signature, read from the server when first hovered. */
  async resolveTreeItem(item: vscode.TreeItem, node: ExplorerNode, token: vscode.CancellationToken): Promise<vscode.TreeItem> {
    if (!(node instanceof FunctionNode)) return item;
    let func = node.func;
    try {
      func = await this.catalog.func(node.func.nqName);
    } catch {
      // The list's answer still describes it (without parameters when the list had none).
    }
    if (!token.isCancellationRequested) {
      const tooltip = new vscode.MarkdownString(signatureMarkdown(func));
      tooltip.supportThemeIcons = false;
      item.tooltip = tooltip;
    }
    return item;
  }
}

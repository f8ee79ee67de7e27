// The Tables and Dashboards views: the server's list where the server has one, else the entities
// remembered on this machine with a note saying so; reloaded on sign-in/out, server switch and Refresh.
import * as vscode from 'vscode';
import { isDatagrokError } from '../api/errors';
import { hostOf } from '../api/names';
import type { CommandInvocation } from '../core/commands';
import type { Contributions } from '../core/contributions';
import type { RememberedEntity } from '../platform/recent';
import type { Catalog } from '../platform/functions/catalog';
import { type EntityKind, EntityNode, type EntityRow, ListRoot, rememberedRow } from './entityNodes';
import { type ExplorerContext, ExplorerNode, ExplorerTree, MessageNode } from './explorerTree';

export interface EntityViewOptions<T> {
  /** `datagrok.tables` or `datagrok.dashboards`. */
  readonly view: string;
  readonly kind: EntityKind;
  /** `tables`, `dashboards`. */
  readonly noun: string;
  /** How entities are made here: `pushed`, `created`. */
  readonly madeHere: string;
  /** The server's list (rejects with kind 'unsupported' when the server has none). */
  load(): Promise<T[]>;
  /** The remembered entities of the active server. */
  remembered(server: string): RememberedEntity[];
  row(item: T, remembered: Map<string, RememberedEntity>): EntityRow;
}

/** What a view needs from the extension (the feature hands over its services). */
export interface EntityViewDeps {
  readonly log: vscode.LogOutputChannel;
  readonly subscriptions: vscode.Disposable[];
  readonly connection: { readonly isSignedIn: boolean; baseUrl(): string; readonly onDidChange: vscode.Event<unknown> };
  readonly catalog: Catalog;
  readonly contributions: Pick<Contributions, 'treeView'>;
}

export interface EntityView {
  readonly tree: ExplorerTree;
  readonly view: vscode.TreeView<ExplorerNode>;
  /** The top level, as a list for paging. */
  readonly root: ListRoot;
}

/** Builds the top level: the server's entities, or the remembered ones with a note. */
async function roots<T>(tree: ExplorerTree, root: ListRoot, ctx: ExplorerContext, server: string, o: EntityViewOptions<T>): Promise<ExplorerNode[]> {
  const remembered = o.remembered(server);
  try {
    const items = await o.load();
    if (items.length === 0) return [new MessageNode(undefined, `No ${o.noun} on ${ctx.host}`)];
    const byId = new Map(remembered.map((e) => [e.ID, e]));
    return tree.paged(root, ctx, items, (item) => new EntityNode(undefined, o.kind, o.row(item, byId)));
  } catch (error) {
    if (!isDatagrokError(error, 'unsupported')) throw error;
    const note =
      remembered.length > 0
        ? `${ctx.host} does not list its ${o.noun}: showing the ones ${o.madeHere} from this machine`
        : `${ctx.host} does not list its ${o.noun}, and none were ${o.madeHere} from this machine yet`;
    return [new MessageNode(undefined, note), ...tree.paged(root, ctx, remembered, (e) => new EntityNode(undefined, o.kind, rememberedRow(e, o.madeHere)))];
  }
}

export function createEntityView<T>(deps: EntityViewDeps, o: EntityViewOptions<T>): EntityView {
  const { connection, log, catalog } = deps;
  const root = new ListRoot(o.view);
  const tree: ExplorerTree = new ExplorerTree({
    view: o.view,
    log,
    signedIn: () => connection.isSignedIn,
    baseUrl: () => connection.baseUrl(),
    roots: (ctx) => roots(tree, root, ctx, connection.baseUrl(), o),
  });
  const view = deps.contributions.treeView(o.view, { treeDataProvider: tree, canSelectMany: true });
  const describe = () => {
    try {
      view.description = connection.isSignedIn ? hostOf(connection.baseUrl()) : undefined;
    } catch {
      view.description = undefined;
    }
  };
  describe();
  deps.subscriptions.push(
    tree,
    view,
    connection.onDidChange(() => {
      describe();
      tree.refresh();
    }),
    catalog.onDidChange(() => tree.refresh()),
  );
  return { tree, view, root };
}

/** `<view>.refresh`: from the title bar everything is asked again; from an error item (Retry) that list. */
export async function refreshEntityView(catalog: Catalog, v: EntityView, inv: CommandInvocation<Record<string, never>>): Promise<undefined> {
  if (inv.arg instanceof ExplorerNode && inv.arg !== v.root) v.tree.retry(inv.arg);
  else {
    catalog.reload();
    v.tree.refresh();
  }
  return undefined;
}

/** `<view>.showMore`: the next 200 items of a list (the top level included). */
export async function showMoreEntities(v: EntityView, inv: CommandInvocation<never>): Promise<undefined> {
  if (!(inv.arg instanceof ExplorerNode)) return undefined;
  v.tree.showMore(inv.arg);
  if (inv.arg === v.root) v.tree.retry(undefined);
  return undefined;
}

/** Open in Browser: the web address the server gave for the item (only http and https). */
export async function openEntityInBrowser(inv: CommandInvocation<{ url: string }>): Promise<boolean> {
  const url = inv.arg instanceof EntityNode ? inv.arg.url : undefined;
  if (!url) {
    void vscode.window.showInformationMessage('The server gave no web address for this item.');
    return false;
  }
  return vscode.env.openExternal(vscode.Uri.parse(url));
}

/** The entity nodes a menu command applies to: the selection when the clicked item is in it, else that item. */
export function selectedEntities(v: EntityView, arg: unknown, kind: EntityKind): EntityNode[] {
  const ofKind = (n: unknown): n is EntityNode => n instanceof EntityNode && n.kind === kind;
  const selection = v.view.selection.filter(ofKind);
  if (ofKind(arg)) return selection.includes(arg) ? selection : [arg];
  return selection;
}

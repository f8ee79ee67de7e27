// The Groups tree's pieces: the explorer tree's nodes (src/ui/explorerTree.ts), with the groups model in
// what nodes are given to build their children, and the groups commands for Retry and "Show more…".
import type { GroupsModel } from '../platform/groups/model';
import { type ExplorerContext, ExplorerNode, ErrorNode as ExplorerErrorNode, paged as explorerPaged } from '../ui/explorerTree';

export { MessageNode, PAGE_SIZE } from '../ui/explorerTree';

/** What nodes need from the tree to build their children. */
export interface TreeState extends ExplorerContext {
  readonly model: GroupsModel;
}

/** A node of the Groups tree: its children are built from the groups model. */
export abstract class GroupsNode extends ExplorerNode {
  override children(_state: TreeState): Promise<ExplorerNode[]> {
    return Promise.resolve([]);
  }
}

/** A load that failed: Retry reloads the parent through datagrok.groups.refresh. */
export class ErrorNode extends ExplorerErrorNode {
  constructor(parent: ExplorerNode | undefined, error: unknown, host: string, key = 'error') {
    super(parent, error, host, 'datagrok.groups.refresh', key);
  }
}

/** The first page of a long list, plus "Show more…" (datagrok.groups.showMore). */
export function paged<T>(list: ExplorerNode, state: TreeState, items: readonly T[], node: (item: T) => ExplorerNode): ExplorerNode[] {
  return explorerPaged(list, state, items, node, 'datagrok.groups.showMore');
}

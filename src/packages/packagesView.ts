// The Packages view's wiring: the tree (packagesTree.ts) reads the workspace's packages again when their
// files change on disk (package.json, sources, scripts, queries; debounced) or the workspace's folders
// change, and the server's list too on sign-in, sign-out, a switch of server and Refresh.
import * as vscode from 'vscode';
import { hostOf } from '../api/names';
import { KeyedDebounce } from '../core/debounce';
import type { Services } from '../services';
import { ExplorerNode } from '../ui/explorerTree';
import { PACKAGES_VIEW, PackagesTree } from './packagesTree';

const DEBOUNCE_MS = 300;
/** The files a package's listing is read from (node_modules left out by the handler). */
const WATCHED = ['**/package.json', '**/src/**/*.{ts,js}', '**/{scripts,queries}/**'];

export function registerPackagesView(services: Services): PackagesTree {
  const { connection, log, commands, contributions } = services;
  const tree = new PackagesTree(services.platform.packages, connection, log);
  const view = contributions.treeView<ExplorerNode>(PACKAGES_VIEW, { treeDataProvider: tree, showCollapseAll: true });
  const describe = () => {
    try {
      view.description = connection.isSignedIn ? hostOf(connection.baseUrl()) : undefined;
    } catch {
      view.description = undefined;
    }
  };
  describe();
  const debounce = new KeyedDebounce(DEBOUNCE_MS);
  const changed = (uri: vscode.Uri) => {
    if (uri.scheme === 'file' && !uri.path.includes('/node_modules/')) debounce.schedule('files', () => tree.reload(false));
  };
  const watchers = WATCHED.map((glob) => vscode.workspace.createFileSystemWatcher(glob));
  for (const w of watchers) services.context.subscriptions.push(w.onDidCreate(changed), w.onDidChange(changed), w.onDidDelete(changed));
  services.context.subscriptions.push(
    tree,
    view,
    ...watchers,
    debounce,
    vscode.workspace.onDidChangeWorkspaceFolders(() => tree.reload(false)),
    connection.onDidChange(() => {
      describe();
      tree.reload(true);
    }),
    commands.register('datagrok.packages.refresh', async () => tree.reload(true)),
    commands.register('datagrok.packages.showMore', async (inv) => {
      if (inv.arg instanceof ExplorerNode) tree.showMore(inv.arg);
    }),
  );
  return tree;
}

// The Packages view's wiring: the tree (packagesTree.ts) reads a package again when its files change on
// disk (package.json, sources, scripts, queries; debounced), the workspace's packages when its folders
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
  const pending = new Set<string>();
  const changed = (uri: vscode.Uri) => {
    if (uri.scheme !== 'file' || uri.path.includes('/node_modules/')) return;
    pending.add(uri.fsPath);
    debounce.schedule('files', () => {
      const files = [...pending];
      pending.clear();
      tree.filesChanged(files);
    });
  };
  const watchers = WATCHED.map((glob) => vscode.workspace.createFileSystemWatcher(glob));
  for (const w of watchers) services.context.subscriptions.push(w.onDidCreate(changed), w.onDidChange(changed), w.onDidDelete(changed));
  // A folder made or removed is reported alone, not the files in it: one made may hold a package (look
  // again), one removed may have held some (those inside it are forgotten).
  const folders = vscode.workspace.createFileSystemWatcher('**', false, true, false);
  watchers.push(folders);
  const asPackageChange = (dir: vscode.Uri) => changed(vscode.Uri.joinPath(dir, 'package.json'));
  services.context.subscriptions.push(
    folders.onDidCreate((uri) => {
      if (uri.scheme === 'file' && !uri.path.includes('/node_modules/'))
        void Promise.resolve(vscode.workspace.fs.stat(uri)).then(
          (stat) => stat.type & vscode.FileType.Directory && asPackageChange(uri),
          () => undefined,
        );
    }),
    folders.onDidDelete((uri) => {
      if (tree.holdsPackages(uri.fsPath)) asPackageChange(uri);
    }),
  );
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

import type { Services } from '../services';
import { copyDatagrokPath, downloadConnectorFile, mountConnector, offerDownload, openConnectorFile, uploadToConnector } from './commands';
import { ConnectorFileSystem } from './connectorFileSystem';
import { FilesDragAndDrop } from './filesDragAndDrop';
import { FILES_VIEW, FilesTree } from './filesTree';
import { watchSignOut } from './signedOut';
import { reopenEditorsAfterMount } from './mountReopen';
import { SCHEME } from './uris';
import { deleteFile, type FilesView, newFile, newFolder, refreshFiles, showMoreFiles } from './viewCommands';

/** What the files feature gives the tests: the Files view's tree and its drag-and-drop controller. */
export interface FilesFeature {
  readonly filesTree: FilesTree;
  readonly filesDragAndDrop: FilesDragAndDrop;
}

/** Registers the files feature: the `datagrok` file system (connector files), the Files view and their commands. */
export function registerFiles(services: Services): FilesFeature {
  const fs = new ConnectorFileSystem(services.connection, services.platform.knownFiles, offerDownload);
  const files = new FilesTree(services, fs);
  const dragAndDrop = new FilesDragAndDrop(services.log);
  const view = services.contributions.treeView(FILES_VIEW, { treeDataProvider: files.tree, dragAndDropController: dragAndDrop, showCollapseAll: true });
  const v: FilesView = { services, fs, files };
  services.context.subscriptions.push(
    fs,
    services.contributions.fileSystem(SCHEME, fs, { isCaseSensitive: true }),
    files.tree,
    view,
    // Sign-in, sign-out and server switch; a reload of the connection list; writes through the file system.
    services.connection.onDidChange(() => files.tree.refresh()),
    // Signed out: mounted folders say why, connector tabs close (unsaved ones stay).
    watchSignOut(services.connection, services.log, (roots) => fs.rootsChanged(roots)),
    services.platform.catalog.onDidChange(() => files.tree.refresh()),
    fs.onDidChangeFile((changes) => {
      for (const change of changes) files.changed(change.uri);
    }),
    services.commands.register('datagrok.files.open', (inv) => openConnectorFile(services, fs, inv)),
    services.commands.register('datagrok.files.mount', (inv) => mountConnector(services, fs, inv)),
    services.commands.register('datagrok.files.download', (inv) => downloadConnectorFile(services, inv)),
    services.commands.register('datagrok.files.upload', (inv) => uploadToConnector(services, fs, inv)),
    services.commands.register('datagrok.files.copyPath', (inv) => copyDatagrokPath(inv)),
    services.commands.register('datagrok.files.refresh', (inv) => refreshFiles(v, inv)),
    services.commands.register('datagrok.files.showMore', (inv) => showMoreFiles(v, inv)),
    services.commands.register('datagrok.files.newFile', (inv) => newFile(v, inv)),
    services.commands.register('datagrok.files.newFolder', (inv) => newFolder(v, inv)),
    services.commands.register('datagrok.files.delete', (inv) => deleteFile(v, inv)),
  );
  // A mount that reloaded the window: its editors come back (a no-op on any other start).
  void reopenEditorsAfterMount(services.context.globalState, services.log).catch((e: unknown) =>
    services.log.warn(`Reopening editors after a mount failed: ${e instanceof Error ? e.message : String(e)}`),
  );
  return { filesTree: files, filesDragAndDrop: dragAndDrop };
}

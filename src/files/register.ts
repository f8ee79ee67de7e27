import * as vscode from 'vscode';
import type { Services } from '../services';
import { copyDatagrokPath, downloadConnectorFile, mountConnector, offerDownload, openConnectorFile, uploadToConnector } from './commands';
import { ConnectorFileSystem } from './connectorFileSystem';
import { SCHEME } from './uris';

/** Registers the files feature: the `datagrok` file system (connector files) and its commands. */
export function registerFiles(services: Services): void {
  const fs = new ConnectorFileSystem(services.connection, services.platform.knownFiles, offerDownload);
  services.context.subscriptions.push(
    fs,
    vscode.workspace.registerFileSystemProvider(SCHEME, fs, { isCaseSensitive: true }),
    services.commands.register('datagrok.files.open', (inv) => openConnectorFile(services, fs, inv)),
    services.commands.register('datagrok.files.mount', (inv) => mountConnector(services, fs, inv)),
    services.commands.register('datagrok.files.download', (inv) => downloadConnectorFile(services, inv)),
    services.commands.register('datagrok.files.upload', (inv) => uploadToConnector(services, fs, inv)),
    services.commands.register('datagrok.files.copyPath', (inv) => copyDatagrokPath(inv)),
  );
}

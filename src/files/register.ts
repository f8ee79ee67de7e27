import * as vscode from 'vscode';
import type { Services } from '../services';
import { offerDownload, registerFileCommands } from './commands';
import { ConnectorFileSystem } from './connectorFileSystem';
import { SCHEME } from './uris';

/** Registers the files feature: the `datagrok` file system (connector files) and its commands. */
export function registerFiles(services: Services): void {
  const fs = new ConnectorFileSystem(services.connection, services.platform.knownFiles, offerDownload);
  services.context.subscriptions.push(
    fs,
    vscode.workspace.registerFileSystemProvider(SCHEME, fs, { isCaseSensitive: true }),
    ...registerFileCommands(services, fs),
  );
}

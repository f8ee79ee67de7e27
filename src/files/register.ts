import * as vscode from 'vscode';
import type { Services } from '../core/services';
import { offerDownload, registerFileCommands } from './commands';
import { ConnectorFileSystem } from './connectorFileSystem';
import { KnownFiles } from './knownFiles';
import { SCHEME } from './uris';

/** Registers the files feature: the `datagrok` file system (connector files) and its commands. */
export function registerFiles(services: Services): void {
  const known = new KnownFiles(services.context.workspaceState);
  const fs = new ConnectorFileSystem(services.connection, known, offerDownload);
  services.context.subscriptions.push(
    fs,
    vscode.workspace.registerFileSystemProvider(SCHEME, fs, { isCaseSensitive: true }),
    ...registerFileCommands(services, fs),
  );
}

// The `datagrok` debug type: VS Code asks it for configurations (a new launch.json's initial ones, the
// Run and Debug view's dynamic list: one per package in the folder) and to resolve one on F5. Resolving
// runs the pre-launch steps (packageLaunch.ts) under a cancellable progress and hands back a `pwa-chrome`
// configuration, which VS Code's built-in JavaScript debugger launches. Nothing here writes launch.json:
// VS Code writes the initial configurations only into a new one, never over the user's.
import * as vscode from 'vscode';
import { DatagrokError } from '../api/errors';
import { withCancellableProgress } from '../core/progress';
import { configurationsFor, type DatagrokLaunch } from '../platform/packages/debug/debugConfiguration';
import type { Services } from '../services';
import { prepareLaunch } from './packageLaunch';

export class PackageDebugProvider implements vscode.DebugConfigurationProvider {
  constructor(private readonly services: Services) {}

  provideDebugConfigurations(folder: vscode.WorkspaceFolder | undefined): vscode.DebugConfiguration[] {
    const roots = folder ? [folder] : (vscode.workspace.workspaceFolders ?? []);
    return roots.filter((f) => f.uri.scheme === 'file').flatMap((f) => configurationsFor(f.uri.fsPath));
  }

  /** F5 with no launch.json and this debugger picked: an empty configuration, filled in here. */
  resolveDebugConfiguration(_folder: vscode.WorkspaceFolder | undefined, config: vscode.DebugConfiguration): vscode.DebugConfiguration {
    if (!config.type && !config.request && !config.name) return { type: 'datagrok', request: 'launch', name: 'Debug the package on Datagrok' };
    return config;
  }

  async resolveDebugConfigurationWithSubstitutedVariables(
    folder: vscode.WorkspaceFolder | undefined,
    config: vscode.DebugConfiguration,
  ): Promise<vscode.DebugConfiguration | undefined> {
    const { log } = this.services;
    try {
      return (await withCancellableProgress(`Debug ${config.name ?? 'package'}`, (progress, signal) =>
        prepareLaunch(this.services, config as DatagrokLaunch, folder?.uri.fsPath, progress, signal),
      )) as vscode.DebugConfiguration;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof DatagrokError && error.kind === 'cancelled') return undefined;
      log.error(`Debug ${config.name ?? 'package'} failed: ${message}`);
      const actions = error instanceof DatagrokError && error.kind === 'unauthorized' ? ['Sign In', 'Show Log'] : ['Show Log'];
      void vscode.window.showErrorMessage(message, ...actions).then((choice) => {
        if (choice === 'Sign In') void vscode.commands.executeCommand('datagrok.signIn');
        if (choice === 'Show Log') log.show(true);
      });
      // undefined aborts the launch (null would open launch.json).
      return undefined;
    }
  }
}

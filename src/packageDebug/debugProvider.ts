// The `datagrok` debug type: VS Code asks it for configurations (a new launch.json's initial ones, the
// Run and Debug view's dynamic list: one per package in the folder) and to resolve one on F5. Resolving
// runs the pre-launch steps (packageLaunch.ts) under a cancellable progress and hands back a `pwa-chrome`
// configuration, which VS Code's built-in JavaScript debugger launches. Nothing here writes launch.json:
// VS Code writes the initial configurations only into a new one, never over the user's.
import * as os from 'node:os';
import * as vscode from 'vscode';
import { badInput, DatagrokError } from '../api/errors';
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

  /**
   * Resolves here, before VS Code substitutes variables: a debug type may change only at this stage (VS Code
   * then activates and asks the new type's debugger, js-debug, for both stages). So `package` and
   * `runtimeExecutable` have their variables substituted here (substituteVariables). F5 with no launch.json
   * and this debugger picked comes with an empty configuration: it debugs the package found.
   */
  async resolveDebugConfiguration(folder: vscode.WorkspaceFolder | undefined, given: vscode.DebugConfiguration): Promise<vscode.DebugConfiguration | undefined> {
    const config = (given.type ? given : { ...given, type: 'datagrok', request: 'launch', name: 'Debug the package on Datagrok' }) as vscode.DebugConfiguration & DatagrokLaunch;
    const { log } = this.services;
    try {
      const launch: DatagrokLaunch = { ...config, package: substituteVariables(config.package, folder), runtimeExecutable: substituteVariables(config.runtimeExecutable, folder) };
      return (await withCancellableProgress(`Debug ${config.name ?? 'package'}`, (progress, signal) =>
        prepareLaunch(this.services, launch, folder?.uri.fsPath, progress, signal),
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

/** The variables a path in launch.json may hold: `${workspaceFolder}` (`:name` too), its basename, `${userHome}`, `${env:NAME}`. */
export function substituteVariables(value: string | undefined, folder: vscode.WorkspaceFolder | undefined): string | undefined {
  if (value === undefined) return undefined;
  const named = (name: string) => vscode.workspace.workspaceFolders?.find((f) => f.name === name);
  return value.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
    const [kind, arg] = name.split(':', 2);
    const target = arg !== undefined && kind === 'workspaceFolder' ? named(arg) : (folder ?? vscode.workspace.workspaceFolders?.[0]);
    if (kind === 'workspaceFolder' && target) return target.uri.fsPath;
    if (kind === 'workspaceFolderBasename' && target) return target.name;
    if (kind === 'userHome') return os.homedir();
    if (kind === 'env' && arg !== undefined) return process.env[arg] ?? '';
    throw badInput(`The launch configuration's ${whole} cannot be used in "package" or "runtimeExecutable": give a path, or \${workspaceFolder}/….`);
  });
}

// The stand-in of the debug type package.json contributes (`datagrok`, src/packageDebug): VS Code asks it
// for configurations and to resolve one (F5); the first call loads the features, which attach the real
// provider (Contributions.debugConfigurations).
import * as vscode from 'vscode';
import { Forward } from './standIns';

export const DEBUG_TYPE = 'datagrok';

export class DebugConfigurationStandIn extends Forward<vscode.DebugConfigurationProvider> implements vscode.DebugConfigurationProvider {
  provideDebugConfigurations(folder: vscode.WorkspaceFolder | undefined, token?: vscode.CancellationToken): vscode.ProviderResult<vscode.DebugConfiguration[]> {
    return this.real().provideDebugConfigurations?.(folder, token);
  }

  resolveDebugConfiguration(
    folder: vscode.WorkspaceFolder | undefined,
    config: vscode.DebugConfiguration,
    token?: vscode.CancellationToken,
  ): vscode.ProviderResult<vscode.DebugConfiguration> {
    const real = this.real();
    return real.resolveDebugConfiguration ? real.resolveDebugConfiguration(folder, config, token) : config;
  }

  resolveDebugConfigurationWithSubstitutedVariables(
    folder: vscode.WorkspaceFolder | undefined,
    config: vscode.DebugConfiguration,
    token?: vscode.CancellationToken,
  ): vscode.ProviderResult<vscode.DebugConfiguration> {
    const real = this.real();
    return real.resolveDebugConfigurationWithSubstitutedVariables ? real.resolveDebugConfigurationWithSubstitutedVariables(folder, config, token) : config;
  }

  /**
   * Registers it for the initial configurations and resolving, and its list alone for the dynamic ones
   * (a resolver registered twice would run twice).
   */
  register(): vscode.Disposable {
    const { Initial, Dynamic } = vscode.DebugConfigurationProviderTriggerKind;
    const list: vscode.DebugConfigurationProvider = { provideDebugConfigurations: (folder, token) => this.provideDebugConfigurations(folder, token) };
    return vscode.Disposable.from(
      vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, this, Initial),
      vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, list, Dynamic),
    );
  }
}

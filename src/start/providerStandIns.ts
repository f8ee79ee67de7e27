// Stand-ins of the debug type and the Test Explorer's controllers. The debug type package.json contributes
// (`datagrok`, src/packageDebug): VS Code asks it for configurations and to resolve one (F5, before
// variables are substituted: the only stage at which a configuration may change its type); the first call
// loads the features, which attach the real provider (Contributions.debugConfigurations).
import * as vscode from 'vscode';
import { Forward, type Load } from './standIns';

export class DebugConfigurationStandIn extends Forward<vscode.DebugConfigurationProvider> {
  /**
   * Registers the list and the resolver for the initial configurations and F5, and the list alone for the
   * dynamic ones (a resolver registered twice would run twice).
   */
  register(): vscode.Disposable {
    const { Initial, Dynamic } = vscode.DebugConfigurationProviderTriggerKind;
    const list: vscode.DebugConfigurationProvider = { provideDebugConfigurations: (folder, token) => this.real().provideDebugConfigurations?.(folder, token) };
    const resolve: vscode.DebugConfigurationProvider = {
      ...list,
      resolveDebugConfiguration: (folder, config, token) => this.real().resolveDebugConfiguration?.(folder, config, token),
    };
    return vscode.Disposable.from(
      vscode.debug.registerDebugConfigurationProvider('datagrok', resolve, Initial),
      vscode.debug.registerDebugConfigurationProvider('datagrok', list, Dynamic),
    );
  }
}

/**
 * A Test Explorer controller made at activation: until the features replace its resolve handler, the Test
 * Explorer asking for its items loads them and asks again.
 */
export function testControllerStandIn(made: { id: string; label: string }, load: Load): vscode.TestController {
  const controller = vscode.tests.createTestController(made.id, made.label);
  const standIn = async (item: vscode.TestItem | undefined) => {
    load();
    if (controller.resolveHandler !== standIn) await controller.resolveHandler?.(item);
  };
  controller.resolveHandler = standIn;
  return controller;
}

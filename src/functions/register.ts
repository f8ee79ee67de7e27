import * as vscode from 'vscode';
import type { Services } from '../core/services';
import { RecentEntities } from '../tables/recent';
import { PARAMETER_FILE_SELECTOR, ParameterFileLensProvider, trackParameterFileContext } from './parameterFileLens';
import { runFunctionCommand } from './runCommand';

/** Registers the functions feature: run a function from a parameter file, its CodeLens and context key. */
export function registerFunctions(services: Services): void {
  const tables = new RecentEntities(services.context.workspaceState, 'tables');
  services.context.subscriptions.push(
    services.commands.register('datagrok.functions.run', (inv) => runFunctionCommand(services, tables, inv)),
    vscode.languages.registerCodeLensProvider(PARAMETER_FILE_SELECTOR, new ParameterFileLensProvider()),
    trackParameterFileContext(),
  );
}

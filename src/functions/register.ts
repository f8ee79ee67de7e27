import * as vscode from 'vscode';
import type { Services } from '../services';
import { PARAMETER_FILE_SELECTOR, ParameterFileLensProvider, trackParameterFileContext } from './parameterFileLens';
import { runFunctionCommand } from './runCommand';

/** Registers the functions feature: run a function from a parameter file, its CodeLens and context key. */
export function registerFunctions(services: Services): void {
  const { tables } = services.platform;
  services.context.subscriptions.push(
    services.commands.register('datagrok.functions.run', (inv) => runFunctionCommand(services, tables, inv)),
    vscode.languages.registerCodeLensProvider(PARAMETER_FILE_SELECTOR, new ParameterFileLensProvider()),
    trackParameterFileContext(),
  );
}

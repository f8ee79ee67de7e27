// The scripts feature: Datagrok scripts and queries written in the editor. Their header gets completion,
// hover, an outline, diagnostics and lenses (registered when the features load: the extension's entry
// loads them as soon as such a file is shown, src/start/parameterFileWatch.ts); their commands run the
// editor's text on the server without replacing the saved function (asking its inputs), push it, pull one.
import * as vscode from 'vscode';
import { SCRIPT_CELL_SELECTOR, SCRIPT_FILE_SELECTOR } from '../core/scriptFiles';
import type { Services } from '../services';
import { HeaderCompletionProvider } from './headerCompletion';
import { HeaderDiagnostics } from './headerDiagnostics';
import { HeaderHoverProvider } from './headerHover';
import { HeaderLensProvider } from './headerLens';
import { HeaderSymbolProvider } from './headerSymbols';
import { PULLED_SCHEME, PulledScripts } from './pulledScripts';
import { pullScriptCommand, savePulledAsCommand } from './pullScript';
import { newScriptParameterFile, pushScriptCommand, runScriptCommand, type ScriptsContext } from './scriptCommands';

export function registerScripts(services: Services): HeaderDiagnostics {
  const { connection, commands, context } = services;
  const { catalog } = services.platform;
  const connections = async () => {
    if (!connection.isSignedIn) return undefined;
    try {
      return (await catalog.allConnections()).map((c) => c.nqName);
    } catch {
      return undefined;
    }
  };
  const diagnostics = new HeaderDiagnostics(connections, (listener) => connection.onDidChange(() => listener()));
  const c: ScriptsContext = { services, diagnostics };
  const pulled = new PulledScripts(services);
  // A Datagrok notebook's script and query cells get the header's completion and hover (checks too: by their header).
  const cellsToo = [SCRIPT_FILE_SELECTOR, SCRIPT_CELL_SELECTOR].flat();
  context.subscriptions.push(
    diagnostics,
    vscode.languages.registerCompletionItemProvider(cellsToo, new HeaderCompletionProvider(async () => (await connections()) ?? []), ':', '{', ';'),
    vscode.languages.registerHoverProvider(cellsToo, new HeaderHoverProvider()),
    vscode.languages.registerDocumentSymbolProvider(SCRIPT_FILE_SELECTOR, new HeaderSymbolProvider(), { label: 'Datagrok header' }),
    vscode.languages.registerCodeLensProvider(SCRIPT_FILE_SELECTOR, new HeaderLensProvider()),
    commands.register('datagrok.scripts.run', (inv) => runScriptCommand(c, inv)),
    commands.register('datagrok.scripts.push', (inv) => pushScriptCommand(c, inv)),
    pulled,
    services.contributions.textContent(PULLED_SCHEME, pulled),
    commands.register('datagrok.scripts.pull', (inv) => pullScriptCommand(c, pulled, inv)),
    commands.register('datagrok.scripts.savePulledAs', (inv) => savePulledAsCommand(pulled, inv)),
    commands.register('datagrok.scripts.newParameterFile', (inv) => newScriptParameterFile(c, inv)),
  );
  return diagnostics;
}

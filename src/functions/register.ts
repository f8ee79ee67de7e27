import { hostOf } from '../api/names';
import type { Services } from '../services';
import type { ExplorerNode, ExplorerTree } from '../ui/explorerTree';
import { FUNCTIONS_VIEW, FunctionsTree } from './functionsTree';
import { ParameterFileCompletionProvider } from './parameterFileCompletion';
import { ParameterFileDiagnostics } from './parameterFileDiagnostics';
import { ParameterFileFixProvider } from './parameterFileFixes';
import { ParameterFileHoverProvider } from './parameterFileHover';
import { ParameterFileLensProvider, trackParameterFileContext } from './parameterFileLens';
import { registerRuns } from './registerRuns';
import { SCHEMA_SCHEME, SchemaProvider } from './schemaProvider';
import { signatureOf } from './parameterFileSignature';
import { copyFunctionName, type FunctionsView, newParameterFile, refreshFunctions, runFunction, searchFunctions, showMoreFunctions } from './viewCommands';

/**
 * Registers the functions feature: the Functions view and its commands, running a function from a
 * parameter file (or from the view), its CodeLens and context key, the Runs view and result documents.
 * Returns the views' data providers.
 */
export function registerFunctions(services: Services): { functionsTree: FunctionsTree; runsTree: ExplorerTree } {
  const { context, connection, log } = services;
  const { catalog } = services.platform;
  const tree = new FunctionsTree(catalog, connection, log);
  const view = services.contributions.treeView<ExplorerNode>(FUNCTIONS_VIEW, { treeDataProvider: tree, showCollapseAll: true });
  const { runs, tree: runsTree } = registerRuns(services);
  const lenses = new ParameterFileLensProvider(async (name) => (await signatureOf(services, name))?.description);
  const v: FunctionsView = { services, tree, view, runs };

  // The view's description: the search it shows, else the server.
  const describe = () => {
    let server: string | undefined;
    try {
      server = connection.isSignedIn ? hostOf(connection.baseUrl()) : undefined;
    } catch {
      server = undefined;
    }
    view.description = tree.search ? `Search: ${tree.search}` : server;
  };
  describe();

  const { commands, contributions } = services;
  context.subscriptions.push(
    tree,
    view,
    tree.onDidChangeTreeData(describe),
    catalog.onDidChange(() => tree.refresh()),
    connection.onDidChange(() => {
      describe();
      tree.refresh();
    }),
    commands.register('datagrok.functions.run', (inv) => runFunction(v, inv)),
    commands.register('datagrok.functions.refresh', (inv) => refreshFunctions(v, inv)),
    commands.register('datagrok.functions.showMore', (inv) => showMoreFunctions(v, inv)),
    commands.register('datagrok.functions.search', (inv) => searchFunctions(v, inv)),
    commands.register('datagrok.functions.newParameterFile', (inv) => newParameterFile(v, inv)),
    commands.register('datagrok.functions.copyName', (inv) => copyFunctionName(v, inv)),
    lenses,
    contributions.textContent(SCHEMA_SCHEME, new SchemaProvider(services)),
    catalog.onDidChange(() => lenses.refresh()),
    connection.onDidChange(() => lenses.refresh()),
    contributions.codeLens(lenses),
    trackParameterFileContext(),
    // Parameter files know their function: completion, hover, diagnostics and their quick fixes.
    contributions.completion(new ParameterFileCompletionProvider(services), '"', ':', '/'),
    contributions.hover(new ParameterFileHoverProvider(services)),
    contributions.codeActions(new ParameterFileFixProvider(services), { providedCodeActionKinds: ParameterFileFixProvider.kinds }),
    new ParameterFileDiagnostics(services),
  );
  return { functionsTree: tree, runsTree };
}

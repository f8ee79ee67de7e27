// Parameter files' diagnostics and the editor title's Run button (`datagrok.editorIsParameterFile`) come
// from the features, which look at documents shown or edited. Before they are loaded, this watch loads
// them as soon as a document that may be a parameter file is shown or edited; other JSON documents (a
// settings file, chatLanguageModels.json) load nothing. Likewise a Datagrok package's file (its grok check
// findings come from the features). It ends once the features are loaded.
import * as vscode from 'vscode';
import { mayBeParameterFile } from '../core/parameterFileNames';
import { mayBePackageFile } from '../core/packageFileNames';
import { mayBeScript } from '../core/scriptFileNames';

export function watchForParameterFiles(loaded: () => boolean, load: () => void): vscode.Disposable {
  // A Datagrok script or query (its header's completion, outline and lenses come from the features too),
  // or a Datagrok package's file (grok check's findings).
  const mayBe = (document: vscode.TextDocument) => {
    const text = () => document.getText();
    const { languageId, uri } = document;
    return mayBeParameterFile(languageId, uri.path, text) || mayBeScript(languageId, uri.path, text) || mayBePackageFile(uri.path, text);
  };
  const subscriptions: vscode.Disposable[] = [];
  let first: NodeJS.Timeout | undefined;
  const stop = () => {
    for (const s of subscriptions.splice(0)) s.dispose();
    clearTimeout(first);
  };
  const check = (documents: readonly vscode.TextDocument[]) => {
    if (loaded()) return stop();
    if (!documents.some(mayBe)) return;
    stop();
    try {
      load();
    } catch {
      // Shown by the loader; the stand-ins report it again on use.
    }
  };
  const shown = () => check(vscode.window.visibleTextEditors.map((e) => e.document));
  subscriptions.push(
    vscode.window.onDidChangeVisibleTextEditors(shown),
    // A document's language can change (plain text → JSON) without the editor changing.
    vscode.workspace.onDidOpenTextDocument(shown),
    vscode.workspace.onDidChangeTextDocument((e) => check([e.document])),
  );
  // The editors already shown: looked at just after activation, which they did not ask for.
  first = setTimeout(shown, 0);
  return new vscode.Disposable(stop);
}

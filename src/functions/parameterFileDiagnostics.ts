// Diagnostics of parameter files against their function's signature, kept up to date as files are shown
// and changed (debounced), and when the server or sign-in changes. Nothing is reported while signed out or
// when the server cannot be reached: only what is known to be wrong.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isDatagrokError } from '../api/errors';
import type { FuncInfo } from '../api/types';
import { KeyedDebounce } from '../core/debounce';
import { isNotebookCell } from '../core/scriptFiles';
import { jsoncParser } from '../platform/lazyModules';
import { type ParameterProblem, checkParameters, closestName, rootOf } from './parameterChecks';
import { declaredFunction, declaredScript, FUNCTION_KEY, functionNameProblem, SCRIPT_KEY } from './parameterFile';
import { isParameterFile } from './parameterFileLens';
import { allFunctions, type SignatureSource, scriptSignature } from './parameterFileSignature';
import { missingTableProblems, placeholderProblems } from './parameterTableChecks';
import { hostOf } from '../api/names';
import { NOTEBOOK_TYPE } from '../platform/notebook/format';

export const DIAGNOSTIC_SOURCE = 'Datagrok';
const DEBOUNCE_MS = 250;

export class ParameterFileDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('datagrok-parameters');
  private readonly debounce = new KeyedDebounce(DEBOUNCE_MS);
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly source: SignatureSource) {
    // Only files shown in an editor, or edited, are checked: a document opened only to be read (running a
    // file) and a refresh of the catalog (views asking again) cost no calls to the server. A Datagrok
    // notebook shown in an editor has every cell checked, also those scrolled out of view (no editor then);
    // one VS Code keeps open after its editor closed is not.
    const checkVisible = () => {
      for (const editor of vscode.window.visibleTextEditors) this.schedule(editor.document);
      for (const { notebook } of vscode.window.visibleNotebookEditors)
        if (notebook.notebookType === NOTEBOOK_TYPE) for (const cell of notebook.getCells()) this.schedule(cell.document);
    };
    this.subscriptions = [
      vscode.window.onDidChangeVisibleTextEditors(checkVisible),
      vscode.window.onDidChangeVisibleNotebookEditors(checkVisible),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri)),
      // Another server or signed out: what was said no longer holds.
      source.connection.onDidChange(() => {
        this.collection.clear();
        checkVisible();
      }),
    ];
    checkVisible();
  }

  private schedule(document: vscode.TextDocument): void {
    if (!isParameterFile(document)) {
      this.forget(document.uri);
      return;
    }
    this.debounce.schedule(document.uri.toString(), () => void this.check(document));
  }

  private forget(uri: vscode.Uri): void {
    this.debounce.cancel(uri.toString());
    this.collection.delete(uri);
  }

  private async check(document: vscode.TextDocument): Promise<void> {
    const version = document.version;
    const problems = await this.problemsOf(document);
    if (document.isClosed || document.version !== version) return;
    if (!problems) this.collection.delete(document.uri);
    else
      this.collection.set(
        document.uri,
        problems.map((p) => toDiagnostic(document, p)),
      );
  }

  /** The file's problems, or undefined when nothing can be said now (signed out, server unreachable). */
  private async problemsOf(document: vscode.TextDocument): Promise<ParameterProblem[] | undefined> {
    const text = document.getText();
    const exists = (dir: string | undefined) => (dir === undefined ? undefined : (p: string) => fs.existsSync(path.resolve(dir, p)));
    const script = declaredScript(text);
    if (script) {
      // A local script's inputs: checked against its header, signed in or not.
      const func = await scriptSignature(document.uri, script.path);
      const node = jsoncParser().findNodeAtLocation(rootOf(text)!, [SCRIPT_KEY])!;
      if (!func)
        return [{ code: 'unknownFunction', message: `"${script.path}" is not a script with a Datagrok header (or cannot be read).`, offset: node.offset, length: node.length }];
      return checkParameters(text, func, exists(document.uri.scheme === 'file' ? path.dirname(document.uri.fsPath) : undefined));
    }
    if (!this.source.connection.isSignedIn) return undefined;
    const declared = declaredFunction(text);
    const root = declared && rootOf(text);
    const node = root ? jsoncParser().findNodeAtLocation(root, [FUNCTION_KEY]) : undefined;
    if (!declared || !node) return [];
    const at = { offset: node.offset, length: node.length };
    const badName = functionNameProblem(declared.name);
    if (badName) return [{ code: 'unknownFunction', message: badName, ...at }];
    let func: FuncInfo;
    try {
      func = await this.source.platform.catalog.funcOrLastKnown(declared.name.trim());
    } catch (e) {
      if (!isDatagrokError(e, 'notFound')) return undefined;
      const near = closestName(
        declared.name.trim(),
        (await allFunctions(this.source)).map((f) => f.nqName),
      );
      return [{ code: 'unknownFunction', message: `The server has no function "${declared.name}".${near ? ` Did you mean ${near}?` : ''}`, ...at }];
    }
    const dir = document.uri.scheme === 'file' ? path.dirname(document.uri.fsPath) : undefined;
    const problems = checkParameters(text, func, dir === undefined ? undefined : (p) => fs.existsSync(path.resolve(dir, p)));
    // Values of the wrong type are already said; the tables the others name are asked once (cached).
    const wrong = new Set(problems.filter((p) => p.code === 'wrongType').map((p) => p.input));
    const { tableColumns } = this.source.platform;
    // A notebook's parameter-object cell names the notebook's tables by their variables' names, not the server's.
    const onServer = isNotebookCell(document.uri) ? [] : await missingTableProblems(text, func, hostOf(this.source.connection.baseUrl()), (table) => tableColumns.columnsOf(table));
    return [...problems, ...placeholderProblems(text, func), ...onServer.filter((p) => !wrong.has(p.input))];
  }

  dispose(): void {
    this.debounce.dispose();
    for (const s of this.subscriptions) s.dispose();
    this.collection.dispose();
  }
}

function toDiagnostic(document: vscode.TextDocument, p: ParameterProblem): vscode.Diagnostic {
  const range = new vscode.Range(document.positionAt(p.offset), document.positionAt(p.offset + p.length));
  const severity = p.code === 'missingCsv' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error;
  const diagnostic = new vscode.Diagnostic(range, p.message, severity);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = p.code;
  return diagnostic;
}

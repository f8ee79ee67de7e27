// Diagnostics of script headers (unknown type, duplicate input, missing name or language, a connection the
// server does not have), kept up to date as scripts are shown and edited (debounced); and the line a run's
// error names, until the script is edited.
import * as vscode from 'vscode';
import { KeyedDebounce } from '../core/debounce';
import { isNotebookCell, scriptHeaderOf } from '../core/scriptFiles';
import { headerProblems } from '../platform/scripts/signature';

export const DIAGNOSTIC_SOURCE = 'Datagrok';
const DEBOUNCE_MS = 250;

export class HeaderDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('datagrok-scripts');
  private readonly runErrors = vscode.languages.createDiagnosticCollection('datagrok-script-runs');
  private readonly debounce = new KeyedDebounce(DEBOUNCE_MS);
  private readonly subscriptions: vscode.Disposable[];

  /** `connections`: the active server's connection names, or undefined when they cannot be known now. */
  constructor(
    private readonly connections: () => Promise<string[] | undefined>,
    onServerChange: vscode.Event<void>,
  ) {
    const checkVisible = () => {
      for (const editor of vscode.window.visibleTextEditors) this.schedule(editor.document);
    };
    this.subscriptions = [
      vscode.window.onDidChangeVisibleTextEditors(checkVisible),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.runErrors.delete(e.document.uri);
        this.schedule(e.document);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.collection.delete(d.uri);
        this.runErrors.delete(d.uri);
      }),
      onServerChange(checkVisible),
    ];
    checkVisible();
  }

  /** Checks a document now (after a save, a run, or in tests). */
  async check(document: vscode.TextDocument): Promise<void> {
    const header = scriptHeaderOf(document);
    if (!header) {
      this.collection.delete(document.uri);
      return;
    }
    const connections = header.value('connection') !== undefined ? await this.connections().catch(() => undefined) : undefined;
    if (document.isClosed) return;
    const current = scriptHeaderOf(document);
    if (!current) return;
    this.collection.set(
      document.uri,
      headerProblems(current, connections, isNotebookCell(document.uri)).map((p) => {
        const end = p.end > p.start ? p.end : document.lineAt(p.line).text.length;
        const d = new vscode.Diagnostic(
          new vscode.Range(p.line, p.start, p.line, end),
          p.message,
          p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
        );
        d.source = DIAGNOSTIC_SOURCE;
        return d;
      }),
    );
  }

  /** The error of a run, on the line it names (1-based), until the script is edited. */
  showRunError(document: vscode.TextDocument, line: number | undefined, message: string): void {
    const at = line !== undefined && line >= 1 && line <= document.lineCount ? document.lineAt(line - 1).range : new vscode.Range(0, 0, 0, 0);
    const d = new vscode.Diagnostic(at, message, vscode.DiagnosticSeverity.Error);
    d.source = 'Datagrok run';
    this.runErrors.set(document.uri, [d]);
  }

  clearRunError(uri: vscode.Uri): void {
    this.runErrors.delete(uri);
  }

  private schedule(document: vscode.TextDocument): void {
    this.debounce.schedule(document.uri.toString(), () => void this.check(document));
  }

  dispose(): void {
    this.debounce.dispose();
    for (const s of this.subscriptions) s.dispose();
    this.collection.dispose();
    this.runErrors.dispose();
  }
}

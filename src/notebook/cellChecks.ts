// The checks of a Datagrok notebook's cells as the user types (debounced per notebook): a call cell that
// cannot be read (where), a function the server does not have, an argument naming no input, a required
// input missing, a variable no cell above makes (and the cell below that does); a script or query cell's
// table input no cell above makes. Again when a cell runs (the variables change) and on another server.
import * as vscode from 'vscode';
import { KeyedDebounce } from '../core/debounce';
import { allFunctions } from '../platform/functions/lookups';
import { type CellProblem, callProblems, scriptCellProblems } from '../platform/notebook/callAssist';
import { CALL_LANGUAGE, cellKind, parseCallLayout } from '../platform/notebook/cells';
import { NOTEBOOK_TYPE } from '../platform/notebook/format';
import { type CellFactsSource, notebookFacts } from './cellFacts';

export const CELL_CHECKS_SOURCE = 'Datagrok';
const DEBOUNCE_MS = 300;

export class NotebookCellChecks implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('datagrok-notebook-cells');
  private readonly debounce = new KeyedDebounce(DEBOUNCE_MS);
  /** The cells each notebook has diagnostics on, to clear those of cells since deleted. */
  private readonly marked = new Map<string, Set<string>>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly source: CellFactsSource & { readonly connection: { onDidChange: vscode.Event<unknown> } },
    sessionsChanged: vscode.Event<void>,
  ) {
    // Notebooks shown in an editor are checked, and one being edited or run; one VS Code keeps open after
    // its editor closed costs no calls to the server (a sign-in drops what was said of it, and it is checked
    // again when shown).
    const visible = () => {
      for (const { notebook } of vscode.window.visibleNotebookEditors) this.schedule(notebook);
    };
    const again = () => {
      const shown = new Set(vscode.window.visibleNotebookEditors.map((e) => e.notebook));
      for (const n of vscode.workspace.notebookDocuments) if (!shown.has(n)) this.forget(n);
      visible();
    };
    this.subscriptions = [
      vscode.window.onDidChangeVisibleNotebookEditors(visible),
      vscode.workspace.onDidChangeNotebookDocument((e) => this.schedule(e.notebook)),
      vscode.workspace.onDidCloseNotebookDocument((n) => this.forget(n)),
      sessionsChanged(again),
      source.connection.onDidChange(again),
    ];
    visible();
  }

  private schedule(notebook: vscode.NotebookDocument): void {
    if (notebook.notebookType !== NOTEBOOK_TYPE) return;
    this.debounce.schedule(notebook.uri.toString(), () => void this.check(notebook));
  }

  private forget(notebook: vscode.NotebookDocument): void {
    const key = notebook.uri.toString();
    this.debounce.cancel(key);
    for (const uri of this.marked.get(key) ?? []) this.collection.delete(vscode.Uri.parse(uri));
    this.marked.delete(key);
  }

  /** Checks every cell of a notebook now (also what tests call after an edit). */
  async check(notebook: vscode.NotebookDocument): Promise<void> {
    const versions = notebook.getCells().map((c) => c.document.version);
    const facts = await notebookFacts(this.source, notebook);
    const missing = [...facts.functions.values()].some((f) => f.missing);
    const functionNames = missing ? (await allFunctions(this.source)).map((f) => f.nqName) : undefined;
    const cells = notebook.getCells();
    if (notebook.isClosed || cells.length !== versions.length || cells.some((c, i) => c.document.version !== versions[i])) return;
    const key = notebook.uri.toString();
    const before = this.marked.get(key) ?? new Set<string>();
    const now = new Set<string>();
    for (const cell of cells) {
      const text = facts.cells[cell.index];
      let problems: CellProblem[] = [];
      if (cell.kind === vscode.NotebookCellKind.Code && text.language === CALL_LANGUAGE) {
        const name = functionOf(text.text);
        const found = name ? facts.functions.get(name.toLowerCase()) : undefined;
        problems = callProblems(text.text, { ...facts.at(cell.index), func: found?.func, missing: found?.missing, functionNames });
      } else if (cell.kind === vscode.NotebookCellKind.Code && cellKind(text.language) !== 'call') {
        problems = scriptCellProblems(text, facts.at(cell.index));
      }
      const uri = cell.document.uri.toString();
      if (problems.length === 0) {
        this.collection.delete(cell.document.uri);
        continue;
      }
      now.add(uri);
      this.collection.set(
        cell.document.uri,
        problems.map((p) => diagnosticOf(cell.document, p)),
      );
    }
    for (const uri of before) if (!now.has(uri)) this.collection.delete(vscode.Uri.parse(uri));
    this.marked.set(key, now);
  }

  dispose(): void {
    this.debounce.dispose();
    for (const s of this.subscriptions) s.dispose();
    this.collection.dispose();
  }
}

function functionOf(text: string): string | undefined {
  try {
    return parseCallLayout(text).function;
  } catch {
    return undefined;
  }
}

function diagnosticOf(document: vscode.TextDocument, p: CellProblem): vscode.Diagnostic {
  const range = new vscode.Range(document.positionAt(p.span.start), document.positionAt(p.span.end));
  const d = new vscode.Diagnostic(range, p.message, p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
  d.source = CELL_CHECKS_SOURCE;
  return d;
}

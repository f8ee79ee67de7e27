// What one open notebook knows while it runs: its variables, the execution order, what each cell read and
// wrote when it last ran, which cells are stale, and the run under way (to cancel it).
import * as vscode from 'vscode';
import type { FuncParam } from '../api/catalogTypes';
import { type CellFlow, NotebookVariables, staleBelow } from '../platform/notebook/variables';

const keyOf = (cell: vscode.NotebookCell) => cell.document.uri.toString();

export class NotebookSession {
  readonly variables = new NotebookVariables();
  /** The functions' declared outputs, read once per notebook session (src/platform/notebook/runCell.ts). */
  readonly signatures = new Map<string, Promise<FuncParam[]>>();
  order = 0;
  /** What each cell (by its document's URI) read and wrote when it last ran. */
  private readonly flows = new Map<string, CellFlow>();
  private readonly stale = new Set<string>();
  /** The run under way: aborting it abandons the server call (its temporary script is still deleted). */
  running: AbortController | undefined;
  /** Set by Interrupt: the cells still queued are not run. */
  interrupted = false;
  /** Runs of this notebook, one after another. */
  queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly changed: () => void) {}

  /** A cell ran: what it read and wrote; it is no longer stale, and the cells below that read what it wrote are. */
  ran(notebook: vscode.NotebookDocument, cell: vscode.NotebookCell, flow: CellFlow): void {
    this.flows.set(keyOf(cell), flow);
    this.stale.delete(keyOf(cell));
    this.markBelow(notebook, cell.index);
  }

  /** A cell's text changed: the cells below that took what it made are stale (it is too, if it ran). */
  edited(notebook: vscode.NotebookDocument, cell: vscode.NotebookCell): void {
    if (!this.flows.has(keyOf(cell))) return;
    this.stale.add(keyOf(cell));
    this.markBelow(notebook, cell.index);
  }

  private markBelow(notebook: vscode.NotebookDocument, index: number): void {
    const cells = notebook.getCells();
    const flows = cells.map((c) => this.flows.get(keyOf(c)) ?? { reads: [], writes: [] });
    for (const i of staleBelow(flows, index)) if (this.flows.has(keyOf(cells[i]))) this.stale.add(keyOf(cells[i]));
    this.changed();
  }

  isStale(cell: vscode.NotebookCell): boolean {
    return this.stale.has(keyOf(cell));
  }

  staleCells(notebook: vscode.NotebookDocument): number[] {
    return notebook.getCells().flatMap((c) => (this.isStale(c) ? [c.index] : []));
  }
}

/** The sessions of the open notebooks; a closed notebook's session is forgotten. */
export class NotebookSessions implements vscode.Disposable {
  private readonly sessions = new Map<string, NotebookSession>();
  private readonly changes = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changes.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      this.changes,
      vscode.workspace.onDidCloseNotebookDocument((n) => {
        this.sessions.get(n.uri.toString())?.running?.abort();
        this.sessions.delete(n.uri.toString());
        this.changes.fire();
      }),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        const session = this.sessions.get(e.notebook.uri.toString());
        if (!session) return;
        for (const change of e.cellChanges) if (change.document) session.edited(e.notebook, change.cell);
      }),
    ];
  }

  of(notebook: vscode.NotebookDocument): NotebookSession {
    const key = notebook.uri.toString();
    let session = this.sessions.get(key);
    if (!session) {
      session = new NotebookSession(() => this.changes.fire());
      this.sessions.set(key, session);
    }
    return session;
  }

  peek(notebook: vscode.NotebookDocument): NotebookSession | undefined {
    return this.sessions.get(notebook.uri.toString());
  }

  dispose(): void {
    for (const s of this.sessions.values()) s.running?.abort();
    for (const s of this.subscriptions) s.dispose();
  }
}

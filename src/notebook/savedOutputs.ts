// Outputs go into the notebook's file only when the notebook asks (its `saveOutputs` setting). VS Code is
// told outputs are transient (src/start/planned.ts NOTEBOOKS), so running a notebook whose file would not
// change does not mark it modified (nor ask "Save changes?" on close for nothing). A notebook that saves its
// outputs keeps their saved forms (src/platform/notebook/format.ts) in each code cell's metadata, which is
// part of the file: a run that changes them marks it modified, as it should.
import * as vscode from 'vscode';
import { NOTEBOOK_TYPE, type SavedOutput } from '../platform/notebook/format';
import { savedOf } from './outputs';

/** The cell metadata key of a cell's saved outputs. */
export const SAVED_OUTPUTS = 'datagrokOutputs';

/** The saved forms a cell's outputs carry. */
function savedForms(cell: vscode.NotebookCell): SavedOutput[] {
  return cell.outputs.flatMap((o) => savedOf(o) ?? []);
}

/** A cell's saved outputs, as its metadata holds them. */
export function savedOutputsOf(metadata: { [key: string]: unknown } | undefined): SavedOutput[] {
  const saved = metadata?.[SAVED_OUTPUTS];
  return Array.isArray(saved) ? (saved as SavedOutput[]) : [];
}

/** The edits that make each code cell's saved outputs its outputs' (`save`), or none (not `save`). */
function outputEdits(notebook: vscode.NotebookDocument, save: boolean): vscode.NotebookEdit[] {
  const edits: vscode.NotebookEdit[] = [];
  for (const cell of notebook.getCells()) {
    if (cell.kind !== vscode.NotebookCellKind.Code) continue;
    const want = save ? savedForms(cell) : [];
    if (JSON.stringify(want) === JSON.stringify(savedOutputsOf(cell.metadata))) continue;
    const { [SAVED_OUTPUTS]: _old, ...rest } = cell.metadata;
    edits.push(vscode.NotebookEdit.updateCellMetadata(cell.index, want.length > 0 ? { ...rest, [SAVED_OUTPUTS]: want } : rest));
  }
  return edits;
}

export class SavedOutputs implements vscode.Disposable {
  private pending: Promise<void> = Promise.resolve();
  private readonly listener = vscode.workspace.onDidChangeNotebookDocument((e) => {
    if (e.notebook.notebookType !== NOTEBOOK_TYPE || e.notebook.metadata.saveOutputs !== true) return;
    if (e.cellChanges.some((c) => c.outputs !== undefined)) void this.sync(e.notebook, true);
  });

  /** Brings the cells' saved outputs in line with `save`, after the edits already asked for. */
  sync(notebook: vscode.NotebookDocument, save: boolean): Promise<void> {
    this.pending = this.pending.then(async () => {
      const edits = outputEdits(notebook, save);
      if (edits.length === 0) return;
      const edit = new vscode.WorkspaceEdit();
      edit.set(notebook.uri, edits);
      await vscode.workspace.applyEdit(edit);
    });
    this.pending = this.pending.then(undefined, () => undefined);
    return this.pending;
  }

  /** Resolves when the edits asked for so far are applied (a run's outputs are in the metadata). */
  settled(): Promise<void> {
    return this.pending;
  }

  dispose(): void {
    this.listener.dispose();
  }
}

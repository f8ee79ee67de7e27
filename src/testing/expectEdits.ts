// Writing "$expect" into test files: the answer a case got ("Accept Actual"), or the answer of a plain
// parameter file's run ("Turn Into Test"). Both are the user's explicit action, so the edit is applied at
// once (no refactor preview) as one WorkspaceEdit that changes only the "$expect" values: one Undo in the
// file's editor reverts it. A file that had no unsaved changes is saved after.
import * as vscode from 'vscode';
import { valueChanges } from '../core/jsonc';
import { EXPECT_KEY } from '../platform/tests/cases';

export interface ExpectWrite {
  uri: vscode.Uri;
  /** The case's position in an array file; undefined for a single-case (object) file. */
  index?: number;
  value: unknown;
}

const pathOf = (w: { index?: number }) => (w.index === undefined ? [EXPECT_KEY] : [w.index, EXPECT_KEY]);

/** Applies the writes (one edit of all the files, each changed only where its "$expect" values are); returns the files changed. */
export async function writeExpectations(writes: readonly ExpectWrite[], label: string): Promise<vscode.Uri[]> {
  const byFile = new Map<string, ExpectWrite[]>();
  for (const w of writes) byFile.set(w.uri.toString(), [...(byFile.get(w.uri.toString()) ?? []), w]);
  const edit = new vscode.WorkspaceEdit();
  const documents: { document: vscode.TextDocument; wasDirty: boolean }[] = [];
  for (const group of byFile.values()) {
    const document = await vscode.workspace.openTextDocument(group[0].uri);
    const changes = valueChanges(
      document.getText(),
      group.map((w) => ({ path: pathOf(w), value: w.value })),
    );
    if (changes.length === 0) continue;
    documents.push({ document, wasDirty: document.isDirty });
    const metadata = { label, needsConfirmation: false, description: `${group.length} case${group.length === 1 ? '' : 's'}` };
    for (const c of changes) edit.replace(document.uri, new vscode.Range(document.positionAt(c.offset), document.positionAt(c.offset + c.length)), c.content, metadata);
  }
  if (documents.length === 0) return [];
  if (!(await vscode.workspace.applyEdit(edit))) {
    throw new Error(
      `Could not write "$expect" into ${documents.map((d) => vscode.workspace.asRelativePath(d.document.uri, false)).join(', ')}: VS Code refused the edit (is the file read-only?).`,
    );
  }
  for (const { document, wasDirty } of documents) if (!wasDirty) await document.save();
  return documents.map((d) => d.document.uri);
}

// Writing "$expect" into test files: the answer a case got ("Accept Actual"), or the answer of a plain
// parameter file's run ("Turn Into Test"). One WorkspaceEdit, shown for confirmation (VS Code's refactor
// preview) when the user started it; a file that had no unsaved changes is saved after.
import * as vscode from 'vscode';
import { UserCancelled } from '../core/commands';
import { jsoncParser } from '../platform/lazyModules';
import { EXPECT_KEY } from '../platform/tests/cases';

export interface ExpectWrite {
  uri: vscode.Uri;
  /** The case's position in an array file; undefined for a single-case (object) file. */
  index?: number;
  value: unknown;
}

/** The text with each "$expect" set (a key added where there was none). */
export function withExpectations(text: string, writes: readonly { index?: number; value: unknown }[]): string {
  const { applyEdits, modify } = jsoncParser();
  const indent = /\n( +)["{]/.exec(text)?.[1].length ?? 2;
  const formattingOptions = { insertSpaces: true, tabSize: Math.min(indent, 4), eol: text.includes('\r\n') ? '\r\n' : '\n' };
  let result = text;
  for (const w of writes) {
    const at = w.index === undefined ? [EXPECT_KEY] : [w.index, EXPECT_KEY];
    result = applyEdits(result, modify(result, at, w.value, { formattingOptions }));
  }
  return result;
}

/** Applies the writes, file by file; `confirm` shows the refactor preview first (a "Discard" there cancels). */
export async function writeExpectations(writes: readonly ExpectWrite[], confirm: boolean, label: string): Promise<vscode.Uri[]> {
  const byFile = new Map<string, ExpectWrite[]>();
  for (const w of writes) byFile.set(w.uri.toString(), [...(byFile.get(w.uri.toString()) ?? []), w]);
  const edit = new vscode.WorkspaceEdit();
  const documents: { document: vscode.TextDocument; wasDirty: boolean }[] = [];
  for (const group of byFile.values()) {
    const document = await vscode.workspace.openTextDocument(group[0].uri);
    const text = document.getText();
    const next = withExpectations(text, group);
    if (next === text) continue;
    documents.push({ document, wasDirty: document.isDirty });
    edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(text.length)), next, {
      label,
      needsConfirmation: confirm,
      description: `${group.length} case${group.length === 1 ? '' : 's'}`,
    });
  }
  if (documents.length === 0) return [];
  if (!(await vscode.workspace.applyEdit(edit))) throw new UserCancelled();
  for (const { document, wasDirty } of documents) if (!wasDirty) await document.save();
  return documents.map((d) => d.document.uri);
}

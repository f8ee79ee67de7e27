import * as vscode from 'vscode';

/** The largest file opened in an editor (setting datagrok.files.maxEditorFileSizeMB); larger ones go to disk. */
export function maxEditorBytes(): number {
  const mb = vscode.workspace.getConfiguration('datagrok.files').get<number>('maxEditorFileSizeMB', 50);
  return Math.max(1, mb) * 1024 * 1024;
}

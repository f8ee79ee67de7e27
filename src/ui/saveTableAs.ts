// Save As CSV of a table shown in the data view's grid (an editor's, or a notebook output's): the user picks where,
// the table's file is copied there whole, and what was saved is said.
import * as vscode from 'vscode';

/** Asks where to save `title`'s rows (a CSV file, `suggested` in the first workspace folder) and copies `localFile` there. */
export async function saveTableAs(title: string, localFile: string, suggested: string): Promise<vscode.Uri | undefined> {
  const name = suggested.replace(/[^\w.\- ]+/g, '_');
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    title: `Save ${title} As CSV`,
    filters: { CSV: ['csv'] },
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name.endsWith('.csv') ? name : `${name}.csv`) } : {}),
  });
  if (!target) return undefined;
  await vscode.workspace.fs.copy(vscode.Uri.file(localFile), target, { overwrite: true });
  void vscode.window.showInformationMessage(`Saved ${title} to ${target.fsPath || target.toString(true)}.`);
  return target;
}

// "Pick a Table…" on an error that names a table the server does not have (a run from a parameter
// file): the file is shown with the cursor in the value that names the table, and completion opens
// with the server's tables (parameterValueCompletion.ts). Nothing is written: the user picks.
import * as vscode from 'vscode';
import { isDatagrokError } from '../api/errors';
import { type ErrorAction, withErrorActions } from '../core/commands';
import { missingTableOf, valueNaming } from './parameterTableChecks';

/** The error, with "Pick a Table…" attached when it is a missing table of a parameter file's run. */
export function offerPickTable(error: unknown, fileUri: vscode.Uri | undefined): unknown {
  if (!fileUri || !(error instanceof Error) || !isDatagrokError(error, 'notFound')) return error;
  const table = missingTableOf(error.message);
  if (!table) return error;
  const action: ErrorAction = { title: 'Pick a Table…', run: () => pickTableIn(fileUri, table) };
  return withErrorActions(error, [action]);
}

async function pickTableIn(fileUri: vscode.Uri, table: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument(fileUri);
  const editor = await vscode.window.showTextDocument(document);
  const offset = valueNaming(document.getText(), table);
  if (offset === undefined) return;
  const at = document.positionAt(offset);
  editor.selection = new vscode.Selection(at, at);
  editor.revealRange(new vscode.Range(at, at));
  await vscode.commands.executeCommand('editor.action.triggerSuggest');
}

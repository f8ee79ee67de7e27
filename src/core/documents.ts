import * as path from 'node:path';
import * as vscode from 'vscode';
import { badInput } from '../api/errors';

/**
 * The text of a file as the user sees it: an open editor's text (unsaved edits included), else the
 * file's content. `what` names the file in messages, e.g. 'The layout file "x.json"'.
 */
export async function readUserText(uri: vscode.Uri, what = `The file "${path.posix.basename(uri.path)}"`): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) {
    return open.getText();
  }
  try {
    return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
  } catch (e) {
    throw badInput(`${what} cannot be read: ${e instanceof Error ? e.message : String(e)}`);
  }
}

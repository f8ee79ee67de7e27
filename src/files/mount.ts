// Mounting a connector as a workspace folder without losing anything: when adding the folder would
// reload the window (it is not yet a multi-root workspace), the user chooses first (add and reload,
// open in a new window, or cancel) and is told which unsaved editors are at stake.
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { UserCancelled } from '../core/commands';
import { planMount } from './mountPlan';
import { forgetEditorsBeforeReload, rememberEditorsBeforeReload } from './mountReopen';

const ADD_AND_RELOAD = 'Add and Reload Window';
const SAVE_ADD_AND_RELOAD = 'Save All, Add and Reload';
const NEW_WINDOW = 'Open in New Window';

/** Documents whose changes are saved nowhere (an untitled result counts when it has text). */
function unsavedDocuments(): vscode.TextDocument[] {
  return vscode.workspace.textDocuments.filter((d) => d.isDirty || (d.isUntitled && d.getText() !== ''));
}

/** Adds `uri` as a workspace folder named `name` (or opens it in a new window); resolves with the folder's Uri. */
export async function mountFolder(state: vscode.Memento, uri: vscode.Uri, name: string, interactive: boolean, newWindow: boolean): Promise<vscode.Uri> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const existing = folders.find((f) => f.uri.toString() === uri.toString());
  if (existing) return existing.uri;
  const multiRoot = vscode.workspace.workspaceFile !== undefined;
  const unsaved = unsavedDocuments();
  switch (planMount({ multiRoot, unsaved: unsaved.length, interactive, newWindow })) {
    case 'newWindow':
      return openInNewWindow(uri);
    case 'refuse':
      throw badInput(
        `Mounting ${name} would reload this window (it becomes a multi-root workspace) and close ${unsaved.length} unsaved editor${unsaved.length === 1 ? '' : 's'}: ` +
          'save them first, or pass { newWindow: true } to open the connector in a new window. Nothing was changed.',
      );
    case 'ask':
      if ((await askBeforeReload(name, unsaved)) === 'newWindow') return openInNewWindow(uri);
      break;
    case 'add':
      break;
  }
  return addFolder(state, uri, name, multiRoot);
}

async function openInNewWindow(uri: vscode.Uri): Promise<vscode.Uri> {
  await vscode.commands.executeCommand('vscode.openFolder', uri, { forceNewWindow: true });
  return uri;
}

/** The user's choice: add here (after saving, if there was unsaved work) or a new window; rejects on cancel. */
async function askBeforeReload(name: string, unsaved: vscode.TextDocument[]): Promise<'add' | 'newWindow'> {
  const names = unsaved.map((d) => (d.isUntitled ? d.uri.path : vscode.workspace.asRelativePath(d.uri))).slice(0, 5);
  const detail =
    unsaved.length > 0
      ? `Unsaved: ${names.join(', ')}${unsaved.length > names.length ? ` and ${unsaved.length - names.length} more` : ''}. Save them first, or open the connector in a new window.`
      : 'The window reloads as a new multi-root workspace. Open editors will be reopened after the reload; your files stay as they are.';
  const choice = await vscode.window.showWarningMessage(
    `Mounting ${name} turns this window into a multi-root workspace, which makes VS Code reload the window.`,
    { modal: true, detail },
    unsaved.length > 0 ? SAVE_ADD_AND_RELOAD : ADD_AND_RELOAD,
    NEW_WINDOW,
  );
  if (choice === NEW_WINDOW) return 'newWindow';
  if (choice === undefined) throw new UserCancelled();
  if (choice === SAVE_ADD_AND_RELOAD) {
    await vscode.workspace.saveAll(true);
    const still = unsavedDocuments();
    if (still.length > 0) throw badInput(`${still.length} editor${still.length === 1 ? ' was' : 's were'} not saved, so ${name} was not mounted: nothing was lost.`);
  }
  return 'add';
}

/** Adds the folder; waits for it only where adding does not restart the window. */
async function addFolder(state: vscode.Memento, uri: vscode.Uri, name: string, multiRoot: boolean): Promise<vscode.Uri> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const added = multiRoot
    ? new Promise<void>((resolve) => {
        const sub = vscode.workspace.onDidChangeWorkspaceFolders((e) => {
          if (e.added.some((f) => f.uri.toString() === uri.toString())) {
            sub.dispose();
            resolve();
          }
        });
        setTimeout(() => {
          sub.dispose();
          resolve();
        }, 5000);
      })
    : Promise.resolve();
  // Not yet multi-root: adding reloads the window, and the next activation reopens these editors.
  if (!multiRoot) await rememberEditorsBeforeReload(state, uri);
  if (!vscode.workspace.updateWorkspaceFolders(folders.length, 0, { uri, name })) {
    if (!multiRoot) await forgetEditorsBeforeReload(state);
    throw new Error(`VS Code did not add the folder ${name} (another change of the workspace folders is in progress). Try again.`);
  }
  await added;
  return uri;
}

// The editors open when a mount reloads the window come back after it. Adding the first extra folder
// makes VS Code reload the window as a new (untitled) multi-root workspace, whose editors start empty:
// before the reload the open tabs (URI, editor group, which was active) are remembered in the global
// state, keyed by the folder being mounted; the next activation that finds that folder among the
// workspace folders reopens them where they were, once.
import * as vscode from 'vscode';

const KEY = 'datagrok.files.reopenAfterMount';
/** A remembered list older than this is from a reload that never came: dropped unused. */
const FRESH_MS = 5 * 60 * 1000;

interface RememberedEditor {
  uri: string;
  column: number;
  active: boolean;
  /** A custom editor's view type (the data view, an image preview); text editors have none. */
  viewType?: string;
}

interface Remembered {
  folder: string;
  at: number;
  editors: RememberedEditor[];
}

/** The open tabs that can be opened again from their URI (untitled and diff tabs cannot). */
function openEditors(): RememberedEditor[] {
  const editors: RememberedEditor[] = [];
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      const active = group.isActive && tab.isActive;
      if (input instanceof vscode.TabInputText && input.uri.scheme !== 'untitled') {
        editors.push({ uri: input.uri.toString(), column: group.viewColumn, active });
      } else if (input instanceof vscode.TabInputCustom && input.uri.scheme !== 'untitled') {
        editors.push({ uri: input.uri.toString(), column: group.viewColumn, active, viewType: input.viewType });
      }
    }
  }
  return editors;
}

/** Remembers the open editors just before adding `folder` reloads the window; returns how many. */
export async function rememberEditorsBeforeReload(state: vscode.Memento, folder: vscode.Uri): Promise<number> {
  const editors = openEditors();
  const remembered: Remembered = { folder: folder.toString(), at: Date.now(), editors };
  await state.update(KEY, remembered);
  return editors.length;
}

/** Forgets the list (the reload did not happen: adding the folder failed). */
export async function forgetEditorsBeforeReload(state: vscode.Memento): Promise<void> {
  await state.update(KEY, undefined);
}

/**
 * After the reload: reopens the remembered editors in their groups (the active one last, so it has the
 * focus), when the mounted folder is in this window. Editors that cannot be opened any more (a file
 * deleted meanwhile) are skipped and logged. Resolves with how many were opened.
 */
export async function reopenEditorsAfterMount(state: vscode.Memento, log: vscode.LogOutputChannel): Promise<number> {
  const remembered = state.get<Remembered>(KEY);
  if (!remembered) return 0;
  const here = (vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.toString() === remembered.folder);
  if (!here) {
    // Another window, or the reload never came: keep it for the window it is meant for, while fresh.
    if (Date.now() - remembered.at > FRESH_MS) await state.update(KEY, undefined);
    return 0;
  }
  await state.update(KEY, undefined);
  if (Date.now() - remembered.at > FRESH_MS) return 0;
  const ordered = [...remembered.editors.filter((e) => !e.active), ...remembered.editors.filter((e) => e.active)];
  let opened = 0;
  for (const editor of ordered) {
    const uri = vscode.Uri.parse(editor.uri, true);
    const options: vscode.TextDocumentShowOptions = { viewColumn: editor.column, preview: false, preserveFocus: !editor.active };
    try {
      if (editor.viewType) await vscode.commands.executeCommand('vscode.openWith', uri, editor.viewType, options);
      else await vscode.window.showTextDocument(uri, options);
      opened++;
    } catch (e) {
      log.warn(`After mounting, ${uri.toString(true)} could not be opened again: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  log.info(`After mounting ${vscode.Uri.parse(remembered.folder, true).toString(true)}, reopened ${opened} of ${remembered.editors.length} editor(s).`);
  return opened;
}

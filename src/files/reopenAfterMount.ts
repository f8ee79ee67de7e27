// The mount dialog says "Open editors will be reopened after the reload": before a mount that reloads
// the window (a single folder becomes a multi-root workspace, a new one, with no editors of its own),
// the open text editors are remembered, with their editor group and which was active; the window that
// comes back (the files feature loads to serve the mounted folder) reopens them, once.
import * as vscode from 'vscode';

const KEY = 'datagrok.files.reopenAfterMount';
/** A record older than this is from another reload: not used. */
const FRESH_MS = 5 * 60_000;

interface Remembered {
  at: number;
  /** The folder being mounted: only the window that has it reopens the editors. */
  folder: string;
  editors: { uri: string; column: number; active: boolean; pinned: boolean }[];
}

/** Remembers the open text editors before the reload. */
export async function rememberOpenEditors(state: vscode.Memento, folder: vscode.Uri): Promise<number> {
  const editors: Remembered['editors'] = [];
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      if (!(tab.input instanceof vscode.TabInputText)) continue;
      if (tab.input.uri.scheme === 'untitled') continue;
      editors.push({ uri: tab.input.uri.toString(), column: group.viewColumn, active: tab.isActive && group.isActive, pinned: !tab.isPreview });
    }
  }
  await state.update(KEY, editors.length ? ({ at: Date.now(), folder: folder.toString(), editors } satisfies Remembered) : undefined);
  return editors.length;
}

/** In the window that has the mounted folder: reopens what was remembered, once. */
export async function reopenRememberedEditors(state: vscode.Memento): Promise<number> {
  const remembered = state.get<Remembered>(KEY);
  if (!remembered || Date.now() - remembered.at > FRESH_MS) return 0;
  if (!(vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.toString() === remembered.folder)) return 0;
  await state.update(KEY, undefined);
  const open = new Set(vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => (t.input instanceof vscode.TabInputText ? t.input.uri.toString() : ''))));
  let reopened = 0;
  const active = remembered.editors.find((e) => e.active);
  for (const e of [...remembered.editors.filter((x) => x !== active), ...(active ? [active] : [])]) {
    if (open.has(e.uri)) continue;
    try {
      await vscode.window.showTextDocument(vscode.Uri.parse(e.uri), { viewColumn: e.column, preview: !e.pinned, preserveFocus: e !== active });
      reopened++;
    } catch {
      // A file gone since: nothing to reopen.
    }
  }
  return reopened;
}

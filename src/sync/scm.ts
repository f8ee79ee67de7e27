// What the last comparison found, shown where VS Code shows changes: one Source Control entry per linked
// folder (conflicts, changed on the server, changed here), and a badge on each file in the explorer.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FileStatus, SyncState } from '../platform/sync/plan';
import type { SyncSession } from '../platform/sync/session';

const LOOK: Record<Exclude<SyncState, 'same'>, { badge: string; words: string; icon: string; color: string; group: 'conflicts' | 'server' | 'here' }> = {
  conflict: { badge: '!', words: 'Conflict: changed on both sides', icon: 'warning', color: 'list.errorForeground', group: 'conflicts' },
  remoteChanged: { badge: 'S', words: 'Changed on the server', icon: 'cloud-download', color: 'gitDecoration.modifiedResourceForeground', group: 'server' },
  remoteNew: { badge: 'S', words: 'New on the server', icon: 'cloud-download', color: 'gitDecoration.addedResourceForeground', group: 'server' },
  remoteDeleted: { badge: 'SD', words: 'Deleted on the server', icon: 'trash', color: 'gitDecoration.deletedResourceForeground', group: 'server' },
  localChanged: { badge: 'M', words: 'Changed here', icon: 'edit', color: 'gitDecoration.modifiedResourceForeground', group: 'here' },
  localNew: { badge: 'A', words: 'New here', icon: 'add', color: 'gitDecoration.untrackedResourceForeground', group: 'here' },
  localDeleted: { badge: 'D', words: 'Deleted here', icon: 'trash', color: 'gitDecoration.deletedResourceForeground', group: 'here' },
};

interface FolderView {
  scm: vscode.SourceControl;
  groups: Record<'conflicts' | 'server' | 'here', vscode.SourceControlResourceGroup>;
}

export class SyncStatusView implements vscode.FileDecorationProvider, vscode.Disposable {
  private readonly folders = new Map<string, FolderView>();
  private readonly states = new Map<string, FileStatus>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri[]>();
  readonly onDidChangeFileDecorations = this.changed.event;
  private readonly registration = vscode.window.registerFileDecorationProvider(this);

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const s = this.states.get(uri.fsPath);
    if (!s || s.state === 'same') return undefined;
    const look = LOOK[s.state];
    return new vscode.FileDecoration(look.badge, `Datagrok sync: ${look.words}${s.detail ? ` (${s.detail})` : ''}`, new vscode.ThemeColor(look.color));
  }

  private readonly compared = new Set<string>();

  /** Whether a comparison's result was shown for the folder. */
  wasCompared(folder: string): boolean {
    return this.compared.has(folder);
  }

  /** The folders that have a Source Control entry. */
  get linked(): string[] {
    return [...this.folders.keys()];
  }

  /**
   * The entry of a linked folder before any comparison (at start): empty, with `waiting` in its status bar
   * command (e.g. "Sign in to compare") until a comparison's result replaces it.
   */
  placeholder(folder: string, waiting?: vscode.Command): void {
    const known = this.folders.has(folder);
    const view = this.folderView(folder);
    if (!known) view.scm.statusBarCommands = waiting ? [waiting] : [];
  }

  private folderView(folder: string): FolderView {
    let view = this.folders.get(folder);
    if (!view) {
      const root = vscode.Uri.file(folder);
      const scm = vscode.scm.createSourceControl('datagrok-sync', `Datagrok: ${path.basename(folder)}`, root);
      scm.inputBox.visible = false;
      scm.acceptInputCommand = undefined;
      const groups = {
        conflicts: scm.createResourceGroup('conflicts', 'Conflicts'),
        server: scm.createResourceGroup('server', 'Changed on the Server'),
        here: scm.createResourceGroup('here', 'Changed Here'),
      };
      for (const g of Object.values(groups)) g.hideWhenEmpty = true;
      view = { scm, groups };
      this.folders.set(folder, view);
    }
    return view;
  }

  /** Shows a comparison's result (every file it lists). */
  show(session: SyncSession): void {
    const view = this.folderView(session.folder);
    this.compared.add(session.folder);
    view.scm.statusBarCommands = [];
    const before = [...this.states.keys()].filter((k) => k.startsWith(session.folder + path.sep));
    for (const k of before) this.states.delete(k);
    const resources: Record<'conflicts' | 'server' | 'here', vscode.SourceControlResourceState[]> = { conflicts: [], server: [], here: [] };
    for (const s of session.statuses) {
      const uri = vscode.Uri.file(path.join(session.folder, ...s.path.split('/')));
      this.states.set(uri.fsPath, s);
      if (s.state === 'same') continue;
      const look = LOOK[s.state];
      const staged = session.remote.files.get(s.path)?.staged;
      resources[look.group].push({
        resourceUri: uri,
        decorations: {
          tooltip: `${look.words}${s.detail ? ` (${s.detail})` : ''}`,
          strikeThrough: s.state === 'localDeleted' || s.state === 'remoteDeleted',
          faded: s.state === 'remoteNew',
          iconPath: new vscode.ThemeIcon(look.icon, new vscode.ThemeColor(look.color)),
        },
        command:
          staged && s.local
            ? { title: 'Compare', command: 'vscode.diff', arguments: [vscode.Uri.file(staged), uri, `${s.path} (server ↔ here)`] }
            : s.local
              ? { title: 'Open', command: 'vscode.open', arguments: [uri] }
              : undefined,
      });
    }
    for (const g of ['conflicts', 'server', 'here'] as const) view.groups[g].resourceStates = resources[g];
    view.scm.count = resources.conflicts.length + resources.server.length + resources.here.length;
    this.changed.fire([...before.map((p) => vscode.Uri.file(p)), ...session.statuses.map((s) => vscode.Uri.file(path.join(session.folder, ...s.path.split('/'))))]);
  }

  dispose(): void {
    for (const v of this.folders.values()) v.scm.dispose();
    this.registration.dispose();
    this.changed.dispose();
  }
}

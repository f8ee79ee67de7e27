// Signed out of a server, its connector files say why where they are. A mounted connector folder lists
// one read-only entry, "Signed out — …", whose text tells what to do (VS Code's Explorer shows a failing
// root's reason only on hover); the Explorer is refreshed when the key comes and goes. Open connector tabs
// of that server close when they hold no unsaved change, with a notice; an editor with unsaved changes
// stays open (its edits are never dropped) and the user is told to sign in again to save it.
import * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
import { serversFor } from './servers';
import { SCHEME } from './uris';

/** The name of the entry a signed-out mounted folder lists. */
export const SIGNED_OUT_ENTRY = 'Signed out — run Datagrok Sign In to see these files';

const SIGN_IN = 'Sign In';

/** Whether a key is stored for a server with this authority (host[:port]). */
export async function signedInTo(connection: Connection, authority: string): Promise<boolean> {
  for (const baseUrl of serversFor(connection, authority)) if (await connection.hasKey(baseUrl)) return true;
  return false;
}

function rootSegments(uri: vscode.Uri): string[] {
  return uri.path.replace(/^\/+/, '').replace(/\/+$/, '').split('/');
}

function explanation(authority: string): string {
  return (
    `You are signed out of ${authority}, so the files of this connector cannot be listed, opened or saved.\n\n` +
    `Run "Datagrok: Sign In" (Command Palette) with that server's URL (ending in /api) and your API key:\n` +
    'this folder then shows its files again. Nothing on the server was changed by signing out.\n'
  );
}

/** The placeholder answers of the file system while signed out: undefined when the URI is not theirs. */
export class SignedOutPlaceholder {
  constructor(private readonly connection: Connection) {}

  /** A connector root's listing while signed out: the one explaining entry. */
  async listing(uri: vscode.Uri): Promise<[string, vscode.FileType][] | undefined> {
    if (rootSegments(uri).length !== 1 || (await signedInTo(this.connection, uri.authority))) return undefined;
    return [[SIGNED_OUT_ENTRY, vscode.FileType.File]];
  }

  private async isEntry(uri: vscode.Uri): Promise<boolean> {
    const segs = rootSegments(uri);
    return segs.length === 2 && segs[1] === SIGNED_OUT_ENTRY && !(await signedInTo(this.connection, uri.authority));
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat | undefined> {
    // The mounted folder itself: a folder (listing the entry), so the Explorer shows the entry, not a
    // root it cannot resolve ("!" and the reason only on hover).
    if (rootSegments(uri).length === 1 && !(await signedInTo(this.connection, uri.authority))) {
      return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0, permissions: vscode.FilePermission.Readonly };
    }
    if (!(await this.isEntry(uri))) return undefined;
    const size = Buffer.byteLength(explanation(uri.authority));
    return { type: vscode.FileType.File, ctime: 0, mtime: 0, size, permissions: vscode.FilePermission.Readonly };
  }

  async read(uri: vscode.Uri): Promise<Uint8Array | undefined> {
    return (await this.isEntry(uri)) ? new TextEncoder().encode(explanation(uri.authority)) : undefined;
  }
}

/** What became of the open connector tabs of servers signed out of. */
export interface SignOutOutcome {
  closed: vscode.Uri[];
  /** Unsaved: kept open. */
  kept: vscode.Uri[];
}

/** Closes the open connector tabs without unsaved changes of servers now signed out of; keeps the others. */
export async function closeSignedOutTabs(connection: Connection): Promise<SignOutOutcome> {
  const closed: vscode.Uri[] = [];
  const kept: vscode.Uri[] = [];
  const toClose: vscode.Tab[] = [];
  const signedIn = new Map<string, boolean>();
  for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
    const uri = tab.input instanceof vscode.TabInputText ? tab.input.uri : undefined;
    if (uri?.scheme !== SCHEME || rootSegments(uri)[1] === SIGNED_OUT_ENTRY) continue;
    const authority = uri.authority.toLowerCase();
    if (!signedIn.has(authority)) signedIn.set(authority, await signedInTo(connection, authority));
    if (signedIn.get(authority)) continue;
    if (tab.isDirty) kept.push(uri);
    else {
      toClose.push(tab);
      closed.push(uri);
    }
  }
  if (toClose.length > 0) await vscode.window.tabGroups.close(toClose, true);
  return { closed, kept };
}

function names(uris: vscode.Uri[]): string {
  const shown = uris.slice(0, 3).map((u) => u.path.split('/').pop());
  return `${shown.join(', ')}${uris.length > shown.length ? ` and ${uris.length - shown.length} more` : ''}`;
}

/**
 * Follows sign-in and sign-out: mounted connector folders are refreshed (their files, or the signed-out
 * entry), and the tabs of a server signed out of are closed (unsaved ones kept), with a notice.
 */
export function watchSignOut(connection: Connection, log: vscode.LogOutputChannel, fire: (uris: vscode.Uri[]) => void): vscode.Disposable {
  const warned = new Set<string>();
  let running = Promise.resolve();
  const follow = async () => {
    const mounted = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === SCHEME).map((f) => f.uri);
    if (mounted.length > 0) {
      fire(mounted);
      await vscode.commands.executeCommand('workbench.files.action.refreshFilesExplorer').then(undefined, () => undefined);
    }
    const { closed, kept } = await closeSignedOutTabs(connection);
    const newlyKept = kept.filter((u) => !warned.has(u.toString()));
    for (const u of kept) warned.add(u.toString());
    for (const u of [...warned]) if (!kept.some((k) => k.toString() === u)) warned.delete(u);
    if (closed.length > 0) {
      log.info(`Signed out: closed ${closed.length} connector file tab(s): ${closed.map((u) => u.toString(true)).join(', ')}`);
      const message = `Signed out of ${closed[0]!.authority}: closed ${closed.length} Datagrok file tab${closed.length === 1 ? '' : 's'} (${names(closed)}). Sign in to open them again.`;
      void vscode.window.showInformationMessage(message, SIGN_IN).then((c) => (c === SIGN_IN ? vscode.commands.executeCommand('datagrok.signIn') : undefined));
    }
    if (newlyKept.length > 0) {
      const message =
        `Signed out of ${newlyKept[0]!.authority}: ${newlyKept.length} Datagrok file${newlyKept.length === 1 ? ' has' : 's have'} unsaved changes (${names(newlyKept)}) ` +
        'and stay open with your edits. Sign in to that server again to save them.';
      void vscode.window.showWarningMessage(message, SIGN_IN).then((c) => (c === SIGN_IN ? vscode.commands.executeCommand('datagrok.signIn') : undefined));
    }
  };
  return connection.onDidChange(() => {
    running = running.then(follow).catch((error: unknown) => log.warn(`Following sign-out: ${error instanceof Error ? error.message : String(error)}`));
  });
}

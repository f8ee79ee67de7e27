// The preview of a sync run from the palette or the Source Control view: every action with its size, deletes
// unchecked until the user checks them, conflicts resolved one by one (with a diff for text files), and a
// large push confirmed with its largest file named. Nothing is written before the preview is accepted.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { formatBytes } from '../api/units';
import { UserCancelled } from '../core/commands';
import { type FileStatus, keepConfirmed, type OnConflict, type PlanOptions, type PlannedAction, plan, totals } from '../platform/sync/plan';
import { IGNORE_FILE } from '../platform/sync/local';
import type { SyncSession } from '../platform/sync/session';

const ICONS: Record<string, string> = {
  download: 'cloud-download',
  upload: 'cloud-upload',
  deleteLocal: 'trash',
  deleteRemote: 'trash',
  conflict: 'warning',
  skip: 'circle-slash',
};
const WORDS: Record<string, string> = {
  download: 'download',
  upload: 'upload',
  deleteLocal: 'delete here',
  deleteRemote: 'delete on the server',
  conflict: 'conflict: choose how to resolve',
  skip: 'skip',
};

function sizeOf(a: PlannedAction): string {
  return a.action === 'download' || a.action === 'upload' ? ` · ${formatBytes(a.bytes)}` : '';
}

/** Whether a file is text (no NUL byte in its first 8 KiB): only those get a diff. */
async function isText(file: string): Promise<boolean> {
  const handle = await fsp.open(file, 'r').catch(() => undefined);
  if (!handle) return false;
  try {
    const buf = Buffer.alloc(8192);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return !buf.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}

/** Opens VS Code's diff of the server's copy (as received) and the local file, when both are text. */
export async function showDiff(session: SyncSession, status: FileStatus): Promise<boolean> {
  const staged = session.remote.files.get(status.path)?.staged;
  const local = path.join(session.folder, ...status.path.split('/'));
  if (!staged || !status.local || !(await isText(staged)) || !(await isText(local))) return false;
  await vscode.commands.executeCommand('vscode.diff', vscode.Uri.file(staged), vscode.Uri.file(local), `${status.path} (server ↔ here)`, { preview: true });
  return true;
}

async function resolveConflict(session: SyncSession, a: PlannedAction, o: PlanOptions): Promise<PlannedAction> {
  const choices: (vscode.QuickPickItem & { value: OnConflict | 'diff' })[] = [
    { label: '$(files) Keep both', description: 'the server copy here, yours beside it as "… (local copy)"', value: 'keepBoth' },
    { label: '$(arrow-up) Take mine', description: 'your copy replaces the server one', value: 'mine' },
    { label: '$(arrow-down) Take theirs', description: 'the server copy replaces yours', value: 'theirs' },
    { label: '$(diff) Compare', description: 'open a diff (text files)', value: 'diff' },
    { label: '$(circle-slash) Leave both as they are', value: 'ask' },
  ];
  for (;;) {
    const pick = await vscode.window.showQuickPick(choices, { title: `Conflict: ${a.path}`, placeHolder: a.reason, ignoreFocusOut: true });
    if (!pick) throw new UserCancelled();
    if (pick.value === 'diff') {
      if (!(await showDiff(session, a.status))) void vscode.window.showInformationMessage(`${a.path}: no text diff (binary, or one side has no copy).`);
      continue;
    }
    if (pick.value === 'ask') return a;
    const [resolved] = plan([a.status], { ...o, onConflict: pick.value, propagateDeletes: true });
    return resolved ?? a;
  }
}

export interface Thresholds {
  bytes: number;
  files: number;
}

/**
 * Shows the plan and returns the confirmed actions (undefined when there is nothing to do). Deletes start
 * unchecked; a checked conflict is resolved next; a push above the thresholds asks once more.
 */
export async function previewPlan(session: SyncSession, o: PlanOptions, limits: Thresholds): Promise<PlannedAction[] | undefined> {
  const actions = plan(session.statuses, { ...o, onConflict: 'ask', propagateDeletes: true });
  const shown = actions.filter((a) => a.action !== 'skip');
  if (shown.length === 0) {
    void vscode.window.showInformationMessage(
      `${path.basename(session.folder)} and ${session.link.connector}/${session.link.path} are in step: nothing to ${o.direction === 'both' ? 'sync' : o.direction}.`,
    );
    return undefined;
  }
  type Item = vscode.QuickPickItem & { action?: PlannedAction };
  const items: Item[] = [];
  for (const kind of ['conflict', 'download', 'upload', 'deleteLocal', 'deleteRemote'] as const) {
    const of = shown.filter((a) => a.action === kind);
    if (of.length === 0) continue;
    items.push({ label: `${WORDS[kind]} (${of.length})`, kind: vscode.QuickPickItemKind.Separator });
    for (const a of of) {
      items.push({
        label: `$(${ICONS[kind]}) ${a.path}`,
        description: `${WORDS[kind]}${sizeOf(a)}`,
        detail: a.reason,
        picked: kind === 'download' || kind === 'upload',
        action: a,
      });
    }
  }
  const t = totals(shown);
  const down = shown.filter((a) => a.action === 'download').reduce((n, a) => n + a.bytes, 0);
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    ignoreFocusOut: true,
    title: `${o.direction === 'both' ? 'Sync' : o.direction === 'pull' ? 'Pull' : 'Push'} ${vscode.workspace.asRelativePath(session.folder)} ↔ ${session.link.connector}/${session.link.path}`,
    placeHolder: `↓ ${formatBytes(down)} · ↑ ${t.files} files, ${formatBytes(t.bytes)} — deletes and conflicts act only when checked; OK starts the sync`,
  });
  if (!picked) throw new UserCancelled();
  const confirmed = new Set(picked.flatMap((i) => (i.action ? [i.action.path] : [])));
  const result: PlannedAction[] = [];
  for (const a of keepConfirmed(actions, confirmed)) {
    result.push(a.action === 'conflict' && confirmed.has(a.path) ? await resolveConflict(session, a, o) : a);
  }
  const after = totals(result);
  if (after.largest && (after.bytes > limits.bytes || after.files > limits.files)) {
    const ok = 'Push';
    const choice = await vscode.window.showWarningMessage(
      `Push ${after.files} files (${formatBytes(after.bytes)}) to ${session.link.connector}/${session.link.path}?`,
      {
        modal: true,
        detail: `That is above the confirmation threshold (datagrok.sync.confirmPushAboveMB / …Files). The largest: ${after.largest.path} (${formatBytes(after.largest.bytes)}). Files that should stay local can go in ${IGNORE_FILE}.`,
      },
      ok,
      `Open ${IGNORE_FILE}`,
    );
    if (choice === `Open ${IGNORE_FILE}`) {
      const file = vscode.Uri.file(path.join(session.folder, IGNORE_FILE));
      await vscode.workspace.fs.stat(file).then(undefined, () => vscode.workspace.fs.writeFile(file, new Uint8Array()));
      await vscode.window.showTextDocument(file);
    }
    if (choice !== ok) throw new UserCancelled();
  }
  return result;
}

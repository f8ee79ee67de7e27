// The folder sync commands: link, status, run (and pull, push, refresh for the Source Control title). Called
// with options they never ask; from the palette, the explorer or Source Control they preview and confirm.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { type CommandInvocation, UserCancelled, uiArguments } from '../core/commands';
import { optionalText } from '../core/options';
import type { Direction, OnConflict } from '../platform/sync/plan';
import { type ActionResult, execute, openSession, runSync } from '../platform/sync/session';
import { readLink, STATE_DIR, type SyncLink, writeLink } from '../platform/sync/store';
import type { Services } from '../services';
import { folderOption, linkedFolderArg, linkedFolders } from './folders';
import { askLink, linkPath } from './linkPrompts';
import { previewPlan } from './preview';
import type { SyncStatusView } from './scm';

interface LinkOptions {
  folder?: unknown;
  connector?: unknown;
  path?: unknown;
}

interface RunOptions {
  folder?: unknown;
  direction?: unknown;
  dryRun?: unknown;
  onConflict?: unknown;
  propagateDeletes?: unknown;
}

const DIRECTIONS: readonly Direction[] = ['pull', 'push', 'both'];
const ON_CONFLICT: readonly OnConflict[] = ['ask', 'keepBoth', 'mine', 'theirs'];
const WORDS: Record<Direction, string> = { pull: 'Pulling', push: 'Pushing', both: 'Syncing' };

function flag(value: unknown, name: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw badInput(`${name} must be true or false.`);
  return value;
}

function choice<T extends string>(value: unknown, name: string, allowed: readonly T[], fallback?: T): T {
  if ((value === undefined || value === null) && fallback !== undefined) return fallback;
  if (typeof value !== 'string' || !allowed.includes(value as T))
    throw badInput(`${name} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}${value === undefined ? '' : `, not ${JSON.stringify(value)}`}.`);
  return value as T;
}

export async function linkCommand(services: Services, view: SyncStatusView, inv: CommandInvocation<LinkOptions>): Promise<{ folder: vscode.Uri; connector: string; path: string }> {
  let wanted: { folder: vscode.Uri; connector: string; path: string };
  if (inv.options) {
    const folder = await folderOption(inv.options.folder);
    const connector = optionalText(inv.options.connector, 'connector');
    if (!connector) throw badInput('Give the connector to link to as `connector`, e.g. "System:AppData".');
    wanted = { folder, connector, path: linkPath(inv.options.path) };
  } else {
    wanted = await askLink(services, inv.arg);
  }
  const link: SyncLink = { connector: wanted.connector, path: linkPath(wanted.path) };
  const before = await readLink(wanted.folder.fsPath).catch(() => undefined);
  if (before && (before.connector !== link.connector || before.path !== link.path)) {
    if (!inv.options) {
      const ok = 'Link Elsewhere';
      const answer = await vscode.window.showWarningMessage(
        `${path.basename(wanted.folder.fsPath)} is linked to ${before.connector}/${before.path}. Link it to ${link.connector}/${link.path} instead?`,
        { modal: true, detail: 'No file is changed or deleted; the next sync compares the folder with the new place from scratch.' },
        ok,
      );
      if (answer !== ok) throw new UserCancelled();
    }
    // The base belonged to the old place: forget it (the files stay as they are).
    for (const f of ['sync-state.json', 'sync-journal.jsonl']) await fsp.rm(path.join(wanted.folder.fsPath, STATE_DIR, f), { force: true });
  }
  await writeLink(wanted.folder.fsPath, link);
  services.log.info(`sync: linked ${wanted.folder.fsPath} to ${link.connector}/${link.path}`);
  if (!inv.options) {
    void vscode.window
      .showInformationMessage(
        `Linked ${path.basename(wanted.folder.fsPath)} to ${link.connector}/${link.path || '(root)'}. Nothing moved yet: Sync shows what would, first.`,
        'Sync Now',
      )
      .then((c) => {
        if (c === 'Sync Now') void vscode.commands.executeCommand('datagrok.sync.run', ...uiArguments(wanted.folder));
      });
    void statusQuietly(services, view, wanted.folder);
  }
  return { folder: wanted.folder, connector: link.connector, path: link.path };
}

let looking: Promise<void> = Promise.resolve();

/**
 * Gives every linked folder of the workspace its Source Control entry, and compares those not compared yet
 * when a key for the server is stored (never asking: at start nobody asked for it). Calls run one after another.
 */
export function showLinkedFolders(services: Services, view: SyncStatusView): Promise<void> {
  looking = looking.then(async () => {
    try {
      const found = await linkedFolders();
      const signedIn = await services.connection.hasActiveKey();
      const signIn = { title: '$(sign-in) Sign in to compare', command: 'datagrok.signIn', tooltip: 'Sign in to Datagrok to compare this folder with its connector folder' };
      for (const f of found) view.placeholder(f.uri.fsPath, signedIn ? undefined : signIn);
      if (signedIn) for (const f of found) if (!view.wasCompared(f.uri.fsPath)) await statusQuietly(services, view, f.uri);
    } catch (err) {
      services.log.warn(`sync: looking for linked folders failed: ${(err as Error).message}`);
    }
  });
  return looking;
}

async function statusQuietly(services: Services, view: SyncStatusView, folder: vscode.Uri): Promise<void> {
  try {
    view.show(await openSession(await services.connection.client(), folder.fsPath));
  } catch (err) {
    services.log.warn(`sync: comparing ${folder.fsPath} failed: ${(err as Error).message}`);
  }
}

export async function statusCommand(services: Services, view: SyncStatusView, inv: CommandInvocation<{ folder?: unknown }>): Promise<{ path: string; state: string }[]> {
  const { uri } = await linkedFolderArg(inv.arg, inv.options);
  const client = await services.connection.client();
  const session = await inv.withProgress(`Comparing ${path.basename(uri.fsPath)} with the server`, (_p, signal) => openSession(client, uri.fsPath, signal));
  view.show(session);
  if (inv.interactive) {
    void vscode.commands.executeCommand('workbench.view.scm');
    void vscode.window.showInformationMessage(
      statusSummary(
        path.basename(uri.fsPath),
        session.statuses.map((s) => s.state),
      ),
    );
  }
  return session.statuses.map((s) => ({ path: s.path, state: s.state }));
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What a comparison found, in one line: changed here, changed on the server, conflicts. */
export function statusSummary(name: string, states: readonly string[]): string {
  const here = states.filter((s) => s.startsWith('local')).length;
  const there = states.filter((s) => s.startsWith('remote')).length;
  const conflicts = states.filter((s) => s === 'conflict').length;
  if (here + there + conflicts === 0) return `${name} is in step with the server: nothing to sync.`;
  const parts = [here && `${plural(here, 'file')} changed here`, there && `${plural(there, 'file')} changed on the server`, conflicts && plural(conflicts, 'conflict')].filter(
    Boolean,
  );
  return `${name}: ${parts.join(', ')} (see Source Control).`;
}

export async function runCommand(services: Services, view: SyncStatusView, inv: CommandInvocation<RunOptions>, fixed?: Direction): Promise<ActionResult[]> {
  const client = await services.connection.client();
  if (inv.options) {
    // Every option is checked before anything is read or written.
    const direction = choice(inv.options.direction ?? fixed, 'direction', DIRECTIONS);
    const onConflict = choice(inv.options.onConflict, 'onConflict', ON_CONFLICT, 'ask');
    const dryRun = flag(inv.options.dryRun, 'dryRun');
    const propagateDeletes = flag(inv.options.propagateDeletes, 'propagateDeletes');
    const { uri } = await linkedFolderArg(undefined, inv.options);
    const results = await inv.withProgress(`${WORDS[direction]} ${path.basename(uri.fsPath)}`, (progress, signal) =>
      runSync(client, uri.fsPath, { direction, onConflict, dryRun, propagateDeletes }, { signal, onFile: (i, n, a) => progress.message(`${i + 1} of ${n}: ${a.path}`) }),
    );
    if (!dryRun) await statusQuietly(services, view, uri);
    return results;
  }
  const { uri } = await linkedFolderArg(inv.arg, undefined);
  let direction = fixed;
  if (!direction) {
    const pick = await vscode.window.showQuickPick(
      [
        { label: '$(sync) Sync both ways', value: 'both' as const },
        { label: '$(cloud-download) Pull', description: 'from the server to here', value: 'pull' as const },
        { label: '$(cloud-upload) Push', description: 'from here to the server', value: 'push' as const },
      ],
      { title: `Sync ${path.basename(uri.fsPath)}` },
    );
    if (!pick) throw new UserCancelled();
    direction = pick.value;
  }
  const session = await inv.withProgress(`Comparing ${path.basename(uri.fsPath)} with the server`, (_p, signal) => openSession(client, uri.fsPath, signal));
  view.show(session);
  const config = vscode.workspace.getConfiguration('datagrok.sync');
  const limits = { bytes: config.get<number>('confirmPushAboveMB', 100) * 1024 * 1024, files: config.get<number>('confirmPushAboveFiles', 1000) };
  const actions = await previewPlan(session, { direction, onConflict: 'ask', propagateDeletes: true }, limits);
  if (!actions) {
    await session.base.close();
    return [];
  }
  const results = await inv.withProgress(`${WORDS[direction]} ${path.basename(uri.fsPath)}`, (progress, signal) =>
    execute(client, session, actions, { signal, onFile: (i, n, a) => progress.message(`${i + 1} of ${n}: ${a.path}`) }),
  );
  const moved = results.filter((r) => r.action !== 'skip' && r.action !== 'conflict').length;
  const conflicts = results.filter((r) => r.action === 'conflict').length;
  // A file left alone for a reason the preview could not know (a link out of the folder, a name this system
  // cannot hold) is said, with the first reason; each is in the log.
  const confirmed = new Set(actions.filter((a) => a.action !== 'skip').map((a) => a.path));
  const refused = results.filter((r) => r.action === 'skip' && confirmed.has(r.path));
  for (const r of refused) services.log.warn(`sync: ${r.path} not written: ${r.reason ?? 'no reason given'}`);
  const left = refused.length
    ? `; ${plural(refused.length, 'file')} not written (${refused[0].path}: ${refused[0].reason}${refused.length > 1 ? '; the others in the log' : ''})`
    : '';
  const message = `${path.basename(uri.fsPath)}: ${plural(moved, 'file')} synced${conflicts ? `, ${plural(conflicts, 'conflict')} left (see Source Control)` : ''}${left}.`;
  void (refused.length ? vscode.window.showWarningMessage(message) : vscode.window.showInformationMessage(message));
  await statusQuietly(services, view, uri);
  return results;
}

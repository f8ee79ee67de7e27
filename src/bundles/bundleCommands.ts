// datagrok.bundle.pull / diff / push: bundles interchangeable with `grok s pull | diff | push`. From the palette
// they ask (folder, selection, server, policy) and show what they will do first; with an options object they ask
// nothing, return the manifest or the plan, and refuse bad input before any request.
import { readdir, rmdir, stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { hostOf, normalizeBaseUrl } from '../api/names';
import type { DatagrokApi } from '../api/datagrokApi';
import { type CommandInvocation, UserCancelled, uiArguments } from '../core/commands';
import { uriOption } from '../core/options';
import {
  CHANGED_BOTH,
  checkSelection,
  choicesById,
  collectPull,
  type ConflictPolicy,
  diffFolder,
  type Manifest,
  type Note,
  ON_CHANGED,
  type OnChanged,
  isConflict,
  PlanRefused,
  type PlanResult,
  POLICIES,
  pushFolder,
  readBundle,
  readManifest,
  type Selection,
  writePull,
} from '../platform/bundles';
import type { Services } from '../services';
import { askChoices, type PushChoices } from './bundleConflicts';
import { pickPullSelection } from './pullPicker';

interface FolderOptions {
  folder?: unknown;
  server?: unknown;
}
export interface PullOptions extends FolderOptions {
  selection?: unknown;
  replace?: boolean;
}
export interface PushOptions extends FolderOptions {
  dryRun?: boolean;
  onConflict?: unknown;
  /** Per entity (qualified name, bundle file or id): skip, adopt or duplicate, over `onConflict`. */
  conflicts?: unknown;
  onChanged?: unknown;
}

/** The folder of a bundle: an options field, a Uri from a menu, or asked for. Always a local folder. */
async function folderOf(inv: CommandInvocation<FolderOptions>, mustExist: boolean): Promise<string> {
  // From a menu: a folder or manifest.json in the Explorer (a Uri), or the Source Control view's title (its rootUri).
  const fromMenu = inv.arg instanceof vscode.Uri ? inv.arg : (inv.arg as { rootUri?: unknown } | undefined)?.rootUri;
  const given = inv.options ? uriOption(inv.options.folder ?? (inv.options as { uri?: unknown }).uri, 'folder') : fromMenu instanceof vscode.Uri ? fromMenu : undefined;
  if (inv.options && !given) throw badInput('Give the bundle folder as { folder: Uri } (a folder of the workspace).');
  let uri = given;
  if (!uri) {
    const picked = await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      openLabel: mustExist ? 'Use Bundle' : 'Pull Here',
      title: mustExist ? 'The bundle folder (with manifest.json)' : 'The folder to pull into',
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    });
    uri = picked?.[0];
    if (!uri) throw new UserCancelled();
  }
  if (uri.scheme !== 'file') throw badInput(`The bundle folder must be on disk (a file: Uri), not ${uri.scheme}:.`);
  // A manifest.json picked instead of its folder means that folder.
  const fsPath = uri.fsPath.endsWith('manifest.json') ? vscode.Uri.joinPath(uri, '..').fsPath : uri.fsPath;
  if (mustExist) await readManifest(fsPath);
  return fsPath;
}

/** The target server: an option (a server signed in to), else the active one. */
async function serverOf(services: Services, inv: CommandInvocation<FolderOptions>): Promise<{ url: string; client: DatagrokApi }> {
  const raw = inv.options?.server;
  if (raw !== undefined && typeof raw !== 'string') throw badInput('The option "server" must be a server URL ending in /api.');
  const url = raw ? normalizeBaseUrl(raw) : services.connection.baseUrl();
  return { url, client: await services.connection.clientFor(url) };
}

function policyOf(value: unknown): ConflictPolicy {
  if (value === undefined) return 'fail';
  if (!POLICIES.includes(value as ConflictPolicy)) throw badInput(`The option "onConflict" must be one of ${POLICIES.join(', ')}.`);
  return value as ConflictPolicy;
}

function onChangedOf(value: unknown): OnChanged {
  if (value === undefined) return 'refuse';
  if (!ON_CHANGED.includes(value as OnChanged)) throw badInput(`The option "onChanged" must be one of ${ON_CHANGED.join(', ')}.`);
  return value as OnChanged;
}

/** What an explorer item stands for: a function, script or query; a file share's connection; a dashboard, table or group. */
function itemSelection(arg: unknown): string[] | undefined {
  const o = arg as { func?: { id?: string }; connection?: { id?: string }; entityId?: string } | undefined;
  const id = o?.func?.id ?? o?.connection?.id ?? o?.entityId;
  return typeof id === 'string' && id ? [id] : undefined;
}

/** The manifest as written, with `notes`: what stayed on the server or could not be written into the folder, and why. */
export async function pullCommand(
  services: Services,
  inv: CommandInvocation<PullOptions>,
  onWritten: (dir: string) => Promise<void> = async () => undefined,
): Promise<Manifest & { notes: Note[] }> {
  const started = Date.now();
  const fromItem = inv.interactive ? itemSelection(inv.arg) : undefined;
  const { url, client } = await serverOf(services, inv);
  // From the palette: what to pull is picked and checked against the server before the folder is asked for.
  const selection = inv.options ? checkSelection(inv.options.selection) : checkSelection(fromItem ?? (await pickPullSelection(client.entities)));
  const dir = inv.options ? await folderOf(inv, false) : await folderOf({ ...inv, arg: undefined }, false);
  // A folder made in the folder dialog for this pull is removed again if the pull does not happen.
  const madeNow = inv.interactive && (await emptySince(dir, started));
  return pullInto(services, inv, { dir, url, client, selection }, onWritten).catch(async (e) => {
    if (madeNow) await rmdir(dir).catch(() => undefined);
    throw e;
  });
}

/** An empty folder made since `since` (ms): one this command's folder dialog made. */
async function emptySince(dir: string, since: number): Promise<boolean> {
  const made = await stat(dir).catch(() => undefined);
  return !!made && made.birthtimeMs >= since - 1000 && (await readdir(dir)).length === 0;
}

async function pullInto(
  services: Services,
  inv: CommandInvocation<PullOptions>,
  { dir, url, client, selection }: { dir: string; url: string; client: DatagrokApi; selection: Selection },
  onWritten: (dir: string) => Promise<void>,
): Promise<Manifest & { notes: Note[] }> {
  const pulled = await inv.withProgress(`Pulling from ${hostOf(url)}`, (p, signal) => collectPull(client.entities, url, selection, (m) => p.message(m), signal));
  const list = [...pulled.entities.values()].map((e) => `${e.type} ${String(e.json.namespace ?? '')}${String(e.json.name ?? e.json.id)}`);
  services.log.info(
    `Bundle pull from ${hostOf(url)} into ${dir}: ${list.join('; ')}${pulled.notes.length ? ` (left behind: ${pulled.notes.map((n) => `${n.name} ${n.reason}`).join('; ')})` : ''}`,
  );
  if (inv.interactive) {
    const behind = pulled.notes.length ? `\n\nStays on the server: ${pulled.notes.map((n) => `${n.name} (${n.reason})`).join(', ')}.` : '';
    const answer = await vscode.window.showInformationMessage(`Pull ${list.length} entities into ${dir}?`, { modal: true, detail: `${list.join('\n')}${behind}` }, 'Pull');
    if (answer !== 'Pull') throw new UserCancelled();
  }
  const wrote = await writePull(dir, pulled, inv.options?.replace === true);
  await onWritten(dir);
  const notWritten = wrote.notes.map((n) => `${n.name} (${n.detail})`);
  if (notWritten.length) services.log.warn(`Bundle pull into ${dir}: not written: ${notWritten.join('; ')}`);
  if (inv.interactive) {
    const done = `Pulled ${pulled.entities.size - wrote.notes.filter((n) => n.entityType !== 'Bundle').length} entities from ${hostOf(url)} into ${dir}.`;
    if (notWritten.length) void vscode.window.showWarningMessage(`${done} Not written: ${notWritten.join('; ')}.`);
    else void vscode.window.showInformationMessage(done);
  }
  return Object.assign(wrote, { notes: [...pulled.notes, ...wrote.notes] });
}

export async function diffCommand(services: Services, inv: CommandInvocation<FolderOptions>, show: (dir: string, url: string) => Promise<unknown>): Promise<PlanResult> {
  const dir = await folderOf(inv, true);
  const { url, client } = await serverOf(services, inv);
  const plan = await inv.withProgress(`Comparing the bundle with ${hostOf(url)}`, (_p, signal) => diffFolder(client.entities, url, dir, signal));
  await show(dir, url).catch((e) => services.log.warn(`Source Control view not updated: ${(e as Error).message}`));
  if (inv.interactive) void vscode.commands.executeCommand('workbench.view.scm');
  return plan;
}

/** Secrets for the connections the plan says need them, asked one by one, never written anywhere. */
async function askCredentials(dir: string, plan: PlanResult): Promise<Record<string, Record<string, string>>> {
  const bundle = await readBundle(dir);
  const creds: Record<string, Record<string, string>> = {};
  for (const row of plan.items.filter((i) => i.action === 'needs-credentials')) {
    const entity = [...bundle.entities.values()].find((e) => `${String(e.json.namespace ?? '')}${String(e.json.name)}` === row.name);
    for (const param of (entity?.json._credentials as string[] | undefined) ?? []) {
      const value = await vscode.window.showInputBox({
        title: `Push: ${row.name}`,
        prompt: `${param} for ${row.name} on the target (sent once, never stored). Leave empty to push without it.`,
        password: true,
        ignoreFocusOut: true,
      });
      if (value === undefined) throw new UserCancelled();
      if (value) creds[row.name] = { ...creds[row.name], [param]: value };
    }
  }
  return creds;
}

export async function pushCommand(
  services: Services,
  inv: CommandInvocation<PushOptions>,
  show: (dir: string, url: string) => Promise<unknown>,
  remembered: PushChoices,
): Promise<PlanResult> {
  const dir = await folderOf(inv, true);
  const onConflict = policyOf(inv.options?.onConflict);
  let onChanged = onChangedOf(inv.options?.onChanged);
  const dryRun = inv.options?.dryRun === true;
  const given = choicesById(await readBundle(dir), inv.options?.conflicts);
  const { url, client } = await serverOf(services, inv);
  // Choices made in the Source Control view for this folder and server, then the ones the options give.
  const choices = { ...remembered.of(dir, url), ...given };
  const source = (await readManifest(dir)).source.url;
  const other = source && normalizeBaseUrl(source) !== url;
  const notice = other ? `This bundle was pulled from ${hostOf(source)}; the push goes to ${hostOf(url)}.` : undefined;
  if (notice) services.log.info(notice);
  const share = (id: string, group: string, access: 'View' | 'Edit') => client.shareDashboard(id, [group], access);
  const dry = () =>
    inv.withProgress(`Planning the push to ${hostOf(url)}`, (_p, signal) => pushFolder(client.entities, url, dir, { dryRun: true, onConflict, choices, onChanged, signal }));
  let plan = await dry().catch(async (e) => {
    // Name conflicts a person has not decided: asked one by one (and remembered), then planned again.
    if (!(e instanceof PlanRefused) || !inv.interactive || dryRun) throw e;
    const asked = await askChoices(
      e.rows.filter((r) => isConflict(r) && r.action === 'failed'),
      hostOf(url),
    );
    for (const [id, choice] of asked) {
      remembered.set(dir, url, id, choice);
      choices[id] = choice;
    }
    return dry();
  });
  let credentials: Record<string, Record<string, string>> | undefined;
  const both = plan.items.filter((i) => i.reason.startsWith(CHANGED_BOTH));
  if (both.length && onChanged === 'refuse') {
    // Changed on both sides since the pull: the view shows them; a person chooses, a script's push is refused.
    await show(dir, url).catch((e) => services.log.warn(`Source Control view not updated: ${(e as Error).message}`));
    if (inv.interactive && !dryRun) {
      onChanged = await askOnChanged(both.map((i) => `${i.entityType} ${i.name}${i.detail ? ` (${i.detail})` : ''}`));
      plan = await dry();
    }
  }
  if (inv.interactive && !dryRun) {
    const counts = Object.entries(plan.counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ');
    const lines = plan.items
      .filter((i) => i.action !== 'identical' || i.detail)
      .map((i) => `${i.action}: ${i.entityType} ${i.name}${i.detail ? ` (${i.detail})` : ''}${/^(name taken by|adopted) /.test(i.reason) ? ` — ${i.reason}` : ''}`);
    const answer = await vscode.window.showWarningMessage(
      `${notice ? `${notice} ` : ''}Push to ${hostOf(url)}: ${counts}?`,
      { modal: true, detail: lines.join('\n') || 'Everything is identical.' },
      'Push',
    );
    if (answer !== 'Push') throw new UserCancelled();
    credentials = await askCredentials(dir, plan);
  }
  if (dryRun) return withNotice(plan, notice, source);
  const result = await inv.withProgress(`Pushing to ${hostOf(url)}`, (p, signal) =>
    pushFolder(client.entities, url, dir, {
      onConflict,
      choices,
      onChanged,
      credentials,
      share,
      signal,
      progress: (m, done, total) => p.message(total ? `${m} (${done}/${total})` : m),
    }),
  );
  if (result.status === 'ok') remembered.clear(dir);
  await show(dir, url).catch((e) => services.log.warn(`Source Control view not updated: ${(e as Error).message}`));
  const failed = result.items.filter((i) => i.action === 'failed');
  const written = result.items.filter((i) => i.action === 'create' || i.action === 'update');
  const report = `${written.length} saved (${written.map((i) => i.name).join(', ') || 'none'}), ${failed.length} failed${failed.length ? `: ${failed.map((i) => `${i.name} — ${i.reason}`).join('; ')}` : ''}`;
  services.log.info(`Bundle push to ${hostOf(url)}: ${report}`);
  if (failed.length) {
    const message = `The push to ${hostOf(url)} failed part-way: ${report}. Run the push again to finish it (saves are by id: what was saved stays identical).`;
    if (inv.interactive)
      void vscode.window
        .showErrorMessage(message, 'Push Again')
        .then((c) => (c ? vscode.commands.executeCommand('datagrok.bundle.push', ...uiArguments(vscode.Uri.file(dir))) : undefined));
  } else if (inv.interactive) void vscode.window.showInformationMessage(`Pushed to ${hostOf(url)}: ${report}.`);
  return withNotice(result, notice, source);
}

/** Entities changed here and on the server since the pull: the user's choice for all of them, or review one by one. */
async function askOnChanged(lines: string[]): Promise<OnChanged> {
  const mine = 'Take Mine (Overwrite the Server)';
  const theirs = 'Take Theirs (Update the Bundle)';
  const review = 'Review in Source Control';
  const answer = await vscode.window.showWarningMessage(
    `${lines.length === 1 ? 'An entity was' : `${lines.length} entities were`} ${CHANGED_BOTH}.`,
    {
      modal: true,
      detail: `${lines.join('\n')}\n\nTake mine overwrites the server's copy; take theirs replaces the bundle file with it; review shows each in the Source Control view (Take Mine, Take Theirs, Merge).`,
    },
    mine,
    theirs,
    review,
  );
  if (answer === mine) return 'mine';
  if (answer === theirs) return 'theirs';
  if (answer === review) void vscode.commands.executeCommand('workbench.view.scm');
  throw new UserCancelled();
}

function withNotice(plan: PlanResult, notice: string | undefined, source: string): PlanResult {
  if (!notice) return plan;
  return { ...plan, items: [{ name: source, entityType: 'Server', action: 'warn', reason: 'other_server', detail: notice }, ...plan.items] };
}

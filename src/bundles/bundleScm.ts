// The Source Control provider "Datagrok": one resource per bundle entity, grouped by its state against a
// server (changed, new here, missing here, conflict, deleted on the server, identical). Each opens a diff editor
// of the server's normalised JSON against the local file — for a script or a query, its code against the
// server's, in its language.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hostOf } from '../api/names';
import { uiArguments } from '../core/commands';
import type { ConflictChoice } from '../platform/bundles/choices';
import { type BundleStatus, codeOf, type EntityState, type EntityStatus } from '../platform/bundles/states';
import { codeUriOf } from './bundleCode';
import { codeOpenCommand } from './bundleCodeCommand';
import { CHOICE_TEXT, holderOf } from './bundleConflicts';
import type { BundleDocuments } from './bundleDocuments';

const GROUPS: Array<{ state: EntityState; label: string; icon: string; tip: string }> = [
  {
    state: 'changedBoth',
    label: 'Changed on Both Sides',
    icon: 'git-merge',
    tip: 'changed here and on the server since your pull: a push refuses it until you take mine, take theirs, or merge',
  },
  { state: 'changed', label: 'Changed', icon: 'diff-modified', tip: 'differs from the server' },
  {
    state: 'changedOnServer',
    label: 'Changed on the Server',
    icon: 'cloud',
    tip: "changed on the server since your pull, not here: a push leaves the server's copy; pull it to take it",
  },
  { state: 'new', label: 'New Here', icon: 'diff-added', tip: 'not on the server: a push creates it' },
  { state: 'missingHere', label: 'Missing Here', icon: 'diff-removed', tip: 'listed in manifest.json, but its file is gone from the folder' },
  { state: 'conflict', label: 'Conflicts', icon: 'warning', tip: 'the server has another entity of that name' },
  { state: 'deletedOnServer', label: 'Deleted on the Server', icon: 'trash', tip: 'pulled from this server, no longer on it' },
  { state: 'skipped', label: 'Not Pushed', icon: 'circle-slash', tip: 'stays on its server (a platform entity)' },
  { state: 'identical', label: 'Identical', icon: 'check', tip: 'the same on the server' },
];

export interface ScmResourceView {
  file: string;
  name: string;
  state: EntityState;
  detail: string;
  /** A conflict's choice for the next push (skip, adopt, duplicate), when one was made. */
  choice?: ConflictChoice;
}

/**
 * An entry of the view. Not a plain object: the menus hand it to the commands, and the command layer takes a plain
 * object for a script's options (which never asks); an entry is a user's click.
 */
class EntityResource implements vscode.SourceControlResourceState {
  readonly resourceUri: vscode.Uri;
  readonly decorations?: vscode.SourceControlResourceDecorations;
  readonly command?: vscode.Command;
  readonly contextValue?: string;
  constructor(state: vscode.SourceControlResourceState) {
    this.resourceUri = state.resourceUri;
    this.decorations = state.decorations;
    this.command = state.command;
    this.contextValue = state.contextValue;
  }
}

const json = (value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2));

export class BundleScm implements vscode.Disposable {
  private control: vscode.SourceControl | undefined;
  private readonly groups = new Map<EntityState, vscode.SourceControlResourceGroup>();
  private current: BundleStatus | undefined;

  constructor(
    private readonly documents: BundleDocuments,
    /** A conflict's choice remembered for the folder's push to that server. */
    private readonly choiceOf: (dir: string, server: string, id: string) => ConflictChoice | undefined = () => undefined,
  ) {}

  /** The folder shown (the last one checked). */
  get status(): BundleStatus | undefined {
    return this.current;
  }

  show(status: BundleStatus): void {
    this.current = status;
    const root = vscode.Uri.file(status.dir);
    if (!this.control || this.control.rootUri?.fsPath !== root.fsPath) {
      this.disposeControl();
      const control = vscode.scm.createSourceControl('datagrok', 'Datagrok', root);
      for (const g of GROUPS) {
        const group = control.createResourceGroup(g.state, g.label);
        group.hideWhenEmpty = true;
        this.groups.set(g.state, group);
      }
      control.inputBox.visible = false;
      control.acceptInputCommand = { command: 'datagrok.bundle.push', title: 'Push', arguments: uiArguments(root) };
      this.control = control;
    }
    const control = this.control;
    control.statusBarCommands = [
      { command: 'datagrok.bundle.refresh', title: `$(cloud) ${hostOf(status.serverUrl)}`, tooltip: `The bundle compared with ${status.serverUrl}: click to check again` },
    ];
    control.count = status.entities.filter((e) => e.state !== 'identical' && e.state !== 'skipped').length;
    for (const g of GROUPS) {
      const group = this.groups.get(g.state) as vscode.SourceControlResourceGroup;
      const entities = status.entities.filter((e) => e.state === g.state).sort((a, b) => a.file.localeCompare(b.file));
      group.label = `${g.label}`;
      group.resourceStates = entities.map((e) => this.resource(status, e, g));
    }
  }

  /** What the view lists, group by group (for the extension's test API). */
  resources(): Array<{ group: string; resources: ScmResourceView[] }> {
    return GROUPS.map((g) => ({
      group: g.label,
      resources: (this.current?.entities ?? [])
        .filter((e) => e.state === g.state)
        .map((e) => {
          const choice = this.current && e.state === 'conflict' ? this.choiceOf(this.current.dir, this.current.serverUrl, e.id) : undefined;
          return { file: e.file, name: e.name, state: e.state, detail: e.detail, ...(choice ? { choice } : {}) };
        }),
    })).filter((g) => g.resources.length > 0);
  }

  private resource(status: BundleStatus, e: EntityStatus, g: (typeof GROUPS)[number]): vscode.SourceControlResourceState {
    const uri = vscode.Uri.file(path.join(status.dir, e.file));
    const keys = e.state === 'changed' ? 'changed' : e.state === 'changedBoth' || e.state === 'changedOnServer' ? 'they differ in' : '';
    const detail = e.detail ? ` — ${keys ? `${keys}: ${e.detail}` : e.detail}` : '';
    // A conflict shows the choice made for the push: its icon, and what it will do.
    const choice = e.state === 'conflict' ? this.choiceOf(status.dir, status.serverUrl, e.id) : undefined;
    const chosen = choice ? `\nPush: ${CHOICE_TEXT[choice].label} — ${CHOICE_TEXT[choice].does(e.type, holderOf(e.detail))}` : '';
    const open = e.state === 'conflict' && !choice ? '\nChoose Skip, Adopt or Duplicate (inline or in the context menu); the push asks otherwise.' : '';
    return new EntityResource({
      resourceUri: uri,
      decorations: {
        tooltip: `${e.name} (${e.type}): ${g.tip}${detail}${chosen}${open}`,
        iconPath: new vscode.ThemeIcon(choice ? CHOICE_TEXT[choice].icon : g.icon),
        strikeThrough: e.state === 'deletedOnServer' || e.state === 'missingHere',
        faded: e.state === 'identical' || e.state === 'skipped',
      },
      command: codeOpenCommand(e, uri) ?? { command: 'datagrok.bundle.openDiff', title: 'Open Changes', arguments: [uri] },
      // A group's conflict takes no duplicate (group names are unique on a server): the menus tell them apart.
      contextValue: `datagrok.bundleEntity.${e.state}${e.state === 'conflict' && e.type === 'UserGroup' ? '.group' : ''}`,
    });
  }

  /** The entity the view shows at `uri` (a bundle file), or a clear refusal. */
  entity(uri: vscode.Uri): { status: BundleStatus; entity: EntityStatus } {
    const status = this.current;
    const entity = status?.entities.find((x) => vscode.Uri.file(path.join(status.dir, x.file)).fsPath === uri.fsPath);
    if (!status || !entity) throw new Error(`${uri.fsPath} is not an entity of the bundle the Datagrok Source Control view shows. Run "Datagrok: Diff Bundle" first.`);
    return { status, entity };
  }

  /** Both sides to merge by hand: the server's normalised JSON (left, read-only) and the bundle file itself (right, editable). */
  async openMerge(uri: vscode.Uri): Promise<{ left: vscode.Uri; right: vscode.Uri }> {
    const { status, entity: e } = this.entity(uri);
    const left = this.documents.put('server', status.dir, e.file, json(e.server));
    await vscode.commands.executeCommand('vscode.diff', left, uri, `${e.name}: ${hostOf(status.serverUrl)} ↔ bundle (edit the bundle side, save, then Take Mine)`, {
      preview: false,
    });
    return { left, right: uri };
  }

  /** The diff editor of an entity: its code when it is a script or a query (unless `asJson`), else its JSON. */
  async openDiff(uri: vscode.Uri, asJson = false): Promise<{ left: vscode.Uri; right: vscode.Uri }> {
    const { status, entity: e } = this.entity(uri);
    const host = hostOf(status.serverUrl);
    const code = asJson ? undefined : codeOf(e.type, e.local ?? e.server);
    let left: vscode.Uri;
    let right: vscode.Uri;
    if (code) {
      const file = `${e.file.replace(/\.json$/, '')}.${code.ext}`;
      left = this.documents.put('server', status.dir, file, String(e.server?.[code.key] ?? ''));
      // The bundle's side is the code itself, editable: its save writes into the JSON file (bundleCode.ts).
      right = e.local ? codeUriOf(uri, code.ext) : this.documents.put('local', status.dir, file, '');
    } else {
      left = this.documents.put('server', status.dir, e.file, json(e.server));
      right = e.state === 'missingHere' ? this.documents.put('local', status.dir, e.file, '') : uri;
    }
    const what = code ? `${code.key === 'query' ? 'query' : 'code'} of ${e.name}` : e.name;
    await vscode.commands.executeCommand('vscode.diff', left, right, `${what} (${host} ↔ bundle)`, { preview: true });
    return { left, right };
  }

  private disposeControl(): void {
    this.control?.dispose();
    this.control = undefined;
    this.groups.clear();
  }

  dispose(): void {
    this.disposeControl();
  }
}

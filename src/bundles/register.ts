// The bundles feature: pull, diff and push bundles interchangeable with `grok s`, and the Source Control
// provider "Datagrok" that shows a bundle's entities against a server, each opening a diff editor.
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { uiArguments } from '../core/commands';
import { uriOption } from '../core/options';
import { type ConflictChoice, choiceProblem } from '../platform/bundles/choices';
import { type Resolution, resolveEntity } from '../platform/bundles/resolve';
import { bundleStatus } from '../platform/bundles/states';
import type { Services } from '../services';
import { diffCommand, pullCommand, pushCommand } from './bundleCommands';
import { registerBundleCode } from './bundleCodeCommand';
import { CHOICE_TEXT, holderOf, PushChoices } from './bundleConflicts';
import { BUNDLE_SCHEME, BundleDocuments } from './bundleDocuments';
import { watchBundleFolders } from './bundleFolders';
import { BundleScm, type ScmResourceView } from './bundleScm';

/** What the extension's test API reads of the feature. */
export interface BundlesApi {
  /** The Source Control view's groups and resources (the last check). */
  scmResources(): Array<{ group: string; resources: ScmResourceView[] }>;
  /** The bundle folders the Explorer's context menu knows (their paths). */
  folders(): string[];
}

export function registerBundles(services: Services): BundlesApi {
  const documents = new BundleDocuments();
  const choices = new PushChoices();
  const scm = new BundleScm(documents, (dir, url, id) => choices.of(dir, url)[id]);
  const { commands, connection } = services;
  // The Explorer's Diff / Push on a bundle folder (a context key of the folders' paths), once the features
  // are loaded: activation stays light (on a manifest.json itself the items are always there). A folder's new
  // manifest (a pull) is another bundle: the conflict choices made for its push are forgotten.
  const bundleFolders = watchBundleFolders(services.log, (dir) => choices.clear(dir));
  /** Re-checks the folder against the server and shows it in the Source Control view (another folder: the others' choices are forgotten). */
  const show = async (dir: string, url: string) => {
    const client = await connection.clientFor(url);
    const status = await bundleStatus(client.entities, url, dir);
    choices.clear(undefined, dir);
    scm.show(status);
  };
  const target = (inv: { options?: { uri?: unknown; asJson?: unknown }; arg: unknown }) => {
    // From the view's menus the argument is the entry (a plain object with its resourceUri), which reads as options.
    const entry = (inv.arg as { resourceUri?: unknown } | undefined)?.resourceUri;
    const uri = entry instanceof vscode.Uri ? entry : inv.options ? uriOption(inv.options.uri, 'uri') : (inv.arg as vscode.Uri | undefined);
    const resolved = uri instanceof vscode.Uri ? uri : undefined;
    if (!resolved) throw new Error('Pick an entity in the Datagrok Source Control view.');
    return resolved;
  };
  /** Take mine or take theirs on one entity the view shows, then the view checked again: its new state. */
  const resolve = async (inv: { options?: { uri?: unknown }; arg: unknown; interactive: boolean }, resolution: Resolution) => {
    const { status, entity } = scm.entity(target(inv));
    const client = await connection.clientFor(status.serverUrl);
    const message = await resolveEntity(client.entities, status.serverUrl, status.dir, entity.id, resolution, { seen: entity.hash });
    await show(status.dir, status.serverUrl);
    const now = scm.status?.entities.find((e) => e.id === entity.id);
    if (inv.interactive) void vscode.window.showInformationMessage(message);
    return { file: entity.file, state: now?.state, message };
  };
  /** Skip, adopt or duplicate for one conflict the view shows: remembered for the folder's next push, shown on its entry. */
  const choose = (inv: { options?: { uri?: unknown }; arg: unknown; interactive: boolean }, choice: ConflictChoice) => {
    const { status, entity } = scm.entity(target(inv));
    if (entity.state !== 'conflict')
      throw badInput(`${entity.file} is not a name conflict (it is ${entity.state}): skip, adopt and duplicate are for an entity whose name the server holds under another id.`);
    const problem = choiceProblem(entity.type, choice);
    if (problem) throw badInput(`${entity.name}: ${problem}`);
    choices.set(status.dir, status.serverUrl, entity.id, choice);
    const message = `${entity.name}: ${CHOICE_TEXT[choice].does(entity.type, holderOf(entity.detail))}. Push to apply it.`;
    if (inv.interactive)
      void vscode.window
        .showInformationMessage(message, 'Push')
        .then((c) => (c ? vscode.commands.executeCommand('datagrok.bundle.push', ...uiArguments(vscode.Uri.file(status.dir))) : undefined));
    return { file: entity.file, name: entity.name, choice, message };
  };
  services.context.subscriptions.push(
    choices,
    choices.onDidChange((dir) => scm.status?.dir === dir && scm.show(scm.status)),
    bundleFolders,
    documents,
    scm,
    services.contributions.textContent(BUNDLE_SCHEME, documents),
    ...registerBundleCode(services),
    commands.register('datagrok.bundle.pull', (inv) =>
      pullCommand(services, inv, (dir) => {
        choices.clear(dir);
        return bundleFolders.check(vscode.Uri.joinPath(vscode.Uri.file(dir), 'manifest.json'));
      }),
    ),
    commands.register('datagrok.bundle.diff', (inv) => diffCommand(services, inv, show)),
    commands.register('datagrok.bundle.push', (inv) => pushCommand(services, inv, show, choices)),
    commands.register('datagrok.bundle.refresh', async (inv) => {
      const status = scm.status;
      if (!status) return vscode.commands.executeCommand('datagrok.bundle.diff');
      return inv.withProgress('Re-checking the bundle', () => show(status.dir, status.serverUrl));
    }),
    commands.register<{ uri?: unknown; asJson?: unknown }>('datagrok.bundle.openDiff', (inv) => scm.openDiff(target(inv), inv.options?.asJson === true)),
    commands.register<{ uri?: unknown }>('datagrok.bundle.openJsonDiff', (inv) => scm.openDiff(target(inv), true)),
    commands.register<{ uri?: unknown }>('datagrok.bundle.takeMine', (inv) => resolve(inv, 'mine')),
    commands.register<{ uri?: unknown }>('datagrok.bundle.takeTheirs', (inv) => resolve(inv, 'theirs')),
    commands.register<{ uri?: unknown }>('datagrok.bundle.merge', (inv) => scm.openMerge(target(inv))),
    commands.register<{ uri?: unknown }>('datagrok.bundle.conflictSkip', async (inv) => choose(inv, 'skip')),
    commands.register<{ uri?: unknown }>('datagrok.bundle.conflictAdopt', async (inv) => choose(inv, 'adopt')),
    commands.register<{ uri?: unknown }>('datagrok.bundle.conflictDuplicate', async (inv) => choose(inv, 'duplicate')),
  );
  return { scmResources: () => scm.resources(), folders: () => bundleFolders.folders() };
}

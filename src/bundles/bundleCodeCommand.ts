// datagrok.bundle.openCode: a bundle entity's code (a script's, a query's) opened as a document in its language,
// whose save writes back into the entity's JSON file. From the Explorer, the JSON file's editor title and the
// Source Control view it takes that file; from the palette, the JSON file in the editor, else it asks which; with
// `{ uri }` it asks nothing. Returns the code document's Uri. Local only: it needs no server.
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { type CommandInvocation, UserCancelled, uiArguments } from '../core/commands';
import { uriOption } from '../core/options';
import { entityCode } from '../platform/bundles/entityCode';
import { codeOf, type EntityStatus } from '../platform/bundles/states';
import type { Services } from '../services';
import { BUNDLE_CODE_OPTIONS, BUNDLE_CODE_SCHEME, BundleCodeFileSystem, codeUriOf, jsonUriOf } from './bundleCode';

export interface OpenCodeOptions {
  uri?: unknown;
}

/** Entity files of scripts and queries, as grok files them in a bundle. */
const ENTITY_FILES = '**/{Script,DataQuery}/*.json';
/** Enough to pick from; a larger workspace is better served by the Explorer's own menu. */
const MAX_PICKS = 500;

async function askEntityFile(): Promise<vscode.Uri> {
  const found = await vscode.workspace.findFiles(ENTITY_FILES, '**/node_modules/**', MAX_PICKS);
  if (found.length === 0) throw new Error('No script or query of a bundle is in this workspace (Script/*.json, DataQuery/*.json): pull one first (Datagrok: Pull to Bundle…).');
  const picked = await vscode.window.showQuickPick(
    found
      .map((uri) => ({ label: uri.path.slice(uri.path.lastIndexOf('/') + 1).replace(/\.json$/, ''), description: vscode.workspace.asRelativePath(uri), uri }))
      .sort((a, b) => (a.description ?? '').localeCompare(b.description ?? '')),
    { title: 'Open Code: which script or query', matchOnDescription: true },
  );
  if (!picked) throw new UserCancelled();
  return picked.uri;
}

/** The entity's JSON file the command is about: an option, a menu's Uri or Source Control entry, the editor's file, or asked for. */
async function entityFileOf(inv: CommandInvocation<OpenCodeOptions>): Promise<vscode.Uri> {
  let uri: vscode.Uri | undefined;
  if (inv.options) {
    uri = uriOption(inv.options.uri, 'uri');
    if (!uri) throw badInput("Give the entity's JSON file as { uri: Uri } (a Script/*.json or DataQuery/*.json file of a bundle).");
  } else {
    const arg = inv.arg instanceof vscode.Uri ? inv.arg : (inv.arg as vscode.SourceControlResourceState | undefined)?.resourceUri;
    const active = vscode.window.activeTextEditor?.document.uri;
    uri = arg ?? (active?.path.endsWith('.json') || active?.scheme === BUNDLE_CODE_SCHEME ? active : undefined) ?? (await askEntityFile());
  }
  if (uri.scheme === BUNDLE_CODE_SCHEME) return jsonUriOf(uri);
  if (uri.scheme !== 'file') throw badInput(`The entity's JSON file must be on disk (a file: Uri), not ${uri.scheme}:.`);
  return uri;
}

export async function openCodeCommand(inv: CommandInvocation<OpenCodeOptions>): Promise<vscode.Uri> {
  const json = await entityFileOf(inv);
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(json));
  } catch (e) {
    throw badInput(`${json.fsPath} cannot be read (${e instanceof Error ? e.message : String(e)}): open the code of an entity file that exists.`);
  }
  const uri = codeUriOf(json, entityCode(text, json.fsPath).ext);
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
  return uri;
}

/**
 * What clicking a script or query in the Source Control view opens when there is no server side worth comparing
 * (new here, identical, gone from the server, not pushed): its code, editable. Undefined: the diff opens.
 */
export function codeOpenCommand(e: EntityStatus, uri: vscode.Uri): vscode.Command | undefined {
  if (!['new', 'identical', 'deletedOnServer', 'skipped'].includes(e.state) || !e.local || !codeOf(e.type, e.local)) return undefined;
  return { command: 'datagrok.bundle.openCode', title: 'Open Code', arguments: uiArguments(uri) };
}

/** The code documents' file system and the Open Code command. */
export function registerBundleCode(services: Services): vscode.Disposable[] {
  const files = new BundleCodeFileSystem();
  return [
    files,
    services.contributions.fileSystem(BUNDLE_CODE_SCHEME, files, BUNDLE_CODE_OPTIONS),
    services.commands.register<OpenCodeOptions>('datagrok.bundle.openCode', (inv) => openCodeCommand(inv)),
  ];
}

// Pull Script: a script or query of the server, picked from the function catalog (the list shows at once,
// busy, and fills as the catalog answers), written as a file into a folder of the workspace (asked once,
// remembered per workspace; the name confined to that folder, an existing different file replaced only
// after a yes) and opened; with no folder open, opened read-only (`datagrok-script:`) with Save As….
import * as path from 'node:path';
import * as vscode from 'vscode';
import { writeFile, readFile } from 'node:fs/promises';
import { badInput } from '../api/errors';
import type { FuncInfo, ScriptEntity, ScriptKind } from '../api/types';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { uriOption } from '../core/options';
import { writeTarget } from '../platform/confinement';
import type { ScriptsContext } from './scriptCommands';
import { PULLED_SCHEME, type PulledScripts } from './pulledScripts';

export interface PullScriptOptions {
  /** The script's or query's name or `Namespace:Name`. */
  name?: string;
  kind?: ScriptKind;
  /** The folder to write it in; default: the one chosen before in this workspace, else the first workspace folder. */
  folder?: vscode.Uri | string;
  /** Replace a file of that name whose text differs (otherwise refused). */
  overwrite?: boolean;
}

/** Where pulled scripts go in this workspace (workspace state). */
const FOLDER_KEY = 'datagrok.scripts.pullFolder';

const EXTENSIONS: Record<string, string> = { python: 'py', r: 'R', javascript: 'js', julia: 'jl', octave: 'm', grok: 'grok' };

/** The file name a pulled script gets: its name and its language's extension. */
export function pulledFileName(kind: ScriptKind, name: string, language: string | undefined): string {
  const ext = kind === 'query' ? 'sql' : (EXTENSIONS[String(language ?? '').toLowerCase()] ?? 'txt');
  return `${name.replace(/^.*:/, '').replace(/[\\/]/g, '_')}.${ext}`;
}

interface Listed {
  kind: ScriptKind;
  id: string;
  name: string;
  nqName: string;
  language?: string;
}

interface ListedItem extends vscode.QuickPickItem {
  listed?: Listed;
}

/** The pick, shown at once and filled from the catalog (what the Functions view loaded, when it did). */
async function pickListed(c: ScriptsContext): Promise<Listed> {
  const pick = vscode.window.createQuickPick<ListedItem>();
  pick.title = 'Pull Script';
  pick.placeholder = 'The script or query to open (listing the server’s scripts and queries…)';
  pick.matchOnDescription = true;
  pick.busy = true;
  pick.show();
  const { catalog } = c.services.platform;
  let listed = false;
  const fill = (funcs: readonly FuncInfo[]) => {
    const active = pick.activeItems[0]?.label;
    const items = funcs
      .filter((f) => f.kind === 'script' || f.kind === 'query')
      .map((f) => ({
        label: f.nqName,
        description: f.kind === 'query' ? 'query' : f.language,
        detail: f.description || undefined,
        listed: { kind: f.kind as ScriptKind, id: f.id, name: f.name, nqName: f.nqName, language: f.language },
      }));
    pick.items = items.length > 0 ? items : [{ label: '$(info) The server lists no scripts or queries you can read.' }];
    // A fresher list keeps the row the user is on.
    const again = pick.items.find((i) => i.label === active);
    if (again) pick.activeItems = [again];
    pick.placeholder = 'The script or query to open';
  };
  // What this session listed before (the Functions view, an earlier pull) shows at once; the list is asked again meanwhile.
  void catalog.lastListedFunctions().then(
    (known) => {
      if (known && !listed) fill(known);
    },
    () => undefined,
  );
  void catalog
    .searchFunctions('')
    .then(
      (funcs) => {
        listed = true;
        fill(funcs);
      },
      (error: unknown) => {
        if (pick.items.length === 0) pick.items = [{ label: `$(error) The scripts could not be listed: ${error instanceof Error ? error.message : String(error)}` }];
      },
    )
    .finally(() => {
      pick.busy = false;
    });
  return new Promise<Listed>((resolve, reject) => {
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0] ?? pick.activeItems[0];
      if (!item?.listed) return;
      resolve(item.listed);
      pick.hide();
    });
    pick.onDidHide(() => {
      reject(new UserCancelled());
      pick.dispose();
    });
  });
}

/** The named one (programmatic): by the server's own search, exact name or `Namespace:Name`. */
async function findNamed(c: ScriptsContext, name: string, kind: ScriptKind | undefined): Promise<Listed> {
  const client = await c.services.connection.client();
  const wanted = name.trim().toLowerCase();
  const kinds = kind ? [kind] : (['script', 'query'] as const);
  const all = (await Promise.all(kinds.map(async (k) => (await client.listScripts(k, wanted.replace(/^.*:/, ''))).map((e) => ({ k, e }))))).flat();
  const found = all.find(({ e }) => e.name.toLowerCase() === wanted || (e.nqName ?? '').toLowerCase() === wanted);
  if (!found) throw badInput(`The server has no script or query named "${name}".`);
  return { kind: found.k, id: found.e.id, name: found.e.name, nqName: found.e.nqName ?? found.e.name, language: found.e.language };
}

/** The folder to write into: given, remembered, asked (once per workspace), or none (no folder open). */
async function folderFor(c: ScriptsContext, inv: CommandInvocation<PullScriptOptions>): Promise<vscode.Uri | undefined> {
  const given = inv.options ? uriOption(inv.options.folder, 'folder') : undefined;
  if (given) return given;
  const state = c.services.context.workspaceState;
  const remembered = state.get<string>(FOLDER_KEY);
  if (remembered) {
    const uri = vscode.Uri.parse(remembered, true);
    // A folder removed since is forgotten: the next pull asks again.
    const there = await Promise.resolve(vscode.workspace.fs.stat(uri)).then(
      (s) => (s.type & vscode.FileType.Directory) !== 0,
      () => false,
    );
    if (there) return uri;
    await state.update(FOLDER_KEY, undefined);
  }
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!workspace) return undefined;
  if (!inv.interactive) return workspace;
  const picked = await vscode.window.showOpenDialog({
    title: 'Pull Script: the folder pulled scripts are saved in (asked once for this workspace)',
    defaultUri: workspace,
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: 'Save Pulled Scripts Here',
  });
  if (!picked?.[0]) throw new UserCancelled();
  await state.update(FOLDER_KEY, picked[0].toString());
  return picked[0];
}

async function existingText(full: string): Promise<string | undefined> {
  try {
    return await readFile(full, 'utf8');
  } catch {
    return undefined;
  }
}

/** Writes the script's code into the folder (confined there); the file's Uri. Never replaces a different file without a yes. */
async function writePulled(folder: vscode.Uri, fileName: string, code: string, inv: CommandInvocation<PullScriptOptions>): Promise<vscode.Uri> {
  if (folder.scheme !== 'file') throw badInput(`Pulled scripts are written to a folder on this computer; ${folder.toString(true)} is not one.`);
  const target = await writeTarget(folder.fsPath, fileName, { create: false });
  if (target.reason !== undefined) throw badInput(`${fileName} cannot be written in ${folder.fsPath}: ${target.reason}. Nothing was written.`);
  const uri = vscode.Uri.file(target.full);
  const before = await existingText(target.full);
  if (before !== undefined && before !== code) {
    if (inv.options) {
      if (inv.options.overwrite !== true) throw badInput(`${target.full} already exists with other text: pass { overwrite: true } to replace it. Nothing was written.`);
    } else {
      const replace = 'Replace';
      const open = 'Open Existing';
      const choice = await vscode.window.showWarningMessage(
        `${fileName} already exists in ${path.basename(folder.fsPath)} with other text.`,
        { modal: true, detail: `Replace it with the server's code? Its current text is lost (unless it is in Git). "Open Existing" leaves it as it is.` },
        replace,
        open,
      );
      if (choice === open) return uri;
      if (choice !== replace) throw new UserCancelled();
    }
  }
  if (before !== code) await writeFile(target.full, code, 'utf8');
  return uri;
}

/** datagrok.scripts.pull `{ name, kind?, folder?, overwrite? }`: the script or query as a file (or read-only, with no folder open), opened; its Uri. */
export async function pullScriptCommand(c: ScriptsContext, pulled: PulledScripts, inv: CommandInvocation<PullScriptOptions>): Promise<vscode.Uri> {
  if (inv.options && (typeof inv.options.name !== 'string' || inv.options.name.trim() === ''))
    throw badInput('Give the script or query to pull as { name } (its name or Namespace:Name).');
  if (inv.options?.kind !== undefined && inv.options.kind !== 'script' && inv.options.kind !== 'query') throw badInput('The option "kind" is "script" or "query".');
  const listed = inv.options?.name ? await findNamed(c, inv.options.name, inv.options.kind) : await pickListed(c);
  const client = await c.services.connection.client();
  const full: ScriptEntity = await inv.withProgress(`Pulling ${listed.nqName}`, (_p, signal) => client.getScript(listed.kind, listed.id, { signal }));
  const code = String((listed.kind === 'query' ? full.query : full.script) ?? '');
  const fileName = pulledFileName(listed.kind, full.name ?? listed.name, full.language ?? listed.language);
  const folder = await folderFor(c, inv);
  if (!folder) {
    const uri = pulled.put(listed.kind, listed.id, fileName, code);
    await vscode.window.showTextDocument(uri, { preview: false });
    if (inv.interactive) {
      const saveAs = 'Save As…';
      void vscode.window.showInformationMessage(`${listed.nqName} is open read-only: no folder is open to save it in.`, saveAs).then((choice) => {
        if (choice === saveAs) void vscode.commands.executeCommand('datagrok.scripts.savePulledAs', uri, { datagrokFromUi: true });
      });
    }
    return uri;
  }
  const uri = await writePulled(folder, fileName, code, inv);
  await vscode.window.showTextDocument(uri, { preview: false });
  c.services.log.info(`Pulled ${listed.kind} ${listed.nqName} (${listed.id}) into ${uri.fsPath}`);
  return uri;
}

/** datagrok.scripts.savePulledAs: a read-only pulled script saved as a file the user names (the save dialog asks before replacing); its Uri. */
export async function savePulledAsCommand(pulled: PulledScripts, inv: CommandInvocation<{ uri?: vscode.Uri | string; target?: vscode.Uri | string }>): Promise<vscode.Uri> {
  const source = inv.options ? uriOption(inv.options.uri, 'uri') : inv.arg instanceof vscode.Uri ? inv.arg : vscode.window.activeTextEditor?.document.uri;
  if (!source || source.scheme !== PULLED_SCHEME) throw badInput('Save Script As works on a pulled script opened read-only: open one with Pull Script first.');
  const code = await pulled.text(source);
  let target = inv.options ? uriOption(inv.options.target, 'target') : undefined;
  if (inv.options && !target) throw badInput('Pass { target } (a file Uri or path) to save the script as.');
  if (!target) {
    const base = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = path.posix.basename(source.path);
    target = await vscode.window.showSaveDialog({ title: `Save ${name} as`, defaultUri: base ? vscode.Uri.joinPath(base, name) : undefined });
    if (!target) throw new UserCancelled();
  } else {
    const exists = await Promise.resolve(vscode.workspace.fs.stat(target)).then(
      () => true,
      () => false,
    );
    if (exists) throw badInput(`${target.toString(true)} already exists. Nothing was written.`);
  }
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(code));
  await vscode.window.showTextDocument(target, { preview: false });
  return target;
}

// The Functions view's commands: thin handlers over the catalog and the tree, bound to their ids in
// register.ts. Errors go to the command layer.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { hostOf } from '../api/names';
import type { FuncInfo } from '../api/types';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { optionalText, uriOption } from '../core/options';
import { inputsOf, parameterFileText } from '../platform/functions/signature';
import type { Services } from '../services';
import { ExplorerNode } from '../ui/explorerTree';
import { pickLoading } from '../ui/loadingPick';
import { BACK } from '../ui/quickSteps';
import { kindIcon, parameterFileName } from './functionDisplay';
import { FunctionNode, type FunctionsTree } from './functionsTree';
import { checkFunctionName } from './parameterFile';
import { type RunFunctionOptions, type RunServices, runFunctionCommand } from './runCommand';

/** What the view's commands work on. */
export interface FunctionsView {
  readonly services: Services;
  readonly tree: FunctionsTree;
  readonly view: vscode.TreeView<ExplorerNode>;
  /** Where results are shown and runs remembered. */
  readonly runs: RunServices;
}

export interface NewParameterFileOptions {
  /** `Package:Name`. */
  function: string;
  /** The file to write, or a folder to write `<Name>.datagrok.json` in; default: the first workspace folder. */
  uri?: vscode.Uri | string;
  /** Replace an existing file (refused otherwise). */
  overwrite?: boolean;
}

function host(v: FunctionsView): string {
  try {
    return hostOf(v.services.connection.baseUrl());
  } catch {
    return 'the server';
  }
}

/** Reloads the functions; from an error item's Retry, only that part. */
export async function refreshFunctions(v: FunctionsView, inv: CommandInvocation<never>): Promise<void> {
  if (inv.arg instanceof ExplorerNode) v.tree.retry(inv.arg);
  // The catalog tells the tree (and every other view) to ask again.
  else v.services.platform.catalog.reload();
}

export async function showMoreFunctions(v: FunctionsView, inv: CommandInvocation<never>): Promise<void> {
  if (inv.arg instanceof ExplorerNode) v.tree.showMore(inv.arg);
}

/** Filters the view on the server (smart-search text); '' clears. Returns the matching functions ([] when cleared). */
export async function searchFunctions(v: FunctionsView, inv: CommandInvocation<{ text?: string }>): Promise<FuncInfo[]> {
  let text: string;
  if (inv.options) {
    text = optionalText(inv.options.text, 'text') ?? '';
  } else {
    const typed = await vscode.window.showInputBox({
      title: 'Datagrok: Search Functions',
      prompt: `Words or a smart filter (e.g. source = "script", package = "Chem", #stats), looked up on ${host(v)}; empty shows all`,
      value: v.tree.search,
      ignoreFocusOut: true,
    });
    if (typed === undefined) throw new UserCancelled();
    text = typed.trim();
  }
  // Looked up first: a failed search leaves the view as it was.
  const found = text ? await inv.withProgress(`Looking up "${text}" on ${host(v)}…`, () => v.services.platform.catalog.searchFunctions(text)) : [];
  v.tree.setSearch(text);
  return found;
}

async function pickFunction(v: FunctionsView, title: string): Promise<FuncInfo> {
  const catalog = v.services.platform.catalog;
  const picked = await pickLoading<vscode.QuickPickItem & { func: FuncInfo }>({
    title,
    what: 'functions',
    server: host(v),
    placeholder: `A function on ${host(v)}`,
    log: v.services.log,
    empty: `${host(v)} lists no functions.`,
    load: async () => (await catalog.searchFunctions('')).map((func) => ({ label: `$(${kindIcon(func.kind)}) ${func.nqName}`, detail: func.description, func })),
  });
  if (picked === BACK) throw new UserCancelled();
  return picked.func;
}

/** The function a command works on: its tree item, `{ function }`, or a pick. */
async function targetFunction(v: FunctionsView, inv: CommandInvocation<{ function?: string }>, command: string, title: string): Promise<FuncInfo> {
  if (inv.arg instanceof FunctionNode) return inv.arg.func;
  if (inv.options) {
    if (inv.options.function === undefined) throw badInput(`${command} needs { function: "Package:Name" }.`);
    return placeholderFunc(checkFunctionName(inv.options.function, 'the option "function"'));
  }
  return pickFunction(v, title);
}

/** A function known only by name (Copy Name needs no more; the others read its signature). */
function placeholderFunc(nqName: string): FuncInfo {
  const [pkg, name] = nqName.includes(':') ? nqName.split(':', 2) : ['', nqName];
  return { id: nqName, name, nqName, package: pkg, kind: 'function', tags: [] };
}

export async function copyFunctionName(v: FunctionsView, inv: CommandInvocation<{ function?: string }>): Promise<string> {
  const func = await targetFunction(v, inv, 'datagrok.functions.copyName', 'Datagrok: Copy Function Name');
  await vscode.env.clipboard.writeText(func.nqName);
  if (inv.interactive) void vscode.window.setStatusBarMessage(`Copied ${func.nqName}`, 3000);
  return func.nqName;
}

async function exists(uri: vscode.Uri): Promise<vscode.FileType | undefined> {
  try {
    return (await vscode.workspace.fs.stat(uri)).type;
  } catch {
    return undefined;
  }
}

/** Where the parameter file goes: `uri` (a file or folder), the first workspace folder, or (asked) a save dialog. */
async function parameterFileTarget(func: FuncInfo, options: NewParameterFileOptions | undefined): Promise<vscode.Uri> {
  const name = parameterFileName(func);
  const given = uriOption(options?.uri, 'uri');
  if (given) return (await exists(given)) === vscode.FileType.Directory ? vscode.Uri.joinPath(given, name) : given;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (folder) return vscode.Uri.joinPath(folder, name);
  if (options) throw badInput(`No workspace folder is open to write ${name} in: pass { uri } (the file or a folder).`);
  const picked = await vscode.window.showSaveDialog({
    title: `New Parameter File for ${func.nqName}`,
    defaultUri: vscode.Uri.file(path.join(os.homedir(), name)),
    filters: { 'Parameter files': ['json'] },
  });
  if (!picked) throw new UserCancelled();
  return picked;
}

/**
 * Writes the function's parameter file (`$function`, every input with its default or a placeholder,
 * required first, types and descriptions as comments) and opens it. An existing file is kept unless
 * `overwrite` (asked, it offers to open it instead). `keepExisting` opens an existing file unasked.
 */
async function writeParameterFile(
  v: FunctionsView,
  named: FuncInfo,
  options: NewParameterFileOptions | undefined,
  keepExisting: boolean,
  inv: CommandInvocation<unknown>,
): Promise<vscode.Uri> {
  const func = await inv.withProgress(`Reading ${named.nqName} on ${host(v)}…`, () => v.services.platform.catalog.func(named.nqName));
  const target = await parameterFileTarget(func, options);
  const shown = target.scheme === 'file' ? target.fsPath : target.toString(true);
  let write = true;
  if ((await exists(target)) !== undefined) {
    if (options) {
      if (!options.overwrite) throw badInput(`${shown} already exists: refused to overwrite it (pass { overwrite: true } to replace it).`);
    } else if (keepExisting) {
      write = false;
    } else {
      const open = 'Open Existing';
      const replace = 'Overwrite';
      const choice = await vscode.window.showWarningMessage(`${path.posix.basename(target.path)} already exists.`, { modal: true, detail: shown }, open, replace);
      if (!choice) throw new UserCancelled();
      write = choice === replace;
    }
  }
  if (write) {
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(parameterFileText(func)));
    v.services.log.info(`Wrote the parameter file of ${func.nqName} to ${shown}`);
  }
  await vscode.window.showTextDocument(target, { preview: false });
  return target;
}

export async function newParameterFile(v: FunctionsView, inv: CommandInvocation<NewParameterFileOptions>): Promise<vscode.Uri> {
  if (inv.options && inv.options.overwrite !== undefined && typeof inv.options.overwrite !== 'boolean') throw badInput('The option "overwrite" must be true or false.');
  const func = await targetFunction(v, inv, 'datagrok.functions.newParameterFile', 'Datagrok: New Parameter File');
  return writeParameterFile(v, func, inv.options, false, inv);
}

/**
 * Run… from a tree item: a function without inputs runs at once; otherwise its parameter file is
 * created (or the existing one opened) to fill in, and its ▶ Run CodeLens runs it.
 */
async function runFromView(v: FunctionsView, node: FunctionNode, inv: CommandInvocation<RunFunctionOptions>): Promise<unknown> {
  const func = await inv.withProgress(`Reading ${node.func.nqName} on ${host(v)}…`, () => v.services.platform.catalog.func(node.func.nqName));
  if (func.params && inputsOf(func).length === 0) {
    const options: RunFunctionOptions = { function: func.nqName, params: {} };
    return runFunctionCommand(v.services, v.services.platform.tables, v.runs, { ...inv, arg: options, options });
  }
  const uri = await writeParameterFile(v, func, undefined, true, inv);
  void vscode.window.showInformationMessage(`Fill in the inputs of ${func.nqName}, then click "▶ Run" above them.`);
  return uri;
}

/** datagrok.functions.run: from a Functions view item, Run…; otherwise a parameter file's run (runCommand.ts). */
export function runFunction(v: FunctionsView, inv: CommandInvocation<RunFunctionOptions>): Promise<unknown> {
  if (inv.arg instanceof FunctionNode) return runFromView(v, inv.arg, inv);
  return runFunctionCommand(v.services, v.services.platform.tables, v.runs, inv);
}

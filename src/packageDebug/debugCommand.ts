// `datagrok.packages.debug`: the F5 of the `datagrok` debug type as a command. With
// `{ folder?: Uri, url?, publish?, runtimeExecutable?, runtimeArgs? }` it runs the pre-launch steps
// (bad input rejects before anything is published or launched), starts VS Code's JavaScript debugger on
// the signed-in browser and returns `{ name, url, browser }`; from the palette it debugs the package of
// the active editor (or the workspace's only one).
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import type { CommandInvocation } from '../core/commands';
import { optionalText, uriOption } from '../core/options';
import type { DatagrokLaunch } from '../platform/packages/debug/debugConfiguration';
import type { Services } from '../services';
import { prepareLaunch } from './packageLaunch';

interface DebugOptions {
  folder?: unknown;
  url?: unknown;
  publish?: unknown;
  runtimeExecutable?: unknown;
  runtimeArgs?: unknown;
}

function launchOf(o: DebugOptions): DatagrokLaunch {
  const folder = uriOption(o.folder, 'folder');
  if (folder && folder.scheme !== 'file') throw badInput(`The package must be on disk (a file: Uri), not ${folder.scheme}:.`);
  if (o.publish !== undefined && typeof o.publish !== 'boolean') throw badInput('"publish" must be true or false.');
  if (o.runtimeArgs !== undefined && !(Array.isArray(o.runtimeArgs) && o.runtimeArgs.every((a) => typeof a === 'string'))) throw badInput('"runtimeArgs" must be a list of texts.');
  return {
    package: folder?.fsPath,
    url: optionalText(o.url, '"url"'),
    publish: o.publish as boolean | undefined,
    runtimeExecutable: optionalText(o.runtimeExecutable, '"runtimeExecutable"'),
    runtimeArgs: o.runtimeArgs as string[] | undefined,
  };
}

export async function debugCommand(services: Services, inv: CommandInvocation<DebugOptions>): Promise<{ name: string; url: string; browser: string }> {
  const arg = inv.arg instanceof vscode.Uri ? { folder: inv.arg } : {};
  const launch = launchOf(inv.options ?? arg);
  const config = await inv.withProgress('Debug the package', (progress, signal) => prepareLaunch(services, launch, undefined, progress, signal));
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(String(config.webRoot)));
  const started = await vscode.debug.startDebugging(folder, config as vscode.DebugConfiguration);
  if (!started) throw new Error(`VS Code's JavaScript debugger did not start ${String(config.runtimeExecutable)}: see the Debug Console and the Datagrok log.`);
  return { name: String(config.name), url: String(config.url), browser: String(config.runtimeExecutable) };
}

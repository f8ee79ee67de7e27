// The data view feature: the custom editor, and "Open in Data View" (datagrok.dataView.open) for a CSV
// file, from the explorer, an editor's title or with `{ uri }`; it returns the Uri it opened.
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { uriOption } from '../core/options';
import type { Services } from '../services';
import { DATA_VIEW, DataViews, showInDataView } from './provider';

export interface OpenDataViewOptions {
  /** The CSV file: a Uri, a URI string or a path. */
  uri: vscode.Uri | string;
}

/** The active editor's file, else the active tab's (its editor may not be known to the extension host yet, just after it opened). */
function activeFile(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return vscode.window.activeTextEditor?.document.uri ?? (input instanceof vscode.TabInputText ? input.uri : undefined);
}

async function openDataViewCommand(inv: CommandInvocation<OpenDataViewOptions>): Promise<vscode.Uri> {
  let uri = inv.options ? uriOption(inv.options.uri, 'uri') : inv.arg instanceof vscode.Uri ? inv.arg : activeFile();
  if (!uri && inv.interactive) {
    const picked = await vscode.window.showOpenDialog({ title: 'Open in Data View', canSelectMany: false, filters: { CSV: ['csv'] } });
    uri = picked?.[0];
    if (!uri) throw new UserCancelled();
  }
  if (!uri) throw badInput('The option "uri" (the CSV file to open) is required.');
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.Directory) throw badInput(`${uri.toString(true)} is a folder, not a CSV file.`);
  } catch (error) {
    if (error instanceof vscode.FileSystemError) throw badInput(`Cannot open ${uri.toString(true)} in the data view: ${error.message}`);
    throw error;
  }
  await showInDataView(uri);
  return uri;
}

export function registerDataView(services: Services): DataViews {
  const views = new DataViews(services.context.extensionUri, services.platform.openedTables, services.log);
  services.context.subscriptions.push(
    views,
    services.contributions.customEditor(DATA_VIEW, views),
    services.commands.register('datagrok.dataView.open', (inv: CommandInvocation<OpenDataViewOptions>) => openDataViewCommand(inv)),
  );
  return views;
}

// datagrok.tables.open: a table downloaded as CSV (streamed to a file in the extension's storage, named
// after the table) and opened in the data view at once, which shows the rows as they arrive (or, with
// datagrok.tables.openIn "text", in a CSV editor once downloaded).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CommandInvocation } from '../core/commands';
import { badInput } from '../api/errors';
import { maxEditorBytes } from '../core/limits';
import { formatBytes } from '../api/units';
import type { Services } from '../services';
import { pickEntity } from '../ui/entityPick';
import { EntityNode } from '../ui/entityNodes';
import { tableSearch } from '../ui/entitySearch';
import type { RecentEntities } from '../platform/recent';
import { safeFileName, sameTableName } from '../platform/tables/names';
import { type OpenedTable, tableFileName } from '../platform/tables/opened';

export interface OpenTableOptions {
  /** The table's ID or name (`<project>.<table>`, `Project:table` or `<owner>:<project>:<table>`). */
  name: string;
}

/** Opens a CSV file as a document with language CSV (the extension contributes the language id). */
export async function showCsvDocument(document: vscode.TextDocument, preserveFocus = false): Promise<vscode.TextDocument> {
  const csv = document.languageId === 'csv' ? document : await vscode.languages.setTextDocumentLanguage(document, 'csv');
  await vscode.window.showTextDocument(csv, { preview: false, preserveFocus });
  return csv;
}

/** The data view's custom editor (src/dataView; opened through VS Code, as features do not import each other). */
const DATA_VIEW = 'datagrok.dataView';

/** The table's ID, full name and page, from the server's list when it is there (else the name as given). */
async function describeTable(services: Services, recent: RecentEntities, server: string, given: string, node?: EntityNode): Promise<OpenedTable> {
  const key = given.toLowerCase();
  // `Sales.q1` names the user's own `Admin:Sales:q1`, as the server reads it; a bare name any table of that name.
  const login = services.connection.peekUser()?.name;
  const listed = await services.platform.catalog.listTables().then(
    (tables) => tables.find((t) => t.id === given || (t.nqName !== undefined && sameTableName(t.nqName, given, login))) ?? tables.find((t) => t.name.toLowerCase() === key),
    () => undefined,
  );
  const id = listed?.id ?? node?.entityId;
  const name = listed ? (listed.nqName ?? (listed.projectName ? `${listed.projectName}:${listed.name}` : listed.name)) : given;
  const url = node?.url ?? recent.list(server).find((r) => r.ID === id)?.URL;
  return { id, name, server, ...(url ? { url } : {}) };
}

export async function openTableCommand(services: Services, recent: RecentEntities, inv: CommandInvocation<OpenTableOptions>): Promise<vscode.Uri> {
  let name: string;
  /** What the messages call the table: its name where it is known (a tree item), else what was given. */
  let title: string | undefined;
  let node: EntityNode | undefined;
  if (inv.options) {
    if (typeof inv.options.name !== 'string' || inv.options.name.trim() === '') {
      throw badInput('The option "name" (the table\'s ID or name) is required.');
    }
    name = inv.options.name.trim();
  } else if (inv.arg instanceof EntityNode && inv.arg.kind === 'table') {
    name = inv.arg.entityId;
    title = inv.arg.row.description ? `${inv.arg.row.name} (${inv.arg.row.description})` : inv.arg.row.name;
    node = inv.arg;
  } else {
    const client = await services.connection.client();
    name = await pickEntity(recent.list(client.baseUrl), {
      title: 'Open Table',
      placeholder: 'Pick a table (type to search the server), or type a table ID or name (e.g. Demo:demog)',
      search: tableSearch(services.platform.catalog),
    });
  }
  const client = await services.connection.client();
  const storage = services.context.globalStorageUri;
  if (storage.scheme !== 'file') {
    throw badInput(`Cannot download tables here: the extension's storage (${storage.toString(true)}) is not on a local disk.`);
  }
  // Saved under the table's own name (demog.csv for Demo:demog), in a folder of its ID.
  const table = await describeTable(services, recent, client.baseUrl, name, node);
  const folder = vscode.Uri.joinPath(storage, 'tables', safeFileName(table.id ?? name));
  await vscode.workspace.fs.createDirectory(folder);
  const file = vscode.Uri.joinPath(folder, tableFileName(table.name));
  if (vscode.workspace.getConfiguration('datagrok').get<string>('tables.openIn', 'dataView') !== 'text') {
    // The data view opens at once, on the file the download writes into, and shows the rows as they arrive.
    await fs.promises.rm(file.fsPath, { force: true }); // a view still open on the old file keeps reading it
    await fs.promises.writeFile(file.fsPath, '');
    let received = false;
    const downloading = inv.withProgress(`Downloading table ${name}`, (progress, signal) =>
      client.downloadTable(
        name,
        { file: file.fsPath, growing: true },
        {
          onProgress: (p) => {
            progress.bytes(p);
            if (p.bytes > 0) received = true;
          },
          signal,
        },
      ),
    );
    // Pushing this file defaults to this table (replacing it); the data view shows its name and page.
    services.platform.openedTables.remember(file.fsPath, { ...table, download: downloading });
    const opened = Promise.resolve(vscode.commands.executeCommand('vscode.openWith', file, DATA_VIEW, { preview: false }));
    try {
      const { bytes } = await downloading;
      await opened;
      services.log.info(`Downloaded table ${name} (${formatBytes(bytes)}) to ${file.fsPath}`);
    } catch (error) {
      // No partial table left behind. A view with rows says the download stopped; one that got nothing (the
      // table not found, the server refused) is closed: the error says why.
      await fs.promises.rm(file.fsPath, { force: true }).catch(() => undefined);
      if (!received) await opened.then(() => closeDataView(file)).catch(() => undefined);
      throw error;
    }
    return file;
  }
  const { bytes } = await inv.withProgress(`Downloading table ${name}`, (progress, signal) =>
    client.downloadTable(name, { file: file.fsPath }, { onProgress: progress.bytes, signal }),
  );
  services.log.info(`Downloaded table ${name} (${formatBytes(bytes)}) to ${file.fsPath}`);
  services.platform.openedTables.remember(file.fsPath, table);
  if (bytes > maxEditorBytes()) {
    // Too large for an editor: the CSV stays on disk, where the user can open it with a tool of their choice.
    const message = `The table ${title ?? table.name} (${formatBytes(bytes)}) is larger than what opens in an editor (the setting Files: Max Editor File Size MB), so it was downloaded but not opened. Save As… puts the CSV where you want it.`;
    const open = vscode.window.showInformationMessage(message, 'Save As…', 'Open Anyway', 'Copy Path');
    if (inv.interactive) {
      const choice = await open;
      if (choice === 'Open Anyway') await showCsvDocument(await vscode.workspace.openTextDocument(file));
      if (choice === 'Copy Path') await vscode.env.clipboard.writeText(file.fsPath);
      if (choice === 'Save As…') await saveTableAs(file, title ?? table.name);
    }
    return file;
  }
  // An already open, unchanged document of that file follows the new content on disk.
  const document = await vscode.workspace.openTextDocument(file);
  const shown = await showCsvDocument(document);
  return shown.uri;
}

/** Closes the data view of `file` (its tabs in every group). */
async function closeDataView(file: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputCustom && tab.input.viewType === DATA_VIEW && tab.input.uri.toString() === file.toString());
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
}

/** Copies the downloaded CSV where the user picks (the download stays where it is). */
async function saveTableAs(file: vscode.Uri, name: string): Promise<void> {
  const dir = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri ?? vscode.Uri.file(os.homedir());
  const target = await vscode.window.showSaveDialog({
    title: `Save table ${name} as CSV`,
    defaultUri: vscode.Uri.joinPath(dir, path.basename(file.fsPath)),
    filters: { CSV: ['csv'] },
    saveLabel: 'Save',
  });
  if (!target) return;
  await vscode.workspace.fs.copy(file, target, { overwrite: true });
  void vscode.window
    .showInformationMessage(`Saved the table ${name} to ${target.fsPath}.`, 'Reveal in Explorer')
    .then((c) => (c ? vscode.commands.executeCommand('revealFileInOS', target) : undefined));
}

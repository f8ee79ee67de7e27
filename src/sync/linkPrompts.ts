// What Link Folder asks from the palette or the explorer: the local folder, the connector (listed as the
// server answers), and the folder within it: the connector's folders, listed as they load, with the one
// named like the local folder first, or "Create '<name>'" when the server has none.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DatagrokApi } from '../api/datagrokApi';
import { badInput } from '../api/errors';
import { UserCancelled } from '../core/commands';
import { optionalText } from '../core/options';
import type { Services } from '../services';
import { noteItem, pickLoading } from '../ui/loadingPick';
import { BACK } from '../ui/quickSteps';
import { folderChoices, folderProblem, normalFolder } from './folderChoices';

/** The `path` option: a folder within the connector, '' for its root. */
export function linkPath(value: unknown): string {
  const folder = normalFolder(optionalText(value, 'path') ?? '');
  const problem = folderProblem(folder);
  if (problem) throw badInput(problem);
  return folder;
}

/** How deep, and how many, of the connector's folders the folder step lists. */
const LIST_DEPTH = 3;
const LIST_MOST = 500;

/** Lists the connector's folders breadth first (a few listings at a time), handing over each level's as they come. */
async function listFolders(client: DatagrokApi, connector: string, add: (folders: string[]) => void, signal: AbortSignal): Promise<void> {
  let level = [''];
  let count = 0;
  for (let depth = 1; depth <= LIST_DEPTH && level.length > 0 && count < LIST_MOST; depth++) {
    const next: string[] = [];
    const queue = [...level];
    const worker = async () => {
      for (let dir = queue.shift(); dir !== undefined && count < LIST_MOST; dir = queue.shift()) {
        const entries = await client.listFiles(connector, dir, { signal });
        const folders = entries.filter((e) => !e.isFile).map((e) => e.path);
        if (signal.aborted) return;
        count += folders.length;
        next.push(...folders);
        add(folders);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    level = next;
  }
}

interface ConnectorItem extends vscode.QuickPickItem {
  connector: string;
}

async function askConnector(services: Services, client: DatagrokApi, title: string): Promise<string> {
  const picked = await pickLoading<ConnectorItem>({
    title,
    what: 'connectors',
    server: services.connection.activeHost(),
    placeholder: 'The connector whose folder this folder keeps in step with (or type its name, e.g. System:AppData)',
    log: services.log,
    load: async (_add, signal) =>
      (await client.listConnections(undefined, { signal })).map((c) => ({
        label: c.nqName || c.name,
        description: c.dataSource,
        detail: c.description,
        connector: c.nqName || c.name,
      })),
    // A typed name works too (a server that lists no connectors, or one not listed).
    arrange: (loaded, typed) => {
      const own =
        typed && !loaded.some((c) => c.connector.toLowerCase() === typed.toLowerCase())
          ? [{ label: `$(edit) ${typed}`, description: 'the connector you typed', connector: typed, alwaysShow: true }]
          : [];
      return [...loaded, ...own];
    },
    empty: 'The server lists no connectors: type one, e.g. System:AppData or <login>:Home',
  });
  if (picked === BACK) throw new UserCancelled();
  return picked.connector;
}

interface FolderItem extends vscode.QuickPickItem {
  folder: string;
}

async function askFolder(services: Services, client: DatagrokApi, title: string, connector: string, proposed: string): Promise<string> {
  const picked = await pickLoading<FolderItem>({
    title,
    what: `the folders of ${connector}`,
    server: services.connection.activeHost(),
    placeholder: `A folder of ${connector} (or type a path, e.g. projects/q3). Nothing moves until you sync.`,
    log: services.log,
    load: (add, signal) => listFolders(client, connector, (folders) => add(folders.map((folder) => ({ label: folder, folder }))), signal).then(() => undefined),
    arrange: (loaded, typed, done) =>
      folderChoices(
        loaded.map((f) => f.folder),
        proposed,
        typed,
        done,
        connector,
      ).map((c) => (c.path === undefined ? noteItem(c.label) : { label: c.label, description: c.description, alwaysShow: c.alwaysShow, folder: c.path })),
  });
  if (picked === BACK) throw new UserCancelled();
  return picked.folder;
}

/** The folder (unless given), the connector and the folder within it. */
export async function askLink(services: Services, arg: unknown): Promise<{ folder: vscode.Uri; connector: string; path: string }> {
  let folder = arg instanceof vscode.Uri && arg.scheme === 'file' ? arg : undefined;
  if (!folder) {
    const picked = await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
      openLabel: 'Link This Folder',
      title: 'Link a local folder to a connector folder',
    });
    if (!picked?.[0]) throw new UserCancelled();
    folder = picked[0];
  }
  const name = path.basename(folder.fsPath);
  const client = await services.connection.client();
  const connector = await askConnector(services, client, `Link ${name}: connector`);
  const within = await askFolder(services, client, `Link ${name}: folder within ${connector}`, connector, normalFolder(name));
  return { folder, connector, path: within };
}

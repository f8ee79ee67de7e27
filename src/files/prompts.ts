// What the file commands ask when run from the palette: a connector and a path.
import * as vscode from 'vscode';
import { UserCancelled } from '../core/commands';
import type { Services } from '../services';
import { parseUri, SCHEME } from './uris';
import { checkConnector, checkPath, platformName } from './connectorPaths';

const OTHER = 'Other…';

function validation(check: (value: string) => unknown): (value: string) => string | undefined {
  return (value) => {
    try {
      check(value);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };
}

/**
 * The server's file shares (its connections list), with their descriptions. A server that does not list
 * them gets the connectors a user has for sure: the demo files, the app data, the user's Home. Then those
 * already mounted, and any other typed in.
 */
export async function pickConnector(services: Services, title: string): Promise<string> {
  const names: string[] = [];
  const descriptions = new Map<string, string>();
  try {
    for (const share of await services.platform.catalog.fileShares()) {
      names.push(share.nqName);
      if (share.description) descriptions.set(share.nqName, share.description);
    }
  } catch {
    // no listing on this server (or it is down: the command itself will say so)
  }
  if (names.length === 0) {
    names.push('System:DemoFiles', 'System:AppData');
    try {
      const user = await services.connection.currentUser();
      names.push(`${user.name}:Home`);
    } catch {
      // not signed in or the server is down: the command itself will say so
    }
  }
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme === SCHEME) {
      const mounted = platformName(parseUri(folder.uri).connector);
      if (!names.includes(mounted)) names.push(mounted);
    }
  }
  const items: vscode.QuickPickItem[] = [
    ...names.map((label) => ({ label, description: descriptions.get(label) })),
    { label: OTHER, description: 'type the name of another connector' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: 'Choose a connector (a platform file share)' });
  if (!picked) throw new UserCancelled();
  if (picked.label !== OTHER) return picked.label;
  const typed = await vscode.window.showInputBox({
    title,
    prompt: 'Connector name as on the platform, e.g. System:DemoFiles or <login>:Home',
    validateInput: validation(checkConnector),
  });
  if (typed === undefined) throw new UserCancelled();
  return typed.trim();
}

export async function askPath(title: string, connector: string, value = ''): Promise<string> {
  const typed = await vscode.window.showInputBox({
    title,
    prompt: `Path of the file within ${connector}, e.g. geo/cities.csv`,
    value,
    validateInput: validation((v) => checkPath(v)),
  });
  if (typed === undefined) throw new UserCancelled();
  return typed;
}

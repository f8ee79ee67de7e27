// What the file commands ask when run from the palette: a connector and a path (two steps, with counters
// and a Back button on the second).
import * as vscode from 'vscode';
import { UserCancelled } from '../core/commands';
import type { Services } from '../services';
import { askChoice, askText, BACK, type StepUi } from '../ui/quickSteps';
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
export async function pickConnector(services: Services, title: string, steps: Omit<StepUi, 'title'> = {}): Promise<string> {
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
  const picked = await askChoice(items, { title, ...steps, placeholder: 'Choose a connector (a platform file share)' });
  if (picked === BACK) throw new UserCancelled();
  if (picked.label !== OTHER) return picked.label;
  const typed = await vscode.window.showInputBox({
    title,
    prompt: 'Connector name as on the platform, e.g. System:DemoFiles or <login>:Home',
    validateInput: validation(checkConnector),
  });
  if (typed === undefined) throw new UserCancelled();
  return typed.trim();
}

/** A connector (step 1/2), then the path of a file in it (step 2/2; Back returns to the connector). */
export async function askConnectorPath(services: Services, title: string, value = ''): Promise<{ connector: string; path: string }> {
  for (;;) {
    const connector = await pickConnector(services, title, { step: 1, totalSteps: 2 });
    const typed = await askText({
      title,
      step: 2,
      totalSteps: 2,
      back: true,
      prompt: `Path of the file within ${connector}, e.g. geo/cities.csv`,
      value,
      validate: validation((v) => checkPath(v)),
    });
    if (typed !== BACK) return { connector, path: typed };
  }
}

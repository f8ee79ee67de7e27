// What the file commands ask when run from the palette: a connector and a path (two steps, with counters
// and a Back button on the second).
import * as vscode from 'vscode';
import { UserCancelled } from '../core/commands';
import type { Services } from '../services';
import { pickLoading } from '../ui/loadingPick';
import { askText, BACK, type StepUi } from '../ui/quickSteps';
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

interface ConnectorItem extends vscode.QuickPickItem {
  other?: true;
}

/** The connectors a user has for sure, offered when the server lists none: the demo files, the app data, the user's Home. */
async function knownConnectors(services: Services): Promise<ConnectorItem[]> {
  const names = ['System:DemoFiles', 'System:AppData'];
  try {
    names.push(`${(await services.connection.currentUser()).name}:Home`);
  } catch {
    // not signed in or the server is down: the command itself will say so
  }
  return names.map((label) => ({ label }));
}

/**
 * The server's file shares (its connections list), with their descriptions, shown as they load. A server
 * that does not list them gets the connectors a user has for sure. Then those already mounted, and any
 * other typed in.
 */
export async function pickConnector(services: Services, title: string, steps: Omit<StepUi, 'title'> = {}): Promise<string> {
  const mounted = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === SCHEME).map((f) => platformName(parseUri(f.uri).connector));
  const other: ConnectorItem = { label: OTHER, description: 'type the name of another connector', other: true };
  const picked = await pickLoading<ConnectorItem>({
    title,
    ...steps,
    what: 'connectors',
    server: services.connection.activeHost(),
    placeholder: 'Choose a connector (a platform file share)',
    log: services.log,
    load: async () => {
      const shares = await services.platform.catalog.fileShares().catch(() => []);
      return shares.length > 0 ? shares.map((s) => ({ label: s.nqName, description: s.description || undefined })) : knownConnectors(services);
    },
    arrange: (loaded) => {
      const listed = new Set(loaded.map((i) => i.label));
      return [...loaded, ...[...new Set(mounted)].filter((m) => !listed.has(m)).map((label) => ({ label, description: 'mounted here' })), other];
    },
  });
  if (picked === BACK) throw new UserCancelled();
  if (!picked.other) return picked.label;
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

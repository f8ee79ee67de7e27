// The `datagrok.serverUrl` setting: which server is active, read and written where it is in force.
import * as vscode from 'vscode';
import { badInput } from '../api/errors';
import { normalizeBaseUrl } from '../api/names';

/** The active server's base URL as configured (may be invalid: `configuredBaseUrl()` checks it). */
export function configuredServerUrl(): string {
  return vscode.workspace.getConfiguration('datagrok').get<string>('serverUrl', '').trim();
}

/** The setting's normalised base URL; throws a clear message when the setting is bad. */
export function configuredBaseUrl(): string {
  try {
    return normalizeBaseUrl(configuredServerUrl());
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw badInput(`The setting datagrok.serverUrl is not a valid server URL: ${why}`);
  }
}

/**
 * Whether the server URL comes from this workspace's settings rather than the user's: a cloned
 * repository could name any server, so sign-in says so before a key is sent there.
 */
export function serverUrlFromWorkspace(): boolean {
  const inspected = vscode.workspace.getConfiguration('datagrok').inspect<string>('serverUrl');
  return inspected?.workspaceFolderValue !== undefined || inspected?.workspaceValue !== undefined;
}

/**
 * Writes the setting where it is in force: a workspace value would hide a global one, so when the
 * workspace sets it, the workspace value is the one changed.
 */
export async function setServerUrl(baseUrl: string): Promise<void> {
  if (configuredServerUrl() === baseUrl) return;
  const config = vscode.workspace.getConfiguration('datagrok');
  const inspected = config.inspect<string>('serverUrl');
  const target = inspected?.workspaceValue !== undefined && vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await config.update('serverUrl', baseUrl, target);
}

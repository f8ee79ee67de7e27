// Which server a `datagrok` URI belongs to: its authority is the host[:port] of a base URL the user
// signed in to. The client comes from the Connection for that server, so a key stored for one server
// is never sent to another.
import * as vscode from 'vscode';
import { isDatagrokError } from '../api/errors';
import type { DatagrokApi } from '../api/datagrokApi';
import type { Connection } from '../connection/connection';
import { serverAuthority } from './connectorPaths';

export interface ServerClient {
  readonly baseUrl: string;
  readonly client: DatagrokApi;
}

/**
 * The server each authority was last resolved to in this window. A URI names only a host: when the
 * servers sharing it change (one signed out, another on the same host signed in), a file opened from
 * the first is never read from or written to the second.
 */
const resolved = new Map<string, string>();

/** The distinct base URLs (the active one and those signed in to before) whose host[:port] is that authority. */
export function serversFor(connection: Connection, authority: string): string[] {
  const candidates: string[] = [];
  try {
    candidates.push(connection.baseUrl());
  } catch {
    // an invalid serverUrl setting: only the known servers can match
  }
  candidates.push(...connection.knownServers());
  return [...new Set(candidates.filter((baseUrl) => serverAuthority(baseUrl) === authority.toLowerCase()))];
}

/**
 * The client for the server a URI names; NoPermissions with "sign in to <host>" when there is no key
 * for it. Two servers with keys on one host (https://h/a/api and https://h/b/api, or http and https on
 * the same host and port) share one authority, so the URI cannot say which a file came from: refused,
 * rather than guessed, until only one of them is signed in. An authority never changes server within
 * a window (see `resolved`).
 */
export async function clientForAuthority(connection: Connection, authority: string, what: string): Promise<ServerClient> {
  const signIn = () =>
    vscode.FileSystemError.NoPermissions(`Sign in to ${authority} to open ${what}: run "Datagrok: Sign In" with that server's URL (ending in /api) and your API key.`);
  const candidates = serversFor(connection, authority);
  const signedIn: string[] = [];
  for (const candidate of candidates) if (await connection.hasKey(candidate)) signedIn.push(candidate);
  if (signedIn.length > 1) {
    throw vscode.FileSystemError.NoPermissions(
      `Two signed-in servers share the host ${authority} (${signedIn.join(', ')}): a datagrok:// URI names only the host, ` +
        `so ${what} cannot be tied to one of them, and it is neither read nor saved. Sign out of all but one of them to use their connector files.`,
    );
  }
  const baseUrl = signedIn[0];
  if (baseUrl === undefined) throw signIn();
  const before = resolved.get(authority.toLowerCase());
  if (before !== undefined && before !== baseUrl) {
    throw vscode.FileSystemError.NoPermissions(
      `Connector files of ${authority} were used from ${before} in this window, but ${authority} now means ${baseUrl}: ` +
        `${what} is neither read nor saved there, as it may belong to the other server. Reload the window to use the files of ${baseUrl}.`,
    );
  }
  let client: DatagrokApi;
  try {
    client = await connection.clientFor(baseUrl);
  } catch (error) {
    if (isDatagrokError(error, 'unauthorized')) throw signIn();
    throw error;
  }
  resolved.set(authority.toLowerCase(), baseUrl);
  return { baseUrl, client };
}

// Which server a `datagrok` URI belongs to: its authority is the host[:port] of a base URL the user
// signed in to. The client comes from the Connection for that server, so a key stored for one server
// is never sent to another.
import * as vscode from 'vscode';
import { isDatagrokError } from '../api/errors';
import type { DatagrokApi } from '../api/types';
import type { Connection } from '../connection/connection';
import { serverAuthority } from './uris';

export interface ServerClient {
  readonly baseUrl: string;
  readonly client: DatagrokApi;
}

/** The base URL (active server first, then the servers signed in to) whose host is that authority. */
export function baseUrlFor(connection: Connection, authority: string): string | undefined {
  const candidates: string[] = [];
  try {
    candidates.push(connection.baseUrl());
  } catch {
    // an invalid serverUrl setting: only the known servers can match
  }
  candidates.push(...connection.knownServers());
  return candidates.find((baseUrl) => serverAuthority(baseUrl) === authority.toLowerCase());
}

/** The client for the server a URI names; NoPermissions with "sign in to <host>" when there is no key for it. */
export async function clientForAuthority(connection: Connection, authority: string, what: string): Promise<ServerClient> {
  const signIn = () =>
    vscode.FileSystemError.NoPermissions(
      `Sign in to ${authority} to open ${what}: run "Datagrok: Sign In" with that server's URL (ending in /api) and your API key.`,
    );
  const baseUrl = baseUrlFor(connection, authority);
  if (!baseUrl) throw signIn();
  try {
    return { baseUrl, client: await connection.clientFor(baseUrl) };
  } catch (error) {
    if (isDatagrokError(error, 'unauthorized')) throw signIn();
    throw error;
  }
}

// The `datagrok` URI form of connector files:
//
//   datagrok://<host[:port]>/<Connector.Rest.Name>/<path within the connector>
//
// The authority is the host (and port) of the server's base URL, so a URI always names the server it
// belongs to and maps back to a base URL the user signed in to; the first path segment is the
// connector in REST form (every ':' of the platform name becomes '.'); the rest is the file path.
// A mount is the URI of a connector's root: datagrok://public.datagrok.ai/System.DemoFiles
import * as vscode from 'vscode';
import { type ConnectorPath, checkConnector, checkPath, serverAuthority } from './connectorPaths';

export const SCHEME = 'datagrok';

/** The URI of a file or folder (path '') of a connector on the server with that base URL. */
export function connectorUri(baseUrl: string, connector: string, path: string): vscode.Uri {
  const rest = checkConnector(connector);
  const within = checkPath(path, true);
  return vscode.Uri.from({ scheme: SCHEME, authority: serverAuthority(baseUrl), path: `/${rest}${within ? `/${within}` : ''}` });
}

/** Splits a `datagrok` URI; a URI that names no connector or has '.', '..' or empty parts is not found. */
export function parseUri(uri: vscode.Uri): ConnectorPath {
  const parts = uri.path.replace(/^\/+/, '').replace(/\/+$/, '').split('/');
  const [connector, ...rest] = parts;
  if (uri.scheme !== SCHEME || !uri.authority || !connector || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw vscode.FileSystemError.FileNotFound(`${uri.toString(true)} is not a Datagrok connector file: expected datagrok://<server>/<Connector>/<path>.`);
  }
  return { authority: uri.authority.toLowerCase(), connector, path: rest.join('/') };
}

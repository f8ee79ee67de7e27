// Connector names and paths within a connector, as users and the platform write them. Pure: no vscode
// here (uris.ts turns them into `datagrok` URIs).
import { badInput } from '../api/errors';
import { hostOf, toRestName } from '../api/names';

export interface ConnectorPath {
  /** host[:port] of the server's base URL, as in the URI. */
  readonly authority: string;
  /** REST form, e.g. System.DemoFiles. */
  readonly connector: string;
  /** '/'-separated path within the connector, no leading or trailing '/'; '' for the connector's root. */
  readonly path: string;
}

/** The platform form of a connector name, e.g. System.DemoFiles → System:DemoFiles. */
export function platformName(connector: string): string {
  return connector.replaceAll('.', ':');
}

/** The URI authority that names a server: the host[:port] of its base URL. */
export function serverAuthority(baseUrl: string): string {
  return hostOf(baseUrl).toLowerCase();
}

/** Checks a connector name given in ':' or '.' form and returns its REST form; rejects with a clear message. */
export function checkConnector(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') {
    throw badInput('Name the connector, e.g. "System:DemoFiles" (or "System.DemoFiles").');
  }
  const rest = toRestName(name.trim());
  if (/[/\\]/.test(rest) || rest.split('.').some((part) => part === '')) {
    throw badInput(`"${name}" is not a connector name: it looks like "System:DemoFiles" or "<login>:Home", without "/".`);
  }
  return rest;
}

/**
 * Checks a path within a connector and returns it without a leading or trailing '/'. Empty parts
 * ('a//b') and '.' or '..' parts are refused: a path never leaves its connector.
 */
export function checkPath(path: unknown, allowRoot = false): string {
  if (typeof path !== 'string') {
    throw badInput('Give the path of the file within the connector, e.g. "geo/cities.csv".');
  }
  const trimmed = path.replace(/^\//, '').replace(/\/$/, '');
  if (trimmed === '') {
    if (allowRoot) return '';
    throw badInput('The file path is empty: give the path within the connector, e.g. "geo/cities.csv".');
  }
  for (const segment of trimmed.split('/')) {
    if (segment === '') {
      throw badInput(`The path "${path}" has an empty part ("//"): remove the doubled "/".`);
    }
    if (segment === '.' || segment === '..') {
      throw badInput(`The path "${path}" contains "${segment}": paths within a connector cannot contain "." or ".." parts.`);
    }
  }
  return trimmed;
}

/** How a person and the platform name a connector file: `System:DemoFiles/geo/cities.csv`. */
export function displayPath(file: Pick<ConnectorPath, 'connector' | 'path'>): string {
  return file.path ? `${platformName(file.connector)}/${file.path}` : platformName(file.connector);
}

/** The parent folder's path within the connector ('' for the root). */
export function parentPath(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * How two files of one server relate: the same server file (the connector written differently, e.g.
 * `System.DemoFiles` / `system.demofiles` / `System:DemoFiles`), the same file but for the case of its
 * path (one file on a case-insensitive store such as SMB or a cloud share), or other files.
 */
export function compareFiles(a: Pick<ConnectorPath, 'connector' | 'path'>, b: Pick<ConnectorPath, 'connector' | 'path'>): 'same' | 'caseOnly' | 'other' {
  if (toRestName(a.connector).toLowerCase() !== toRestName(b.connector).toLowerCase()) return 'other';
  if (a.path === b.path) return 'same';
  return a.path.toLowerCase() === b.path.toLowerCase() ? 'caseOnly' : 'other';
}

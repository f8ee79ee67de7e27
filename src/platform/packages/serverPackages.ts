// The packages the active server has, and which version of a local package it serves: `GET /packages`
// (the internal route the grok CLI's `grok s packages` reads, datagrok-tools bin/utils/node-dapi.js) answers
// every package with its `publishedVersions` ({version, isCurrent, isLatest, debug}); a debug version is
// listed only to its publisher. A server names a package without its npm scope and in PascalCase
// (`@datagrok/power-pack` is `PowerPack`), so names are matched on their letters and digits. Kept for the
// session (PerSession), reloaded on request. No vscode.
import type { PackageInfo } from '../../api/catalogTypes';
import { PerSession, type ServerSession } from '../session';

export interface PublishedVersion {
  version: string;
  isCurrent: boolean;
  isLatest: boolean;
  debug: boolean;
}

export interface ServerPackage {
  name: string;
  friendlyName?: string;
  versions: PublishedVersion[];
}

/** What the server has of one local package. */
export interface ServerVersion {
  /** The release version the server serves (its current one, else its latest). */
  release?: string;
  /** Whether the user has a debug version of it there (listed to its publisher alone). */
  debug: boolean;
}

/** The packages of a `GET /packages` answer (read by the client's listPackages). */
export function serverPackagesOf(answer: readonly PackageInfo[]): ServerPackage[] {
  return answer.map((p) => {
    const versions = p.publishedVersions.map(({ version, isCurrent, isLatest, debug }) => ({ version, isCurrent, isLatest, debug }));
    // A server that lists the package entity alone (no published versions) may still name its version.
    if (versions.length === 0 && p.version) versions.push({ version: p.version, isCurrent: true, isLatest: true, debug: false });
    return { name: p.name, friendlyName: p.friendlyName, versions };
  });
}

/** A package name as compared with the server's: no npm scope, letters and digits only, lower case. */
export function packageKey(name: string): string {
  return name
    .replace(/^@[^/]*\//, '')
    .replace(/[^A-Za-z0-9]/g, '')
    .toLowerCase();
}

/** The server's package of a local one (by its package.json name, or its friendlyName). */
export function serverPackageOf(list: readonly ServerPackage[], local: { name: string; friendlyName?: string }): ServerPackage | undefined {
  const keys = new Set([local.name, local.friendlyName].filter((n): n is string => !!n).map(packageKey));
  return list.find((p) => keys.has(packageKey(p.name))) ?? list.find((p) => !!p.friendlyName && keys.has(packageKey(p.friendlyName)));
}

/** Which version the server serves of a package it lists (undefined: it has none, "not published"). */
export function serverVersionOf(pkg: ServerPackage | undefined): ServerVersion | undefined {
  if (!pkg) return undefined;
  const releases = pkg.versions.filter((v) => !v.debug);
  const release = (releases.find((v) => v.isCurrent) ?? releases.find((v) => v.isLatest) ?? releases[0])?.version;
  const debug = pkg.versions.some((v) => v.debug);
  return release || debug ? { release: release || undefined, debug } : undefined;
}

/** How the view words it beside a package. */
export function serverVersionText(version: ServerVersion | undefined): string {
  if (!version) return 'not published';
  const release = version.release ? `server ${version.release}` : '';
  return [release, version.debug ? 'your debug version' : ''].filter(Boolean).join(' · ');
}

/** The server's packages, read once per session (a failed read is forgotten, so Retry reads again). */
export class ServerPackages {
  private readonly loaded: PerSession<{ list?: Promise<ServerPackage[]> }>;

  constructor(private readonly session: ServerSession) {
    this.loaded = new PerSession(session, () => ({}));
  }

  list(signal?: AbortSignal): Promise<ServerPackage[]> {
    const slot = this.loaded.get();
    if (!slot.list) {
      const loading = this.session
        .client()
        .then((api) => api.listPackages(undefined, { signal }))
        .then(serverPackagesOf);
      slot.list = loading;
      loading.catch(() => {
        if (slot.list === loading) slot.list = undefined;
      });
    }
    return slot.list;
  }

  /** Forgets what was read (Refresh, a publish): the next `list` asks the server. */
  reload(): void {
    this.loaded.reset();
  }
}

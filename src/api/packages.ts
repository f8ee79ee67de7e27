// Datagrok packages on a server: the routes `grok publish` (datagrok-tools 6.7.5 publish.js) uses, with the
// key as it sends it (`Authorization: Dev <key>`), and the package list (`GET /packages`) that tells what a
// user loads. The npm name goes in the path segment by segment (`@scope/name` is two), each encoded.
import type { PackageInfo, PackageVersionInfo } from './catalogTypes';
import { badInput } from './errors';
import type { Transport } from './http';
import { list, one } from './shapes';
import { upload } from './uploads';
import type { CallOptions, TransferOptions, UploadSource } from './types';

type Raw = Record<string, unknown>;

/** `packages/dev/<name>` with the npm name's segments encoded. */
function devRoute(npmName: string): string {
  const segments = npmName.split('/');
  const scoped = segments.length === 2 && segments[0].startsWith('@') && segments[1] !== '';
  if (!(segments.length === 1 || scoped) || segments.some((s) => s === '' || s === '.' || s === '..')) {
    throw badInput(`"${npmName}" is not an npm package name: a name, or @scope/name.`);
  }
  return `/packages/dev/${segments.map(encodeURIComponent).join('/')}`;
}

/** What the caller last uploaded as a debug version: file → its modification time as grok writes it (`{}` when none). */
export async function packageTimestamps(http: Transport, npmName: string, options: CallOptions = {}): Promise<Record<string, string>> {
  const raw = await one<Raw>(http, {
    method: 'GET',
    path: `${devRoute(npmName)}/timestamps`,
    what: `Reading the published files of ${npmName}`,
    signal: options.signal,
    authScheme: 'Dev',
  });
  return Object.fromEntries(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Uploads a package archive (the zip `grok publish` sends), as a debug version or a release. */
export async function publishPackage(http: Transport, npmName: string, archive: UploadSource, debug: boolean, options: TransferOptions = {}): Promise<void> {
  const what = `Publishing ${npmName}`;
  await upload(devRoute(npmName), what, archive, options, async (spec) => {
    await http.json<unknown>({ ...spec, query: { debug, rebuild: false, dropDb: false }, authScheme: 'Dev' });
  });
}

function version(o: Raw): PackageVersionInfo | undefined {
  if (typeof o.version !== 'string') return undefined;
  return {
    version: o.version,
    debug: o.debug === true,
    isCurrent: o.isCurrent === true,
    isLatest: o.isLatest === true,
    buildNumber: typeof o.buildNumber === 'number' ? o.buildNumber : undefined,
    updatedOn: typeof o.updatedOn === 'string' ? o.updatedOn : undefined,
  };
}

/** The packages matching a search text, as the caller sees them. */
export async function listPackages(http: Transport, text: string | undefined, options: CallOptions = {}): Promise<PackageInfo[]> {
  const raw = await list<Raw>(http, { method: 'GET', path: '/packages', query: { text: text || undefined }, what: 'Listing packages', signal: options.signal });
  return raw.flatMap((o) => {
    if (typeof o.name !== 'string' || typeof o.id !== 'string') return [];
    const versions = Array.isArray(o.publishedVersions) ? (o.publishedVersions as Raw[]).map(version).filter((v): v is PackageVersionInfo => v !== undefined) : [];
    return [
      {
        id: o.id,
        name: o.name,
        friendlyName: typeof o.friendlyName === 'string' ? o.friendlyName : undefined,
        version: typeof o.version === 'string' ? o.version : undefined,
        updatedOn: typeof o.updatedOn === 'string' ? o.updatedOn : undefined,
        publishedVersions: versions,
      },
    ];
  });
}

// Packages published to the emulator (`grok publish`), as a real server keeps them: per package a list of
// published versions. A release version is named by `package.json`'s version and seen by everyone (the
// newest release is the current one); a debug version is named by its publisher's login (js-api's Node
// loader and `grok test` look for `{debug: true, version: <login>}`) and seen only by its publisher, who
// then gets it instead of the release. A debug upload carries only the files changed since the
// publisher's last one (its `timestamps.json` lists them all): the others are kept.
import { randomUUID } from 'node:crypto';
import { uuidFrom } from './entity-json';
import type { FuncDef } from './func-catalog';
import { ApiError } from './http';
import { type PackageFunction, packageFunctions } from './package-annotations';
import { runPackageFunction } from './package-runner';

export interface PackageVersion {
  id: string;
  /** The release's version, or for a debug version the publisher's login. */
  version: string;
  /** `package.json`'s version as uploaded. */
  packageVersion: string;
  debug: boolean;
  /** The user id of the publisher. */
  publisher: string;
  buildHash: string;
  buildNumber: number;
  createdOn: string;
  updatedOn: string;
  files: Map<string, Buffer>;
  /** The uploaded `timestamps.json`: file → mtime as the client saw it. */
  timestamps: Record<string, string>;
  functions: PackageFunction[];
}

export interface StoredPackage {
  id: string;
  /** The server's name: the npm name without its scope, kebab-case as PascalCase (`@x/power-pack` → `PowerPack`). */
  name: string;
  friendlyName: string;
  description: string;
  versions: PackageVersion[];
}

export interface Upload {
  /** The npm name from the URL. */
  npmName: string;
  files: Map<string, Buffer>;
  debug: boolean;
  publisher: { id: string; login: string };
}

/** datagrok-tools utils `kebabToCamelCase(removeScope(name))`: what `grok test` calls a package. */
export function serverName(npmName: string): string {
  const bare = npmName.split('/').pop() ?? npmName;
  const camel = bare.replace(/-./g, (x) => x[1].toUpperCase());
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

export class PackageStore {
  readonly packages = new Map<string, StoredPackage>();

  reset(): void {
    this.packages.clear();
  }

  find(nameOrId: string): StoredPackage | undefined {
    const lower = nameOrId.toLowerCase();
    return this.packages.get(serverName(nameOrId).toLowerCase()) ?? [...this.packages.values()].find((p) => p.id === lower);
  }

  /** The version a user loads: their own debug version, else the current release. */
  visibleVersion(p: StoredPackage, userId: string): PackageVersion | undefined {
    return p.versions.find((v) => v.debug && v.publisher === userId) ?? this.current(p);
  }

  private current(p: StoredPackage): PackageVersion | undefined {
    const releases = p.versions.filter((v) => !v.debug);
    return releases.reduce<PackageVersion | undefined>((newest, v) => (!newest || v.updatedOn >= newest.updatedOn ? v : newest), undefined);
  }

  /** The timestamps of the caller's last debug upload (`{}` when none: every file is sent). */
  timestamps(npmName: string, userId: string): Record<string, string> {
    const p = this.find(npmName);
    return p?.versions.find((v) => v.debug && v.publisher === userId)?.timestamps ?? {};
  }

  publish(upload: Upload): { pkg: StoredPackage; version: PackageVersion } {
    const manifestBytes = upload.files.get('package.json');
    const previous = this.find(upload.npmName);
    const previousDebug = previous?.versions.find((v) => v.debug && v.publisher === upload.publisher.id);
    // A debug upload without package.json kept it unchanged since the last one.
    const manifestText = (manifestBytes ?? (upload.debug ? previousDebug?.files.get('package.json') : undefined))?.toString('utf8');
    if (manifestText === undefined) throw new ApiError(400, 'The package archive has no package.json');
    let manifest: Record<string, unknown>;
    try {
      manifest = JSON.parse(manifestText) as Record<string, unknown>;
    } catch (e) {
      throw new ApiError(400, `package.json is not valid JSON: ${(e as Error).message}`);
    }
    if (typeof manifest.name !== 'string' || manifest.name === '') throw new ApiError(400, 'package.json has no name');
    if (serverName(manifest.name).toLowerCase() !== serverName(upload.npmName).toLowerCase()) {
      throw new ApiError(400, `The archive is package ${manifest.name}, not ${upload.npmName}`);
    }
    if (typeof manifest.version !== 'string' || !/^\d+\.\d+\.\d+/.test(manifest.version)) {
      throw new ApiError(400, `package.json has no valid version (${JSON.stringify(manifest.version ?? null)})`);
    }
    const timestampsText = upload.files.get('timestamps.json')?.toString('utf8');
    const timestamps = timestampsText ? (JSON.parse(timestampsText) as Record<string, string>) : {};
    const files = new Map<string, Buffer>();
    if (upload.debug && previousDebug) {
      for (const f of Object.keys(timestamps)) {
        const kept = previousDebug.files.get(f);
        if (kept) files.set(f, kept);
      }
    }
    for (const [f, bytes] of upload.files) if (f !== 'timestamps.json') files.set(f, bytes);

    const name = serverName(manifest.name);
    const pkg: StoredPackage = previous ?? {
      id: uuidFrom(`package:${name}`),
      name,
      friendlyName: typeof manifest.friendlyName === 'string' ? manifest.friendlyName : name,
      description: '',
      versions: [],
    };
    pkg.description = typeof manifest.description === 'string' ? manifest.description : '';
    if (typeof manifest.friendlyName === 'string') pkg.friendlyName = manifest.friendlyName;
    const versionName = upload.debug ? upload.publisher.login : manifest.version;
    const same = pkg.versions.find((v) => v.debug === upload.debug && v.version === versionName && (!upload.debug || v.publisher === upload.publisher.id));
    const now = new Date().toISOString();
    const version: PackageVersion = {
      id: same?.id ?? randomUUID(),
      version: versionName,
      packageVersion: manifest.version,
      debug: upload.debug,
      publisher: upload.publisher.id,
      buildHash: randomUUID().replaceAll('-', '').slice(0, 16),
      buildNumber: (same?.buildNumber ?? 0) + 1,
      createdOn: same?.createdOn ?? now,
      updatedOn: now,
      files,
      timestamps,
      functions: packageFunctions(files),
    };
    pkg.versions = [...pkg.versions.filter((v) => v !== same), version];
    this.packages.set(name.toLowerCase(), pkg);
    return { pkg, version };
  }

  /** A package as `GET /packages` lists it to a user; undefined when the user sees no version of it. */
  json(p: StoredPackage, userId: string): Record<string, unknown> | undefined {
    const loaded = this.visibleVersion(p, userId);
    if (!loaded) return undefined;
    const current = this.current(p);
    const versions = p.versions.filter((v) => !v.debug || v.publisher === userId);
    return {
      '#type': 'Package',
      id: p.id,
      name: p.name,
      friendlyName: p.friendlyName,
      description: p.description,
      version: loaded.packageVersion,
      createdOn: p.versions[0]?.createdOn,
      updatedOn: loaded.updatedOn,
      publishedVersions: versions.map((v) => versionJson(v, v === current)),
    };
  }

  /** The functions a user sees: those of the version each package gives them, runnable. */
  functionsFor(userId: string): FuncDef[] {
    return [...this.packages.values()].flatMap((p) => {
      const v = this.visibleVersion(p, userId);
      if (!v) return [];
      return v.functions.map<FuncDef>((fn) => ({
        id: uuidFrom(`package-function:${p.name}:${fn.name}`),
        nqName: `${p.name}:${fn.name}`,
        description: fn.description,
        tags: fn.tags,
        inputs: fn.inputs,
        outputs: fn.outputs,
        run: (params) => runPackageFunction(v.files, p.name, fn, params),
      }));
    });
  }
}

/** One of `publishedVersions`: the fields js-api's Node loader and `grok test` read. */
export function versionJson(v: PackageVersion, isCurrent: boolean): Record<string, unknown> {
  return {
    id: v.id,
    version: v.version,
    debug: v.debug,
    isCurrent,
    isLatest: isCurrent,
    buildHash: v.buildHash,
    buildNumber: v.buildNumber,
    createdOn: v.createdOn,
    updatedOn: v.updatedOn,
  };
}

// After an upload, what the server says it has: the package at the version published (a release by its
// version; a debug version, the caller's, loaded at that version), with every function the annotations
// declare. What is missing is named; nothing is assumed from a 200.
import { readFileSync } from 'node:fs';
import type { DatagrokApi } from '../../../api/datagrokApi';
import { annotationBlocks, isAnnotation } from '../annotations';
import { PublishError } from './errors';
import type { PackageManifest } from './manifest';
import type { PackEntry } from './packFiles';

/** Files the server reads functions from (datagrok-tools check.js `packageFiles`, with `package.g.ts`). */
export function isEntrySource(name: string): boolean {
  if (name.endsWith('.d.ts')) return false;
  return /^(package|detectors)\.js$/.test(name) || /^src\/(package[\w.-]*|detectors)\.(ts|js)$/.test(name);
}

/** The functions the package's annotations declare, by the name the server gives them. */
export function declaredFunctions(entries: readonly PackEntry[]): string[] {
  const names = new Set<string>();
  for (const e of entries.filter((x) => isEntrySource(x.name))) {
    const text = e.content?.toString('utf8') ?? readFileSync(e.file, 'utf8');
    for (const block of annotationBlocks(text)) {
      if (!block.declared || !isAnnotation(block)) continue;
      names.add(block.header.value('name') ?? block.declared.name);
    }
  }
  return [...names];
}

export interface Verified {
  name: string;
  version: string;
  debug: boolean;
  functions: string[];
}

type Reader = Pick<DatagrokApi, 'listPackages' | 'listFunctions'>;

export async function verifyPublished(api: Reader, manifest: PackageManifest, debug: boolean, declared: readonly string[], signal?: AbortSignal): Promise<Verified> {
  const what = `${manifest.npmName} ${manifest.version}${debug ? ' (debug)' : ''}`;
  const listed = await api.listPackages(manifest.serverName, { signal });
  const pkg = listed.find((p) => p.name.toLowerCase() === manifest.serverName.toLowerCase());
  if (!pkg)
    throw new PublishError(
      'verify',
      `The server accepted ${what} but does not list a package ${manifest.serverName}: open the server's Packages to see what happened, and publish again.`,
    );
  const ok = debug ? pkg.publishedVersions.some((v) => v.debug) && pkg.version === manifest.version : pkg.publishedVersions.some((v) => !v.debug && v.version === manifest.version);
  if (!ok) {
    const seen = pkg.publishedVersions.map((v) => (v.debug ? `${v.version} (debug)` : v.version)).join(', ') || 'none';
    throw new PublishError(
      'verify',
      `The server accepted ${what} but lists ${pkg.name} at ${pkg.version ?? 'no version'} (versions: ${seen}): publish again, or look at the server's log.`,
    );
  }
  const functions = (await api.listFunctions(`package = "${pkg.name}"`, { signal })).filter((f) => f.package.toLowerCase() === pkg.name.toLowerCase()).map((f) => f.name);
  const have = new Set(functions.map((f) => f.toLowerCase()));
  const missing = declared.filter((f) => !have.has(f.toLowerCase()));
  if (missing.length) {
    throw new PublishError(
      'verify',
      `${what} is published, but the server lists no function ${missing.join(', ')} of the ${declared.length} its annotations declare. Check that .npmignore does not leave out src/package*.ts and that each annotation is right, then publish again.`,
    );
  }
  return { name: pkg.name, version: manifest.version, debug, functions: functions.sort() };
}

// Publishing a package, step by step, with an outcome checked against the server: check (grok check's rules;
// an error stops here) → build (when asked, or when a bundled package has no dist/package.js) → pack (the
// files grok publish packs) → upload (the zip grok sends, through the API client: bytes, cancellable) →
// verify (the server lists the package at that version, debug or release, with its declared functions).
// No vscode: the command, the tasks and the tests call it.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { DatagrokApi } from '../../../api/datagrokApi';
import type { TransferProgress } from '../../../api/types';
import { checkPackage } from '../check';
import { isPackageFolder } from '../recognition';
import { BUNDLE_MARKER_NAME, predatesBundleDetection, writeArchive } from './archive';
import { runBuild } from './build';
import { PublishError } from './errors';
import { type PackageManifest, readManifest } from './manifest';
import { isBundled, packList } from './packFiles';
import { declaredFunctions, type Verified, verifyPublished } from './verify';

export type PublishStage = 'check' | 'build' | 'pack' | 'upload' | 'verify';

export interface PublishOptions {
  folder: string;
  /** A release (seen by everyone); otherwise a debug version only the publisher sees. */
  release?: boolean;
  /** true: always build; false: never; absent: build when a bundled package has no dist/package.js. */
  build?: boolean;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  onStage?: (stage: PublishStage, detail: string) => void;
  onProgress?: (progress: TransferProgress) => void;
  /** The build's output as it comes. */
  onOutput?: (text: string) => void;
}

export type PublishApi = Pick<DatagrokApi, 'listPackages' | 'listFunctions' | 'packageTimestamps' | 'publishPackage' | 'entities'>;

const WHAT_A_PACKAGE_IS = 'a Datagrok package is a folder with a package.json that depends on datagrok-api, and src/package.ts (or package.js)';

function checkFirst(folder: string, manifest: PackageManifest): void {
  const errors = checkPackage(folder).findings.filter((f) => f.severity === 'error');
  if (errors.length === 0) return;
  const first = errors
    .slice(0, 3)
    .map((f) => `${f.file}:${f.line} ${f.message}`)
    .join('; ');
  const more = errors.length > 3 ? ` and ${errors.length - 3} more` : '';
  throw new PublishError(
    'check',
    `grok check found ${errors.length} error${errors.length === 1 ? '' : 's'} in ${manifest.npmName}: ${first}${more}. Nothing was published: fix them (see Problems) and publish again.`,
  );
}

export async function publishPackageFolder(api: PublishApi, options: PublishOptions): Promise<Verified> {
  const { folder, signal } = options;
  const debug = !options.release;
  const stage = (s: PublishStage, detail: string) => options.onStage?.(s, detail);
  if (!isPackageFolder(folder)) throw new PublishError('not-a-package', `${folder} is not a Datagrok package: ${WHAT_A_PACKAGE_IS}.`);
  const manifest = readManifest(folder);

  stage('check', `Checking ${manifest.npmName}`);
  checkFirst(folder, manifest);
  signal?.throwIfAborted();

  const bundled = isBundled(folder);
  const needsBuild = options.build ?? (bundled && !existsSync(path.join(folder, 'dist', 'package.js')));
  if (needsBuild) {
    stage('build', `Building ${manifest.npmName}`);
    await runBuild(folder, manifest.scripts, { signal, onOutput: options.onOutput, env: options.env });
  }

  stage('pack', `Packing ${manifest.npmName}`);
  const pack = await packList(folder, options.env);
  const declared = declaredFunctions(pack.entries);
  const skipUnchanged = debug ? await api.packageTimestamps(manifest.npmName, { signal }) : undefined;
  const hasMarker = pack.entries.some((e) => e.name === BUNDLE_MARKER_NAME);
  const bundleMarker = pack.bundled && !hasMarker && predatesBundleDetection(await serverVersion(api, signal));
  const archive = await writeArchive(pack.entries, { skipUnchanged, bundleMarker, signal });
  try {
    stage('upload', `Uploading ${manifest.npmName} ${manifest.version}${debug ? ' (debug)' : ''}: ${archive.names.length} files`);
    await api.publishPackage(manifest.npmName, { file: archive.file }, debug, { signal, onProgress: options.onProgress });
  } finally {
    await archive.dispose();
  }

  stage('verify', `Verifying ${manifest.npmName} on the server`);
  return verifyPublished(api, manifest, debug, declared, signal);
}

/** The server's version (grok reads it to decide on the bundle marker); unknown when it does not say. */
async function serverVersion(api: PublishApi, signal?: AbortSignal): Promise<string | undefined> {
  try {
    return (await api.entities.serverInfo({ signal })).version;
  } catch {
    signal?.throwIfAborted();
    return undefined;
  }
}

// Bundles interchangeable with `grok s pull | diff | push` (datagrok-tools ≥ 6.5.8): what the commands and the
// Source Control view call. Pure: no vscode; the folder is a local path.
import type { EntityRoutes } from '../../api/entities';
import { type Manifest, readBundle, writeBundle } from './bundleFolder';
import { makePlan, type PlanResult, summarize } from './plan';
import { collectPull, type PullResult, type Selection } from './pull';
import { type PushOptions, pushBundle } from './push';

export { type Bundle, type BundleEntity, type Manifest, readBundle, readManifest } from './bundleFolder';
export { changedKeys, hashView, normalize } from './normalize';
export { type Action, type ConflictPolicy, isConflict, makePlan, type Plan, type PlanItem, type PlanResult, PlanRefused, POLICIES } from './plan';
export { checkSelection, collectPull, type Note, type PullResult, type Selection } from './pull';
export type { PushOptions } from './push';
export { fileNameFor, nqNameOf, resolveType, TYPES } from './registry';

/** Writes what `collectPull` found into the folder (merged with a bundle already there from the same server). */
export function writePull(dir: string, pulled: PullResult, replace = false): Promise<Manifest> {
  return writeBundle(dir, pulled.entities, { source: pulled.source, args: pulled.args, externals: pulled.externals }, pulled.bytes, replace);
}

/** `grok s pull`: the selection and its dependencies, written as a bundle. */
export async function pullToFolder(api: EntityRoutes, baseUrl: string, dir: string, selection: Selection, progress?: (m: string) => void): Promise<{ manifest: Manifest; pulled: PullResult }> {
  const pulled = await collectPull(api, baseUrl, selection, progress);
  return { manifest: await writePull(dir, pulled), pulled };
}

/** `grok s diff`: the plan against a server, conflicts reported as skips (as grok's diff does). */
export async function diffFolder(api: EntityRoutes, remoteUrl: string, dir: string, signal?: AbortSignal): Promise<PlanResult> {
  const bundle = await readBundle(dir);
  const plan = await makePlan(api, bundle, 'skip', signal);
  return summarize(plan.rows, remoteUrl, 'dry-run');
}

/** `grok s push [--dry-run]`: the plan with each item's outcome. */
export async function pushFolder(api: EntityRoutes, remoteUrl: string, dir: string, options: PushOptions = {}): Promise<PlanResult> {
  return pushBundle(api, remoteUrl, await readBundle(dir), options);
}

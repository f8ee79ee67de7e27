// Bundles interchangeable with `grok s pull | diff | push` (datagrok-tools ≥ 6.5.8): what the commands and the
// Source Control view call. Pure: no vscode; the folder is a local path.
import type { EntityRoutes } from '../../api/entities';
import { type Manifest, readBundle, type WriteNote, writeBundle } from './bundleFolder';
import { makePlan, type PlanResult, summarize } from './plan';
import { collectPull, type PullResult, type Selection } from './pull';
import { type PushOptions, pushBundle } from './push';

export { CHANGED_BOTH, CHANGED_ON_SERVER, type OnChanged, ON_CHANGED } from './base';
export { CHOICES, type ConflictChoice, choiceProblem, choicesById } from './choices';
export { type Bundle, type BundleEntity, type Manifest, readBundle, readManifest, type WriteNote } from './bundleFolder';
export { changedKeys, hashView, normalize } from './normalize';
export { type Action, type ConflictPolicy, isChangedBoth, isConflict, makePlan, type Plan, type PlanItem, type PlanResult, PlanRefused, POLICIES } from './plan';
export { checkSelection, collectPull, type Note, type PullResult, type Selection } from './pull';
export type { PushOptions } from './push';
export { fileNameFor, nqNameOf, resolveType, TYPES } from './registry';

/** Writes what `collectPull` found into the folder (merged with a bundle already there from the same server); `notes`: the files left out, and why. */
export function writePull(dir: string, pulled: PullResult, replace = false): Promise<Manifest & { notes: WriteNote[] }> {
  return writeBundle(dir, pulled.entities, { source: pulled.source, args: pulled.args, externals: pulled.externals }, pulled.bytes, replace);
}

/** `grok s pull`: the selection and its dependencies, written as a bundle. */
export async function pullToFolder(
  api: EntityRoutes,
  baseUrl: string,
  dir: string,
  selection: Selection,
  progress?: (m: string) => void,
): Promise<{ manifest: Manifest; pulled: PullResult; notes: WriteNote[] }> {
  const pulled = await collectPull(api, baseUrl, selection, progress);
  const manifest = await writePull(dir, pulled);
  return { manifest, pulled, notes: manifest.notes };
}

/** `grok s diff`: the plan against a server, conflicts reported as skips (as grok's diff does). */
export async function diffFolder(api: EntityRoutes, remoteUrl: string, dir: string, signal?: AbortSignal): Promise<PlanResult> {
  const bundle = await readBundle(dir);
  const plan = await makePlan(api, bundle, 'skip', { signal, remoteUrl });
  return summarize(plan.rows, remoteUrl, 'dry-run');
}

/** `grok s push [--dry-run]`: the plan with each item's outcome. */
export async function pushFolder(api: EntityRoutes, remoteUrl: string, dir: string, options: PushOptions = {}): Promise<PlanResult> {
  return pushBundle(api, remoteUrl, await readBundle(dir), options);
}

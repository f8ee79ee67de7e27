// Each bundle entity's state against a server, as the Source Control view shows it: identical, changed (which
// keys), new here, missing here (the manifest lists it, the file is gone), conflict (the name is taken there by
// another id), deleted on the server (pulled from this server, no longer on it); with a record of the pull
// (base.ts): changed on the server only since the pull, and changed on both sides. One read per entity.
import type { EntityJson, EntityRoutes } from '../../api/entities';
import { type ManifestEntry, readBundle } from './bundleFolder';
import { hashOf, normalize } from './normalize';
import { isConflict, makePlan, type PlanItem } from './plan';
import { type Json, nqNameOf, TYPES } from './registry';
import { pool } from './uuids';

export type EntityState = 'identical' | 'changed' | 'changedBoth' | 'changedOnServer' | 'new' | 'missingHere' | 'conflict' | 'deletedOnServer' | 'skipped';

export interface EntityStatus {
  id: string;
  type: string;
  name: string;
  /** The bundle file, relative to the folder. */
  file: string;
  state: EntityState;
  /** Changed keys, the conflicting id, or why it is skipped. */
  detail: string;
  /** The server's copy's hash when it was read (what Take Mine records as seen). */
  hash?: string;
  /** Normalised JSON, as the bundle stores it: the local file's and the server's (undefined: none). */
  local?: Json;
  server?: Json;
}

export interface BundleStatus {
  dir: string;
  sourceUrl: string;
  serverUrl: string;
  entities: EntityStatus[];
}

const same = (a: string, b: string) => a.replace(/\/+$/, '').toLowerCase() === b.replace(/\/+$/, '').toLowerCase();

function stateOf(row: PlanItem, fromThisServer: boolean): EntityState {
  if (row.sides === 'both') return 'changedBoth';
  if (row.sides === 'server') return 'changedOnServer';
  if (row.action === 'identical') return 'identical';
  if (row.action === 'update') return 'changed';
  if (isConflict(row)) return 'conflict';
  if (row.action === 'create') return fromThisServer ? 'deletedOnServer' : 'new';
  return 'skipped';
}

export async function bundleStatus(api: EntityRoutes, serverUrl: string, dir: string, signal?: AbortSignal): Promise<BundleStatus> {
  const missing: ManifestEntry[] = [];
  const bundle = await readBundle(dir, missing);
  const plan = await makePlan(api, bundle, 'skip', { signal, remoteUrl: serverUrl });
  const fromThisServer = same(bundle.manifest.source.url, serverUrl);
  const entities: EntityStatus[] = [];
  for (const entry of bundle.manifest.order) {
    const row = plan.planned.get(entry.id) as PlanItem;
    const local = (bundle.entities.get(entry.id) as { json: Json }).json;
    const target = plan.targets.get(entry.id);
    const state = stateOf(row, fromThisServer);
    // A conflict's diff shows the server's entity that holds the name (another id), not an empty side.
    const holder =
      !target && state === 'conflict' ? await api.get(TYPES[entry.type]?.route ?? '/entities', row.reason.slice('name taken by '.length), { signal }).catch(() => null) : null;
    entities.push({
      id: entry.id,
      type: entry.type,
      name: row.name,
      file: entry.file,
      state,
      detail: state === 'conflict' ? row.reason : row.detail || (state === 'skipped' ? row.reason : ''),
      hash: target ? hashOf(entry.type, target) : undefined,
      local,
      server: target ? normalize(entry.type, target) : holder ? normalize(entry.type, holder) : undefined,
    });
  }
  await pool(missing, 6, async (entry) => {
    const found: EntityJson | null = TYPES[entry.type] ? await api.get(TYPES[entry.type].route, entry.id, { signal }) : null;
    entities.push({
      id: entry.id,
      type: entry.type,
      name: found ? nqNameOf(found) : entry.file,
      file: entry.file,
      state: 'missingHere',
      detail: found ? 'the file is gone from the folder; the server has it' : 'the file is gone from the folder and the server has no such entity',
      server: found ? normalize(entry.type, found) : undefined,
    });
  });
  return { dir, sourceUrl: bundle.manifest.source.url, serverUrl, entities };
}

/** A script's or query's code key, and the file extension its language reads best with. */
export function codeOf(type: string, json: Json | undefined): { key: string; ext: string } | undefined {
  if (type === 'DataQuery') return { key: 'query', ext: 'sql' };
  if (type !== 'Script') return undefined;
  const language = String(json?.language ?? '').toLowerCase();
  const ext: Record<string, string> = { python: 'py', pyodide: 'py', r: 'R', javascript: 'js', julia: 'jl', octave: 'm', grok: 'grok', nodejs: 'js' };
  return { key: 'script', ext: ext[language] ?? 'txt' };
}

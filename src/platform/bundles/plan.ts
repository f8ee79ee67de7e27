// The plan of a push (GROK_S.md "Reading the plan"): each manifest entry looked up on the target by
// `idmap[id] ?? id`; not there → a same-name twin is a conflict (resolved by the policy), else create; there →
// identical or update, with the changed top-level keys as `detail`. The rows and their shape are grok's
// (`push --dry-run --output json`), so the two tools' plans read the same. Beyond grok: with a record of what
// the server held at the pull (base.ts), an update is checked against it — changed only on the server is left
// there, changed on both sides is a conflict the user resolves (`onChanged`).
import { randomUUID } from 'node:crypto';
import type { EntityJson, EntityRoutes } from '../../api/entities';
import { hostOf } from '../../api/names';
import { basesFor, baseUnknownDetail, CHANGED_BOTH, CHANGED_ON_SERVER, type OnChanged, readBase, serverKey, sidesChanged } from './base';
import type { Bundle, BundleEntity } from './bundleFolder';
import { changedKeys, hashOf, relationsCovered } from './normalize';
import { type Json, nqNameOf, TYPES, untransferable } from './registry';
import { orphanRows } from './orphans';
import { nestedIds, pool, rewrite } from './uuids';

export type Action = 'create' | 'update' | 'identical' | 'skip' | 'failed' | 'warn' | 'info' | 'needs-credentials';
export type ConflictPolicy = 'fail' | 'skip' | 'adopt' | 'duplicate';
export const POLICIES: ConflictPolicy[] = ['fail', 'skip', 'adopt', 'duplicate'];

export interface PlanItem {
  name: string;
  entityType: string;
  action: Action;
  reason: string;
  detail: string;
  /** The bundle id of the row (not in grok's output; lets views find the entity). */
  id?: string;
  /** Changed since the base on the server only, or on both sides (not in grok's output). */
  sides?: 'server' | 'both';
}

export interface PlanOptions {
  /** The target's URL: picks the base recorded for it (none: compared as grok compares). */
  remoteUrl?: string;
  onChanged?: OnChanged;
  /** A name conflict's policy per entity (bundle id), over `onConflict` (choices.ts). */
  choices?: Readonly<Record<string, ConflictPolicy>>;
  signal?: AbortSignal;
}

export interface PlanResult {
  items: PlanItem[];
  counts: Record<string, number>;
  status: string;
  remoteUrl: string;
}

export interface Op {
  id: string;
  type: string;
  json: Json;
  row: PlanItem;
  /** What the target held before (for the diff editors). */
  target: EntityJson | null;
}

export interface Plan {
  rows: PlanItem[];
  ops: Op[];
  planned: Map<string, PlanItem>;
  effective: Map<string, BundleEntity>;
  /** The target's copy of each entry (null: not there), keyed by bundle id. */
  targets: Map<string, EntityJson | null>;
  idmap: Record<string, string>;
}

const CONCURRENCY = 6;

export function summarize(items: PlanItem[], remoteUrl: string, status: string): PlanResult {
  const counts: Record<string, number> = {};
  for (const r of items) counts[r.action] = (counts[r.action] ?? 0) + 1;
  // As grok prints it: the bundle id the rows carry for the views stays out.
  return { items: items.map(({ id: _id, sides: _sides, ...row }) => row), counts, status, remoteUrl };
}

/** `name taken by <id>`: the reason grok gives a conflict; the Source Control view shows it as one. */
export const isConflict = (row: PlanItem) => row.reason.startsWith('name taken by ');

/** Changed here and on the server since the base, refused under `onChanged: 'refuse'` (the views show it). */
export const isChangedBoth = (row: PlanItem) => row.sides === 'both';

export async function makePlan(api: EntityRoutes, bundle: Bundle, onConflict: ConflictPolicy, options: PlanOptions = {}): Promise<Plan> {
  const { signal, remoteUrl, onChanged = 'refuse' } = options;
  const policyOf = (id: string) => options.choices?.[id] ?? onConflict;
  const opts = { signal };
  const rows: PlanItem[] = [];
  const ops: Op[] = [];
  const planned = new Map<string, PlanItem>();
  const effective = new Map<string, BundleEntity>();
  const targets = new Map<string, EntityJson | null>();
  const idmap: Record<string, string> = { ...bundle.idmap };
  const user = await api.currentUser(opts);
  const project = user.project as Json | undefined;
  const pusherNamespace = project?.name ? `${project.name}:` : '';

  // What the bundle leaves on the source is found again on the target by name.
  await pool(bundle.manifest.externals ?? [], CONCURRENCY, async (ext) => {
    const mapped = idmap[ext.id];
    if (mapped && TYPES[ext.type] && (await api.get(TYPES[ext.type].route, mapped, opts))) return;
    const twin = await byNqName(api, ext.type, ext.nqName, opts);
    if (!twin) {
      delete idmap[ext.id];
      rows.push({
        name: ext.nqName,
        entityType: ext.type,
        action: 'warn',
        reason: 'external_missing',
        detail: 'stayed on the source and the target has nothing by that name — install or publish what owns it',
      });
    } else if (twin.id !== ext.id) idmap[ext.id] = String(twin.id);
    else delete idmap[ext.id];
  });

  // Every twin is known before anything is rewritten: an adoption changes the references of what follows.
  const found = new Map<string, { target: EntityJson | null; twin: EntityJson | null }>();
  await pool(bundle.manifest.order, CONCURRENCY, async (entry) => {
    const { type, json } = bundle.entities.get(entry.id) as BundleEntity;
    const target = await api.get(TYPES[type]?.route ?? '/entities', idmap[entry.id] ?? String(json.id), opts);
    const sourceNs = String(json.namespace ?? '');
    const ns = sourceNs === bundle.manifest.source.userNamespace ? pusherNamespace : sourceNs;
    const twin = target || !json.name ? null : await byNqName(api, type, `${ns}${json.name}`, opts);
    found.set(entry.id, { target, twin });
  });
  for (const entry of bundle.manifest.order) {
    const twin = found.get(entry.id)?.twin;
    if (twin && policyOf(entry.id) === 'adopt') {
      idmap[entry.id] = String(twin.id);
      for (const nested of nestedIds((bundle.entities.get(entry.id) as BundleEntity).json)) idmap[nested] = randomUUID();
    }
  }

  const fromSource = remoteUrl !== undefined && serverKey(remoteUrl) === serverKey(bundle.manifest.source.url);
  const bases = remoteUrl === undefined ? undefined : basesFor(await readBase(bundle.dir), bundle.manifest, remoteUrl);
  let unknownBase = 0;
  const conflicts: string[] = [];
  for (const entry of bundle.manifest.order) {
    const { type, json: source } = bundle.entities.get(entry.id) as BundleEntity;
    const json = rewrite(source, idmap);
    const row: PlanItem = { name: nqNameOf(json), entityType: type, action: 'create', reason: '', detail: '', id: entry.id };
    rows.push(row);
    planned.set(entry.id, row);
    effective.set(entry.id, { type, json });
    const { target, twin } = found.get(entry.id) ?? { target: null, twin: null };
    const policy = policyOf(entry.id);
    targets.set(entry.id, target ?? (policy === 'adopt' ? twin : null));
    const refused = json._personalOf ? { reason: 'personal_project' } : untransferable(type, json);
    if (refused) {
      row.action = 'skip';
      row.reason = refused.reason;
      continue;
    }
    if (target) {
      compare(row, type, target, json, '');
      if (!bases?.has(entry.id)) unknownBase++;
      else if (row.action === 'update') checkBase(row, bases.get(entry.id), hashOf(type, target), hashOf(type, json), onChanged);
    } else if (twin) {
      row.reason = `name taken by ${twin.id}`;
      if (policy === 'fail') {
        row.action = 'failed';
        conflicts.push(`${type} ${row.name} → ${twin.id}`);
      } else if (policy === 'skip') row.action = 'skip';
      else if (policy === 'adopt') compare(row, type, twin, json, `adopted ${twin.id}`);
    }
    if (row.action !== 'create' && row.action !== 'update') continue;
    if (type === 'DataConnection') {
      const masked = (json._credentials as string[] | undefined) ?? [];
      if (masked.length && !Object.keys((json.parameters as Json | undefined) ?? {}).length) {
        row.action = 'skip';
        row.reason = 'every parameter was masked on the source';
        continue;
      }
      rows.push({ name: row.name, entityType: type, action: 'needs-credentials', reason: '', detail: masked.length ? masked.join(', ') : 'credentials are not migrated' });
    }
    ops.push({ id: entry.id, type, json, row, target: targets.get(entry.id) ?? null });
  }
  if (conflicts.length) {
    const how = 'choose for each in the Source Control view (Skip, Adopt, Duplicate), or push with onConflict skip, adopt or duplicate';
    throw new PlanRefused(`Name conflicts on the target server; nothing was written (${how}):\n  ${conflicts.join('\n  ')}`, rows);
  }
  // A migration to another server has no base there until a push records one: compared as grok compares.
  if (unknownBase && (fromSource || bases) && remoteUrl) {
    rows.unshift({
      name: bundle.dir,
      entityType: 'Bundle',
      action: 'info',
      reason: 'base_unknown',
      detail: baseUnknownDetail(hostOf(remoteUrl), unknownBase, [...found.values()].filter((f) => f.target).length),
    });
  }
  failDependants(effective, planned, found);
  await orphanRows(api, bundle, effective, idmap, rows, opts);
  return { rows, ops: ops.filter((o) => o.row.action === 'create' || o.row.action === 'update'), planned, effective, targets, idmap };
}

/** A conflict under the `fail` policy: nothing is written; the rows say which. */
export class PlanRefused extends Error {
  constructor(
    message: string,
    readonly rows: PlanItem[],
  ) {
    super(message);
  }
}

/** An update judged against the base: only the server changed → left there; both → the user's choice. */
function checkBase(row: PlanItem, base: string | undefined, serverHash: string, localHash: string, onChanged: OnChanged): void {
  const sides = sidesChanged(base, serverHash, localHash);
  if (sides === 'server') {
    row.sides = 'server';
    row.action = 'skip';
    row.reason = CHANGED_ON_SERVER;
  } else if (sides === 'both') {
    row.sides = 'both';
    if (onChanged === 'refuse') {
      row.action = 'failed';
      row.reason = `${CHANGED_BOTH}: choose take mine, take theirs or merge`;
    } else if (onChanged === 'theirs') {
      row.action = 'skip';
      row.reason = `${CHANGED_BOTH}: the server's copy is taken into the bundle (onChanged theirs)`;
    } else row.reason = `${CHANGED_BOTH}: yours overwrites the server's (onChanged mine)`;
  }
}

function compare(row: PlanItem, type: string, target: Json, json: Json, reason: string): void {
  const covered = relationsCovered(target, json);
  const same = covered && hashOf(type, target) === hashOf(type, json);
  row.action = same ? 'identical' : 'update';
  row.reason = same ? reason : reason || (covered ? 'hash differs' : 'relations missing on target');
  row.detail = same ? '' : [...changedKeys(type, target, json), ...(covered ? [] : ['relations'])].join(', ');
}

/** An entity skipped (and not on the target) fails whatever needs it, before the server would refuse it. */
function failDependants(effective: Map<string, BundleEntity>, planned: Map<string, PlanItem>, found: Map<string, { target: EntityJson | null }>): void {
  const blocked = new Map<string, PlanItem>();
  for (const [id] of effective) {
    const row = planned.get(id) as PlanItem;
    if (row.action === 'skip' && !found.get(id)?.target && row.reason !== 'platform_group') blocked.set(id, row);
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const [id, { type, json }] of effective) {
      const row = planned.get(id) as PlanItem;
      if (row.action !== 'create' && row.action !== 'update') continue;
      const refs = [
        ...(TYPES[type]?.deps?.(json) ?? []).map((d) => d.id),
        ...((json.relations as Json[] | undefined) ?? []).map((r) => String((r.entity as Json | undefined)?.id)),
      ];
      const on = refs.find((r) => blocked.has(r));
      if (!on) continue;
      row.action = 'failed';
      row.reason = 'dependency_skipped';
      row.detail = (blocked.get(on) as PlanItem).name;
      blocked.set(id, row);
      changed = true;
    }
  }
}

/** The target's own entity of that type and qualified name, whatever its id. */
export async function byNqName(api: EntityRoutes, type: string, nqName: string, opts: { signal?: AbortSignal }): Promise<EntityJson | null> {
  const cut = nqName.lastIndexOf(':');
  const namespace = cut === -1 ? '' : nqName.slice(0, cut + 1);
  const name = nqName.slice(cut + 1);
  if (!name) return null;
  const matches = await api.byName(namespace, name, opts).catch(() => []);
  return matches.find((m) => m['#type'] === type && (m.namespace === undefined || m.namespace === null || m.namespace === namespace)) ?? null;
}

// A push (GROK_S.md "Migrating entities between instances"): the plan first, then the saves in grok's save
// order (groups → connections → projects → queries and scripts → tables → views and layouts), six at a time
// within a rank, each read back; then project relations, tags, group members (members.ts) and grants. Saves
// are by id, so a push that failed half-way is finished by running it again: what was saved is now identical,
// the rest is written.
import type { EntityJson, EntityRoutes } from '../../api/entities';
import { CHANGED_BOTH, type OnChanged, recordBase } from './base';
import { type Bundle, readBytes, writeEntityFile, writeIdmap } from './bundleFolder';
import { changedKeys, hashOf, hashView, stripPrivate } from './normalize';
import { planMembers, pushMembers } from './members';
import { type ConflictPolicy, makePlan, type Op, type Plan, type PlanItem, PlanRefused, type PlanResult, summarize } from './plan';
import { theirsAsBundled } from './resolve';
import { type Json, nqNameOf, rankOf, TYPES } from './registry';
import { pool } from './uuids';

export interface PushOptions {
  dryRun?: boolean;
  onConflict?: ConflictPolicy;
  /** A name conflict's policy per entity, by bundle id (choices.ts `choicesById`), over `onConflict`. */
  choices?: Readonly<Record<string, ConflictPolicy>>;
  /** An entity changed here and on the server since the pull: refused (the default), yours wins, or the server's is taken into the bundle. */
  onChanged?: OnChanged;
  /** Connection secrets for the target, by the connection's qualified name: sent, never written to the bundle. */
  credentials?: Record<string, Record<string, string>>;
  /** Shares a project with a group by name (the public shares route). */
  share?: (id: string, group: string, access: 'View' | 'Edit') => Promise<void>;
  progress?: (message: string, done?: number, total?: number) => void;
  signal?: AbortSignal;
}

const CONCURRENCY = 6;

/** The plan and, unless a dry run, the push: every row with its outcome. */
export async function pushBundle(api: EntityRoutes, remoteUrl: string, bundle: Bundle, options: PushOptions = {}): Promise<PlanResult> {
  const opts = { signal: options.signal };
  const progress = options.progress ?? (() => undefined);
  const extra: PlanItem[] = [];
  const info = await api.serverInfo(opts);
  const minor = (v: string) =>
    String(v ?? '')
      .split('.')
      .slice(0, 2)
      .join('.');
  if (minor(bundle.manifest.source.version) !== minor(info.version)) {
    extra.push({
      name: remoteUrl,
      entityType: 'Server',
      action: 'warn',
      reason: 'version_mismatch',
      detail: `${bundle.manifest.source.version} → ${info.version}; unknown fields are ignored by the server, failures below may be version-related`,
    });
  }
  progress('Planning');
  const plan = await makePlan(api, bundle, options.onConflict ?? 'fail', { signal: options.signal, remoteUrl, onChanged: options.onChanged, choices: options.choices });
  const items = [...extra, ...plan.rows];
  if (options.dryRun) {
    // Not in grok's dry run: what the groups' members would change (a push only ever adds).
    await planMembers(api, plan, opts);
    return summarize(items, remoteUrl, 'dry-run');
  }
  const both = plan.rows.filter((r) => r.sides === 'both' && r.action === 'failed');
  if (both.length) {
    const names = both.map((r) => `${r.entityType} ${r.name}${r.detail ? ` (they differ in: ${r.detail})` : ''}`).join('\n  ');
    throw new PlanRefused(
      `${both.length === 1 ? 'An entity was' : `${both.length} entities were`} ${CHANGED_BOTH}; nothing was written. Resolve each in the Source Control view (Take Mine, Take Theirs, Merge), or push with onChanged "mine" (overwrite the server's copy) or "theirs" (take it into the bundle):\n  ${names}`,
      items,
    );
  }
  /** What the target holds once this push is over (bundle id → hash): the base of the next push. */
  const now = new Map<string, string>();

  let saved = 0;
  for (const rank of [...new Set(plan.ops.map((o) => rankOf(o.type)))].sort((a, b) => a - b)) {
    await pool(
      plan.ops.filter((o) => rankOf(o.type) === rank),
      CONCURRENCY,
      async (op) => {
        if (options.signal?.aborted) {
          op.row.action = 'failed';
          op.row.reason = 'cancelled before it was saved';
          return;
        }
        await saveOne(api, bundle, op, items, plan.idmap, options, now);
        progress(`Saving ${op.row.name}`, ++saved, plan.ops.length);
      },
    );
  }
  if (JSON.stringify(plan.idmap) !== JSON.stringify(bundle.idmap)) {
    const failed = await writeIdmap(bundle.dir, plan.idmap);
    if (failed) items.push({ name: bundle.dir, entityType: 'Bundle', action: 'warn', reason: 'not_written', detail: failed });
  }
  await settleBase(bundle, plan, items, remoteUrl, now);
  progress('Relations, tags, memberships and grants');
  await pushRelations(api, plan, items, opts);
  await pushTags(api, plan, items, opts);
  await pushMembers(api, plan, items, opts);
  if (options.share) await pushGrants(api, plan, items, options.share, opts);
  return summarize(items, remoteUrl, items.some((r) => r.action === 'failed') ? 'failed' : 'ok');
}

const done = (plan: Plan, id: string) => !['skip', 'failed'].includes(plan.planned.get(id)?.action ?? '');

/**
 * After the saves: what the server now holds becomes the base — saved entities as read back, identical ones as
 * they are; under `onChanged: 'theirs'` the server's copy replaces the bundle file. Changed only on the server
 * keeps its old base (it stays a change to pull).
 */
async function settleBase(bundle: Bundle, plan: Plan, rows: PlanItem[], remoteUrl: string, now: Map<string, string>): Promise<void> {
  for (const [id, row] of plan.planned) {
    const target = plan.targets.get(id);
    const { type } = plan.effective.get(id) ?? { type: '' };
    if (!target || !type) continue;
    if (row.action === 'identical') now.set(id, hashOf(type, target));
    else if (row.sides === 'both' && row.action === 'skip') {
      const entry = bundle.manifest.order.find((e) => e.id === id);
      const local = bundle.entities.get(id)?.json ?? {};
      const failed = entry ? await writeEntityFile(bundle.dir, entry.file, type, theirsAsBundled(type, target, local, plan.idmap)) : 'not in the manifest';
      if (failed) rows.push({ name: row.name, entityType: type, action: 'warn', reason: 'not_written', detail: failed });
      else now.set(id, hashOf(type, target));
    }
  }
  if (!now.size) return;
  const failed = await recordBase(bundle.dir, remoteUrl, now, bundle.manifest.pulls.length);
  if (failed) rows.push({ name: bundle.dir, entityType: 'Bundle', action: 'warn', reason: 'not_written', detail: failed });
}

async function saveOne(api: EntityRoutes, bundle: Bundle, op: Op, rows: PlanItem[], idmap: Record<string, string>, options: PushOptions, now: Map<string, string>): Promise<void> {
  const spec = TYPES[op.type];
  const payload = stripPrivate(JSON.parse(JSON.stringify(op.json)) as Json);
  const targetId = String(payload.id ?? op.id);
  if (payload.metaParams && typeof payload.metaParams === 'object') {
    const meta = payload.metaParams as Json;
    meta.sync_id = op.id;
    if (bundle.manifest.source.url) {
      meta.migrated_from = bundle.manifest.source.url;
      meta.migrated_on = new Date().toISOString();
    }
  }
  const creds = op.type === 'DataConnection' ? options.credentials?.[nqNameOf(op.json)] : undefined;
  if (creds) payload.parameters = { ...(payload.parameters as Json | undefined), ...creds };
  const opts = { signal: options.signal };
  try {
    const data = spec.bytes ? await readBytes(bundle.dir, op.id) : undefined;
    if (spec.bytes && data) await api.putBytes(spec.bytes.put.path, spec.bytes.put.query(targetId), data, opts);
    const answer = await api.save(spec.saveRoute ?? spec.route, payload, opts);
    const peerId = String(answer?.id ?? targetId);
    if (peerId !== targetId) idmap[op.id] = peerId;
    const back = await api.get(spec.route, peerId, opts);
    if (!back) {
      op.row.action = 'failed';
      op.row.reason = 'Save reported success but not on target';
      return;
    }
    now.set(op.id, hashOf(op.type, back));
    // Read back and compared: what the server did not keep as sent is said, not hidden.
    const sent = hashView(op.type, op.json);
    const lost = changedKeys(op.type, back, op.json).filter((k) => k in sent && k !== 'name');
    if (lost.length) rows.push({ name: op.row.name, entityType: op.type, action: 'warn', reason: 'not_kept_as_sent', detail: lost.join(', ') });
    if (back.name !== op.json.name) rows.push({ name: op.row.name, entityType: op.type, action: 'warn', reason: 'renamed', detail: `${op.json.name} → ${back.name}` });
  } catch (e) {
    op.row.action = 'failed';
    op.row.reason = (e as Error).message;
  }
}

/** Project relations are written once everything they point at is saved; they are only ever added. */
async function pushRelations(api: EntityRoutes, plan: Plan, rows: PlanItem[], opts: { signal?: AbortSignal }): Promise<void> {
  for (const [id, { type, json }] of plan.effective) {
    const wanted = (json.relations as Json[] | undefined) ?? [];
    if (type !== 'Project' || !wanted.length || !done(plan, id)) continue;
    const target = await api.get('/projects', String(json.id), opts).catch(() => null);
    if (!target) continue;
    const held = ((target.relations as Json[] | undefined) ?? []).map((r) => ({
      id: r.id,
      entity: { '#type': 'EntityRecord', id: (r.entity as Json | undefined)?.id },
      isLink: r.isLink ?? false,
    }));
    const have = new Set(held.map((r) => String(r.entity.id)));
    const missing = wanted.filter((r) => !have.has(String((r.entity as Json | undefined)?.id)));
    if (!missing.length) continue;
    try {
      const body = stripPrivate({ ...(target as Json), relations: [...held, ...missing] });
      delete body.storage;
      await api.save('/projects', body, { ...opts, query: { saveRelations: 'true' } });
      rows.push({ name: nqNameOf(json), entityType: 'Project', action: 'info', reason: 'relations_written', detail: `${missing.length} added` });
    } catch (e) {
      rows.push({ name: nqNameOf(json), entityType: 'Project', action: 'failed', reason: 'relations', detail: (e as Error).message });
    }
  }
}

/** Tags the target lacks, replayed by name (tag rows are the server's, not the bundle's). */
async function pushTags(api: EntityRoutes, plan: Plan, rows: PlanItem[], opts: { signal?: AbortSignal }): Promise<void> {
  const missing = new Map<string, string[]>();
  try {
    for (const [id, { type, json }] of plan.effective) {
      const tags = (json._tags as string[] | undefined) ?? [];
      if (!tags.length || !done(plan, id)) continue;
      const target: EntityJson | null = await api.get(TYPES[type].route, String(json.id), opts).catch(() => null);
      if (!target) continue;
      const have = new Set(((target.entityTags as Json[] | undefined) ?? []).map((t) => t?.tag));
      for (const tag of tags) if (!have.has(tag)) missing.set(tag, [...(missing.get(tag) ?? []), String(json.id)]);
    }
    for (const [tag, ids] of missing) await api.tag(tag, ids, opts);
  } catch (e) {
    rows.push({ name: [...missing.keys()].join(', '), entityType: 'Entity', action: 'warn', reason: 'tags', detail: (e as Error).message });
  }
}

/** A project's grants, replayed by group name: without one, what was pushed is visible to no one. */
async function pushGrants(api: EntityRoutes, plan: Plan, rows: PlanItem[], share: NonNullable<PushOptions['share']>, opts: { signal?: AbortSignal }): Promise<void> {
  for (const [id, { type, json }] of plan.effective) {
    const grants = (json._grants as Array<{ group: string; permission: string }> | undefined) ?? [];
    if (type !== 'Project' || !grants.length || !done(plan, id)) continue;
    try {
      const have = new Set<string>();
      for (const perm of await api.permissions(String(json.id), opts)) {
        const g = perm.userGroup as Json | undefined;
        have.add(`${String(g?.friendlyName ?? g?.name ?? '').toLowerCase()}|${String((perm.permission as Json | undefined)?.name)}`);
      }
      for (const grant of grants) {
        if (have.has(`${grant.group.toLowerCase()}|${grant.permission}`)) continue;
        if (grant.permission !== 'View' && grant.permission !== 'Edit') {
          rows.push({ name: nqNameOf(json), entityType: type, action: 'info', reason: 'unsupported_grant', detail: `${grant.group}: ${grant.permission}` });
          continue;
        }
        await share(String(json.id), grant.group, grant.permission);
      }
    } catch (e) {
      rows.push({ name: nqNameOf(json), entityType: type, action: 'warn', reason: 'grants', detail: (e as Error).message });
    }
  }
}

// A group's members (`_members`: users by login, groups by name, each with `isAdmin`) replayed on the target
// as `grok s push` does (datagrok-tools `pusher.ts` pushMemberships → `node-dapi` groups.addMembers): after the
// saves, per kind (users, then groups) and admin flag, each member is resolved by the public lookup (an exact
// name or friendly name wins; a user only among personal groups), then added, or its admin flag set to the
// bundle's; nobody is ever removed (a member only on the target stays, and the plan says so). Rows as grok's:
// `member_not_found` warnings, and `members: N matched[, M not on remote]` on the group's row.
import { randomUUID } from 'node:crypto';
import type { EntityJson, EntityRoutes } from '../../api/entities';
import type { Plan, PlanItem } from './plan';
import { type Json, nqNameOf } from './registry';

export interface MemberChange {
  /** The login or group name, as the bundle has it. */
  member: string;
  kind: 'user' | 'group';
  isAdmin: boolean;
  status: 'added' | 'updated' | 'noop' | 'error';
  error?: string;
  /** The resolved group's id (not for errors). */
  childId?: string;
}

export interface GroupMembers {
  id: string;
  name: string;
  changes: MemberChange[];
  /** Members the target has and the bundle does not: kept. */
  kept: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
type Opts = { signal?: AbortSignal };

/** grok's `groups.resolve`: by id, else the lookup's exact match (or its only hit). */
async function resolve(api: EntityRoutes, name: string, personalOnly: boolean, opts: Opts): Promise<EntityJson> {
  if (UUID.test(name)) {
    const found = await api.group(name, opts);
    if (!found) throw new Error(`No group with id '${name}'`);
    return found;
  }
  let candidates = await api.lookupGroups(name, opts);
  if (personalOnly) candidates = candidates.filter((g) => g?.personal === true);
  const want = name.toLowerCase();
  const exact = candidates.filter((g) => [g?.name, g?.friendlyName].some((n) => String(n ?? '').toLowerCase() === want));
  if (exact.length) candidates = exact;
  if (!candidates.length) throw new Error(`No group matching '${name}'${personalOnly ? ' (personal)' : ''}`);
  if (candidates.length > 1) {
    const list = candidates.map((g) => `  ${g.id}  ${g.friendlyName ?? g.name ?? ''}`).join('\n');
    throw new Error(`Multiple groups match '${name}':\n${list}\nUse the ID to disambiguate.`);
  }
  return candidates[0];
}

const relations = (group: EntityJson | null): Json[] => (Array.isArray(group?.children) ? (group?.children as Json[]) : []);
const childId = (rel: Json) => String((rel?.child as Json | undefined)?.id ?? '');

/** What replaying one group's `_members` on `target` (its current copy; null: not there yet) changes. */
export async function membersOf(api: EntityRoutes, json: Json, target: EntityJson | null, opts: Opts = {}): Promise<GroupMembers> {
  const members = (json._members as Json[] | undefined) ?? [];
  const children = relations(target).map((r) => ({ id: childId(r), isAdmin: r.isAdmin === true }));
  const changes: MemberChange[] = [];
  for (const kind of ['user', 'group'] as const) {
    for (const isAdmin of [false, true]) {
      for (const m of members.filter((x) => x.kind === kind && (x.isAdmin === true) === isAdmin)) {
        const member = String(kind === 'user' ? m.login : m.name);
        let child: EntityJson;
        try {
          child = await resolve(api, member, kind === 'user', opts);
        } catch (e) {
          changes.push({ member, kind, isAdmin, status: 'error', error: (e as Error).message });
          continue;
        }
        const id = String(child.id);
        const existing = children.find((c) => c.id === id);
        let status: MemberChange['status'] = 'noop';
        if (!existing) {
          children.push({ id, isAdmin });
          status = 'added';
        } else if (existing.isAdmin !== isAdmin) {
          existing.isAdmin = isAdmin;
          status = 'updated';
        }
        changes.push({ member, kind, isAdmin, childId: id, status });
      }
    }
  }
  const wanted = new Set(changes.map((c) => c.childId).filter(Boolean));
  const kept = relations(target)
    .filter((r) => !wanted.has(childId(r)))
    .map((r) => String((r.child as Json | undefined)?.friendlyName ?? (r.child as Json | undefined)?.name ?? childId(r)));
  return { id: String(json.id), name: nqNameOf(json), changes, kept };
}

/** The plan's words for one group's member changes (empty when nothing changes and nothing is kept). */
export function membersDetail(g: GroupMembers): string {
  const names = (s: MemberChange['status']) => g.changes.filter((c) => c.status === s).map((c) => `${c.member}${c.isAdmin ? ' (admin)' : ''}`);
  const parts: string[] = [];
  if (names('added').length) parts.push(`members to add: ${names('added').join(', ')}`);
  const updated = g.changes.filter((c) => c.status === 'updated');
  if (updated.length) parts.push(`member rights to set: ${updated.map((c) => `${c.member} ${c.isAdmin ? 'admin' : 'not admin'}`).join(', ')}`);
  if (names('error').length)
    parts.push(
      `members not on remote: ${g.changes
        .filter((c) => c.status === 'error')
        .map((c) => c.member)
        .join(', ')}`,
    );
  if (g.kept.length) parts.push(`members only on remote, kept (a push never removes members): ${g.kept.join(', ')}`);
  return parts.join('; ');
}

const replayed = (plan: Plan) =>
  [...plan.effective].filter(
    ([id, { type, json }]) =>
      type === 'UserGroup' && ((json._members as unknown[] | undefined) ?? []).length > 0 && !['skip', 'failed'].includes(plan.planned.get(id)?.action ?? ''),
  );

const append = (row: PlanItem | undefined, text: string) => {
  if (row && text) row.detail = [row.detail, text].filter(Boolean).join('; ');
};

/** The plan's view of the memberships: each group's row says what its members change on the target. */
export async function planMembers(api: EntityRoutes, plan: Plan, opts: Opts = {}): Promise<void> {
  for (const [id, { json }] of replayed(plan)) {
    try {
      append(plan.planned.get(id), membersDetail(await membersOf(api, json, await api.group(String(json.id), opts), opts)));
    } catch (e) {
      append(plan.planned.get(id), `members: ${(e as Error).message}`);
    }
  }
}

/** After the saves: the members added and their admin flags set, one save per group that changes. */
export async function pushMembers(api: EntityRoutes, plan: Plan, rows: PlanItem[], opts: Opts = {}): Promise<void> {
  for (const [id, { json }] of replayed(plan)) {
    let got: GroupMembers;
    try {
      const target = await api.group(String(json.id), opts);
      if (!target) throw new Error(`No group with id '${json.id}'`);
      got = await membersOf(api, json, target, opts);
      const children = relations(target);
      let mutated = false;
      for (const c of got.changes) {
        if (c.status === 'added') {
          // Each relation row needs an id of its own: the server refuses a null one.
          children.push({ id: randomUUID(), parent: { id: target.id }, child: { id: c.childId }, isAdmin: c.isAdmin });
          mutated = true;
        } else if (c.status === 'updated') {
          const rel = children.find((r) => childId(r) === c.childId);
          if (rel) rel.isAdmin = c.isAdmin;
          mutated = true;
        }
      }
      if (mutated) await api.saveGroupRelations({ ...target, children }, opts);
    } catch (e) {
      rows.push({ name: nqNameOf(json), entityType: 'UserGroup', action: 'warn', reason: 'members', detail: (e as Error).message });
      continue;
    }
    const missing = got.changes.filter((c) => c.status === 'error');
    for (const c of missing) rows.push({ name: nqNameOf(json), entityType: 'UserGroup', action: 'warn', reason: 'member_not_found', detail: `${c.member}: ${c.error}` });
    const changed = got.changes.filter((c) => c.status === 'added' || c.status === 'updated').map((c) => `${c.status} ${c.member}${c.isAdmin ? ' (admin)' : ''}`);
    // grok's words first; then which members changed.
    append(
      plan.planned.get(id),
      `members: ${got.changes.length - missing.length} matched${missing.length ? `, ${missing.length} not on remote` : ''}${changed.length ? ` (${changed.join(', ')})` : ''}`,
    );
  }
}

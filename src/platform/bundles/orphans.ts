// References to ids a bundle does not carry (GROK_S.md "Reading the plan": orphan_ref, dependency_missing): fine
// when the target holds them (named, with what that means for the push), a warning when it does not.
import type { EntityRoutes } from '../../api/entities';
import type { Bundle, BundleEntity } from './bundleFolder';
import { nqNameOf } from './registry';
import { nestedIds, uuidsIn } from './uuids';

/** References to ids the bundle does not carry: fine when the target has them, a warning when not. */
export async function orphanRows(
  api: EntityRoutes,
  bundle: Bundle,
  effective: Map<string, BundleEntity>,
  idmap: Record<string, string>,
  rows: { push(row: { name: string; entityType: string; action: 'info' | 'warn'; reason: string; detail: string }): unknown },
  opts: { signal?: AbortSignal },
): Promise<void> {
  const known = new Set<string>([...Object.keys(idmap), ...Object.values(idmap)]);
  for (const [id, e] of bundle.entities) {
    known.add(id);
    for (const n of nestedIds(e.json)) known.add(n);
  }
  const referrers = new Map<string, string[]>();
  for (const [, { json }] of effective) for (const ref of uuidsIn(json)) if (!known.has(ref)) referrers.set(ref, [...(referrers.get(ref) ?? []), nqNameOf(json)]);
  for (const [orphan, by] of referrers) {
    const names = [...new Set(by)].join(', ');
    const held = await api.entity(orphan, opts);
    // grok's row (name: the id, entityType Entity), with a detail that names what the target holds and what it means.
    if (held) {
      const what = `${String(held['#type'] ?? 'entity')} ${nqNameOf(held)}`;
      const detail = `${what} is not in the bundle; the target has it under this id, so ${names} will use the target's own — nothing to do`;
      rows.push({ name: orphan, entityType: 'Entity', action: 'info', reason: 'orphan_ref', detail });
    } else
      rows.push({
        name: orphan,
        entityType: 'Entity',
        action: 'warn',
        reason: 'dependency_missing',
        detail: `not in the bundle and not on the target — the save of ${names} may be refused`,
      });
  }
}

// grok's normalised form of an entity (GROK_S.md "Bundle layout"): the server's JSON with keys sorted, volatile
// fields dropped, tags kept by name as `_tags`, per-type stripping; and the view two sides are compared on.
import { createHash } from 'node:crypto';
import { type Json, TYPES } from './registry';

/** Dropped from every row: server-set or unstable (tag rows carry their own keys and come in any order). */
export const VOLATILE = ['createdOn', 'updatedOn', 'author', 'pictureId', 'encryptedParametersId', 'keyKid', 'isAvailable', 'entityTags'];

/** Keys the push itself writes into `metaParams`: they must not make an unchanged row look changed. */
const PUSH_STAMPS = ['sync_id', 'migrated_from', 'migrated_on'];

export function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  const out: Json = {};
  for (const k of Object.keys(v as Json).sort()) out[k] = sortKeys((v as Json)[k]);
  return out;
}

/** The row as a bundle stores it. */
export function normalize(type: string, json: Json): Json {
  const copy = JSON.parse(JSON.stringify(json)) as Json;
  const tags = [...new Set(((copy.entityTags as Json[] | undefined) ?? []).map((t) => t?.tag).filter((t): t is string => typeof t === 'string' && t !== ''))].sort();
  if (tags.length) copy._tags = tags;
  for (const k of VOLATILE) delete copy[k];
  if (copy.package && typeof copy.package === 'object') copy.package = { id: (copy.package as Json).id };
  if (copy.metaParams && typeof copy.metaParams === 'object') for (const k of PUSH_STAMPS) delete (copy.metaParams as Json)[k];
  TYPES[type]?.strip?.(copy);
  return sortKeys(copy) as Json;
}

/** Bundle-only keys (`_tags`, `_grants`, `_members`, `_credentials`, `_personalOf`) never reach a server. */
export function stripPrivate(json: Json): Json {
  for (const k of Object.keys(json)) if (k.startsWith('_')) delete json[k];
  return json;
}

/**
 * What a comparison sees: without bundle-only keys, without `namespace` (the server derives it from who owns
 * the row) and without `relations` (compared on their own: the target must hold every one the bundle has).
 */
export function hashView(type: string, json: Json): Json {
  const view = stripPrivate(normalize(type, json));
  delete view.namespace;
  delete view.relations;
  return view;
}

export function hashOf(type: string, json: Json): string {
  return createHash('sha256')
    .update(JSON.stringify(hashView(type, json)))
    .digest('hex');
}

/** Top-level keys whose compared values differ. */
export function changedKeys(type: string, a: Json, b: Json): string[] {
  const na = hashView(type, a);
  const nb = hashView(type, b);
  return [...new Set([...Object.keys(na), ...Object.keys(nb)])].filter((k) => JSON.stringify(na[k]) !== JSON.stringify(nb[k])).sort();
}

/** Every relation the bundle has is on the target (relations are only ever added). */
export function relationsCovered(target: Json, json: Json): boolean {
  const have = new Set(((target.relations as Json[] | undefined) ?? []).map((r) => (r?.entity as Json | undefined)?.id));
  return ((json.relations as Json[] | undefined) ?? []).every((r) => have.has((r?.entity as Json | undefined)?.id));
}

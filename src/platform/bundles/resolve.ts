// Resolving an entity changed here and on the server since the base (base.ts), one at a time as the Source
// Control view offers it, or for the whole push (`onChanged`): take mine (the server's copy becomes the base,
// so the next push overwrites it), take theirs (the bundle file becomes the server's normalised entity).
import type { EntityJson, EntityRoutes } from '../../api/entities';
import { recordBase } from './base';
import { readBundle, writeEntityFile } from './bundleFolder';
import { hashOf, normalize } from './normalize';
import { type Json, TYPES } from './registry';
import { rewrite } from './uuids';

/**
 * The server's entity as the bundle would hold it: normalised, with the bundle's ids where an adoption mapped
 * them, and the bundle-only keys the server never sends (`_grants`, `_members`, `_personalOf`) kept from the file.
 */
export function theirsAsBundled(type: string, target: EntityJson, local: Json, idmap: Record<string, string>): Json {
  const inverse = Object.fromEntries(Object.entries(idmap).map(([from, to]) => [to, from]));
  const json = rewrite(normalize(type, target), inverse);
  for (const [k, v] of Object.entries(local)) if (k.startsWith('_') && k !== '_tags' && k !== '_credentials' && !(k in json)) json[k] = v;
  return json;
}

export type Resolution = 'mine' | 'theirs';

/**
 * Resolves one entity of the bundle (by bundle id or file) against `serverUrl`; answers what was done. Take mine
 * records `seen` (the server's copy the user was shown) when given: a change made after that is a conflict again.
 */
export async function resolveEntity(
  api: EntityRoutes,
  serverUrl: string,
  dir: string,
  which: string,
  resolution: Resolution,
  options: { seen?: string; signal?: AbortSignal } = {},
): Promise<string> {
  const bundle = await readBundle(dir);
  const entry = bundle.manifest.order.find((e) => e.id === which || e.file === which);
  const entity = entry && bundle.entities.get(entry.id);
  if (!entry || !entity || !TYPES[entry.type]) throw new Error(`${which} is not an entity of the bundle in ${dir}.`);
  let base = resolution === 'mine' ? options.seen : undefined;
  if (!base) {
    const target = await api.get(TYPES[entry.type].route, bundle.idmap[entry.id] ?? entry.id, { signal: options.signal });
    if (!target) throw new Error(`${entry.file}: the server has no such entity any more, so there is nothing to resolve against; push to create it again.`);
    if (resolution === 'theirs') {
      const failed = await writeEntityFile(dir, entry.file, entry.type, theirsAsBundled(entry.type, target, entity.json, bundle.idmap));
      if (failed) throw new Error(failed);
    }
    base = hashOf(entry.type, target);
  }
  const unrecorded = await recordBase(dir, serverUrl, new Map([[entry.id, base]]), bundle.manifest.pulls.length);
  if (unrecorded) throw new Error(unrecorded);
  return resolution === 'theirs' ? `${entry.file} now holds the server's copy.` : `${entry.file} is kept as it is here: the next push overwrites the server's copy with it.`;
}

// A name conflict resolved per entity (grok's `--on-conflict` applies to a whole push; here each entity may have
// its own): the choices a push's `conflicts` option names by the entity's bundle id, its file, or its qualified
// name, checked against the bundle before any request and keyed by bundle id for the plan (plan.ts `choices`).
import type { Manifest } from './manifest';
import type { ConflictPolicy } from './plan';
import { type Json, nqNameOf } from './registry';

/** What a person picks for one conflict (`fail` stays the default for all, never a choice). */
export type ConflictChoice = Exclude<ConflictPolicy, 'fail'>;
export const CHOICES: ConflictChoice[] = ['skip', 'adopt', 'duplicate'];

/** A group's name is unique on a server: a duplicate group is refused by the server (grok: "that row fails"). */
export function choiceProblem(type: string, choice: ConflictChoice): string | undefined {
  return type === 'UserGroup' && choice === 'duplicate'
    ? "a group cannot be pushed as a duplicate: group names are unique on a server. Adopt the server's group or skip it."
    : undefined;
}

/**
 * `given` (`{ [bundle id | file | qualified name]: policy }`) as policies by bundle id; a key that names no entity
 * of the bundle, or more than one, and a value that is no policy are refused with a message saying which.
 */
export function choicesById(bundle: { manifest: Pick<Manifest, 'order'>; entities: Map<string, { type: string; json: Json }> }, given: unknown): Record<string, ConflictPolicy> {
  if (given === undefined) return {};
  if (!given || typeof given !== 'object' || Array.isArray(given))
    throw new Error('The option "conflicts" must be an object: { "<qualified name, bundle file or id>": "skip" | "adopt" | "duplicate" }.');
  const out: Record<string, ConflictPolicy> = {};
  for (const [key, value] of Object.entries(given as Record<string, unknown>)) {
    if (value !== 'fail' && !CHOICES.includes(value as ConflictChoice))
      throw new Error(`conflicts["${key}"] must be one of skip, adopt, duplicate (or fail), not ${JSON.stringify(value)}.`);
    const matches = bundle.manifest.order.filter((e) => e.id === key || e.file === key || nqNameOf(bundle.entities.get(e.id)?.json ?? {}) === key);
    if (!matches.length) throw new Error(`conflicts names "${key}", which is no entity of the bundle: use a qualified name (Scripts:Greet), a bundle file or an id.`);
    if (matches.length > 1)
      throw new Error(`conflicts names "${key}", which ${matches.length} entities of the bundle carry (${matches.map((m) => m.file).join(', ')}): use the file or the id.`);
    const problem = choiceProblem(matches[0].type, value as ConflictChoice);
    if (problem) throw new Error(`conflicts["${key}"]: ${problem}`);
    out[matches[0].id] = value as ConflictPolicy;
  }
  return out;
}

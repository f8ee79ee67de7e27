// What a person picks to pull (Pull to Bundle from the palette): the server's scripts, queries, connections,
// dashboards, tables and groups, listed kind by kind; and typed names — qualified names or ids separated by
// spaces, a name with spaces in quotes (`"World overview" Samples:TopCustomers`) — checked against the server
// before anything else is asked, every name that does not resolve said at once.
import type { EntityJson, EntityRoutes } from '../../api/entities';
import { resolveEntity } from './pull';
import { type Json, nqNameOf, TYPES, untransferable } from './registry';

export interface PickableKind {
  /** As the pick's separator says it. */
  label: string;
  type: string;
  /** Only some of the route's rows (dashboards are the projects marked so). */
  keep?(json: Json): boolean;
}

export const PICKABLE_KINDS: PickableKind[] = [
  { label: 'Scripts', type: 'Script' },
  { label: 'Queries', type: 'DataQuery' },
  { label: 'Connections', type: 'DataConnection' },
  { label: 'Dashboards', type: 'Project', keep: (p) => p.isDashboard === true },
  { label: 'Tables', type: 'TableInfo' },
  { label: 'Groups', type: 'UserGroup', keep: (g) => g.personal !== true && g.hidden !== true },
];

export interface Pickable {
  id: string;
  /** The qualified name (a group: its friendly name). */
  name: string;
  type: string;
  description?: string;
}

/** How many of each kind are listed (the pick filters them as the user types; a name typed still works beyond them). */
export const PICKABLE_PAGE = 500;

/** One kind's entities the server lists (the first page), those that can travel in a bundle, by name. */
export async function listPickable(api: EntityRoutes, kind: PickableKind, signal?: AbortSignal): Promise<Pickable[]> {
  const rows: EntityJson[] = await api.list(TYPES[kind.type].route, { limit: String(PICKABLE_PAGE), page: '1' }, { signal });
  return rows
    .filter((r) => typeof r.id === 'string' && (kind.keep?.(r) ?? true) && !untransferable(kind.type, r))
    .map((r) => ({
      id: String(r.id),
      name: kind.type === 'UserGroup' ? String(r.friendlyName ?? r.name ?? r.id) : nqNameOf(r),
      type: kind.type,
      description: typeof r.description === 'string' && r.description ? r.description.slice(0, 120) : undefined,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Typed names as a list: separated by spaces, a name with spaces in double or single quotes. An unclosed quote
 * is refused with where it starts (nothing is guessed).
 */
export function parseNames(text: string): string[] {
  const names: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) i++;
    else if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end === -1) throw new Error(`The quote before ${text.slice(i + 1, i + 41)} is not closed: put a name with spaces in "double quotes".`);
      const name = text.slice(i + 1, end).trim();
      if (name) names.push(name);
      i = end + 1;
    } else {
      let j = i;
      while (j < text.length && !/\s/.test(text[j])) j++;
      names.push(text.slice(i, j));
      i = j;
    }
  }
  return names;
}

/** Each typed name against the server: undefined when all resolve, else what is wrong with each. */
export async function checkNames(api: EntityRoutes, names: string[], signal?: AbortSignal): Promise<string | undefined> {
  const problems: string[] = [];
  for (const name of names) {
    try {
      await resolveEntity(api, name, { signal });
    } catch (e) {
      problems.push((e as Error).message);
    }
  }
  if (!problems.length) return undefined;
  const spaced = names.length > 1 ? ' A name with spaces goes in quotes: "World overview".' : '';
  return `${problems.join(' ')}${spaced}`;
}

// The server's tables and dashboards as pick items (searched with the server's `text`), and the check
// that typed table IDs or names are on the server.
import { isDatagrokError } from '../api/errors';
import { formatBytes } from '../api/units';
import type { Catalog } from '../platform/functions/catalog';
import { sameTableName } from '../platform/tables/names';
import type { EntitySearch } from './entityPick';

export function tableSearch(catalog: Catalog): EntitySearch {
  return async (text) =>
    (await catalog.listTables(text)).map((t) => ({
      id: t.id,
      label: t.name,
      description: t.nqName ?? t.projectName ?? t.id,
      detail:
        [
          t.projectName ? `project ${t.projectName}` : undefined,
          t.bytes !== undefined ? formatBytes(t.bytes) : undefined,
          t.updatedOn ? `updated ${new Date(t.updatedOn).toLocaleDateString()}` : undefined,
        ]
          .filter(Boolean)
          .join(' · ') || undefined,
    }));
}

export function dashboardSearch(catalog: Catalog): EntitySearch {
  return async (text) =>
    (await catalog.listDashboards(text)).map((d) => ({
      id: d.id,
      label: d.name,
      description: `${d.tables.length} table${d.tables.length === 1 ? '' : 's'}`,
      detail: d.tables.map((t) => t.name).join(', ') || undefined,
    }));
}

const lower = (s: string | undefined) => (s ?? '').toLowerCase();

/**
 * Whether a table ID or name is among the server's tables: true, false, or undefined when the server
 * cannot tell (it does not list tables).
 */
export async function tableOnServer(catalog: Catalog, value: string): Promise<boolean | undefined> {
  // `Project.table`, `Project:table` and the full `owner:Project:table` name the same table.
  const matches = (t: { id: string; name: string; nqName?: string }) =>
    t.id === value || (t.nqName !== undefined && sameTableName(t.nqName, value)) || lower(t.name) === lower(value);
  const short = value.split(/[:.]/).pop() ?? value;
  try {
    if ((await catalog.listTables(short)).some(matches)) return true;
    return (await catalog.listTables()).some(matches);
  } catch (error) {
    if (isDatagrokError(error, 'unsupported')) return undefined;
    throw error;
  }
}

/** The tables step's check: what is not on the server, said so that it can be fixed there. */
export async function missingTablesProblem(catalog: Catalog, values: readonly string[], host: string): Promise<string | undefined> {
  const missing: string[] = [];
  for (const v of values) if ((await tableOnServer(catalog, v)) === false) missing.push(v);
  if (missing.length === 0) return undefined;
  const list = missing.map((m) => `"${m}"`).join(', ');
  return `${missing.length === 1 ? 'Table' : 'Tables'} ${list} ${missing.length === 1 ? 'is' : 'are'} not on ${host}: untick ${missing.length === 1 ? 'it' : 'them'} or type another ID or name`;
}

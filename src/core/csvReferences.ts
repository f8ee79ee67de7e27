// Dataframe inputs given as local CSV files: `{"$csv": "./data.csv", "name"?: "<table name>"}` in a
// parameter file or a run's parameters. Pure: the Run command and the agents' run tool both read them.
import { badInput } from '../api/errors';

export interface CsvReference {
  key: string;
  path: string;
  name?: string;
}

export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(p);
}

/** The top-level parameters written as `{"$csv": "<path>", "name"?: "<table name>"}`. */
export function csvReferences(params: Record<string, unknown>): CsvReference[] {
  const refs: CsvReference[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !('$csv' in value)) continue;
    const { $csv, name } = value as { $csv: unknown; name?: unknown };
    if (typeof $csv !== 'string' || $csv.trim() === '') throw badInput(`Parameter "${key}": "$csv" must be the path of a CSV file.`);
    if (name !== undefined && typeof name !== 'string') throw badInput(`Parameter "${key}": "name" must be text.`);
    refs.push({ key, path: $csv.trim(), name });
  }
  return refs;
}

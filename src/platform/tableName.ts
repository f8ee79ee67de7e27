// Table names as the user types them: `table`, `<project>.<table>` or `Project:table`. Pure.
import * as path from 'node:path';
import { badInput } from '../api/errors';

/** Why a table name is not acceptable, or undefined when it is. */
export function tableNameProblem(name: string): string | undefined {
  if (typeof name !== 'string' || name.trim() === '') return 'Enter a table name, e.g. sales or Project.sales.';
  if (name.includes('/') || name.includes('\\')) return 'A table name cannot contain "/" or "\\".';
  if (name.split(/[.:]/).some((part) => part.trim() === '')) {
    return 'A table name cannot have an empty part: use table, <project>.<table> or Project:table.';
  }
  return undefined;
}

export function checkTableName(name: unknown): string {
  const problem = typeof name === 'string' ? tableNameProblem(name) : 'The table name must be text.';
  if (problem) throw badInput(`Invalid table name "${String(name)}": ${problem}`);
  return (name as string).trim();
}

/**
 * The full name a table gets on the server when pushed under `name` (checked by tableNameProblem):
 * colons for periods, and a bare name becomes a project of its own (`planets` → `planets:planets`).
 */
export function finalTableName(name: string): string {
  const parts = name.trim().replaceAll('.', ':').split(':').map((p) => p.trim());
  return parts.length === 1 ? `${parts[0]}:${parts[0]}` : parts.join(':');
}

/** What the name box says as the user types: the problem, or the name the table will get. */
export function tableNamePreview(name: string): { problem: string } | { final: string; note: string } {
  const problem = tableNameProblem(name);
  if (problem) return { problem };
  const final = finalTableName(name);
  const bare = !/[.:]/.test(name);
  return { final, note: bare ? `Saved as ${final} (a name without a project gets a project of its own; type <project>.<table> to choose one).` : `Saved as ${final}.` };
}

/**
 * The default table name for a file: its base name without `.csv`. Periods and colons would read as a
 * project separator, so they become underscores (`sales.2024.csv` → `sales_2024`).
 */
export function defaultTableName(fileName: string): string {
  const base = path.posix.basename(fileName.replaceAll('\\', '/')).replace(/\.(csv|tsv|txt)$/i, '');
  const cleaned = base.replace(/[.:/\\]/g, '_').trim();
  return cleaned === '' ? 'table' : cleaned;
}

/** A file name for a downloaded table: anything outside letters, digits, `-`, `_`, `.` becomes `_`. */
export function safeFileName(name: string): string {
  const cleaned = name.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '_');
  return (cleaned === '' ? 'table' : cleaned).slice(0, 120);
}

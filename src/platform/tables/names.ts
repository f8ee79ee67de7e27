// Table names as the user types them: `table`, `<project>.<table>`, `Project:table` or the full
// `<owner>:<project>:<table>` a server gives every table (the owner is the login of whoever pushed it). Pure.
import * as path from 'node:path';
import { badInput } from '../../api/errors';

/** Why a table name is not acceptable, or undefined when it is. */
export function tableNameProblem(name: string): string | undefined {
  if (typeof name !== 'string' || name.trim() === '') return 'Enter a table name, e.g. sales or Project.sales.';
  if (name.includes('/') || name.includes('\\')) return 'A table name cannot contain "/" or "\\".';
  const parts = name.split(/[.:]/);
  if (parts.some((part) => part.trim() === '')) {
    return 'A table name cannot have an empty part: use table, <project>.<table> or Project:table.';
  }
  if (parts.length > 3) return 'A table name has at most three parts: <owner>.<project>.<table> (the owner is a login).';
  return undefined;
}

export function checkTableName(name: unknown): string {
  const problem = typeof name === 'string' ? tableNameProblem(name) : 'The table name must be text.';
  if (problem) throw badInput(`Invalid table name "${String(name)}": ${problem}`);
  return (name as string).trim();
}

/** The name's parts, periods read as colons (the server turns every `.` of a path into `:`), trimmed. */
function partsOf(name: string): string[] {
  return name
    .trim()
    .replaceAll('.', ':')
    .split(':')
    .map((p) => p.trim());
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The full name a table gets on the server when the user `login` pushes it under `name` (checked by
 * tableNameProblem), as servers answer it: the owner's namespace first, colons for periods, and a bare
 * name becomes a project of its own (`planets` → `Admin:planets:planets`, `Sales.q1` → `Admin:Sales:q1`).
 * A name with three parts keeps its owner. Without the login (not known yet) the owner is left out
 * (`planets:planets`) rather than guessed.
 */
export function finalTableName(name: string, login?: string): string {
  const parts = partsOf(name);
  const [project, table] = parts.length === 1 ? [parts[0], parts[0]] : parts.slice(-2);
  const given = parts.length === 3 ? parts[0] : undefined;
  const owner = given !== undefined ? (login && same(given, login) ? login : given) : login;
  return owner ? `${owner}:${project}:${table}` : `${project}:${table}`;
}

/** What the name box says as the user types: the problem, or the name the table will get (owner first when the login is known). */
export function tableNamePreview(name: string, login?: string): { problem: string } | { final: string; note: string } {
  const problem = tableNameProblem(name);
  if (problem) return { problem };
  const final = finalTableName(name, login);
  const parts = partsOf(name);
  const where = login ? '' : ' in your namespace (the server puts your login first)';
  const own = parts.length === 1 ? ' (a name without a project gets a project of its own; type <project>.<table> to choose one)' : '';
  const foreign = parts.length === 3 && login && !same(parts[0], login) ? ` ${parts[0]} is not you (${login}): the server may refuse to save into another user's namespace.` : '';
  return { final, note: `Saved as ${final}${where}${own}.${foreign}` };
}

/**
 * Whether two names name the same table, the owner's part optional on either side (`Sales:q1` and
 * `Admin.Sales.q1`): the server reads a name without the owner as the signed-in user's table, so with
 * `login` known the owner must be theirs. Case-insensitive, like the server.
 */
export function sameTableName(a: string, b: string, login?: string): boolean {
  const pa = partsOf(a).map((p) => p.toLowerCase());
  const pb = partsOf(b).map((p) => p.toLowerCase());
  if (pa.length === pb.length) return pa.every((p, i) => p === pb[i]);
  const [long, short] = pa.length > pb.length ? [pa, pb] : [pb, pa];
  if (long.length !== 3 || short.length !== 2) return false;
  return long[1] === short[0] && long[2] === short[1] && (login === undefined || long[0] === login.toLowerCase());
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

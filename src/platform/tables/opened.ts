// Tables of the server downloaded to this machine (datagrok.tables.open), by their local file: what the
// data view shows as the title and the Open in Browser target, and the name a push of that file defaults
// to (so pushing it back replaces the same table, not a new one named after the file). In memory: after a
// reload the file is a CSV file like any other. Pure.
import { finalTableName, sameTableName } from './names';

export interface OpenedTable {
  /** The table's ID on the server, when known. */
  id?: string;
  /** The server's name, `<owner>:<project>:<table>` or `Project:table` (or the name as the user gave it). */
  name: string;
  /** The table's page on the server, when known. */
  url?: string;
  /** The server's base URL. */
  server: string;
  /** While the table is still downloading into the file: settles when the file is whole (rejects when the download fails). */
  download?: Promise<unknown>;
}

export class OpenedTables {
  private readonly byFile = new Map<string, OpenedTable>();

  remember(filePath: string, table: OpenedTable): void {
    this.byFile.set(filePath, table);
  }

  get(filePath: string): OpenedTable | undefined {
    return this.byFile.get(filePath);
  }

  /** The name to push the file as, so the server replaces the table it came from (on that server only). */
  pushName(filePath: string, server: string): string | undefined {
    const t = this.byFile.get(filePath);
    return t && t.server === server ? finalTableName(t.name) : undefined;
  }

  /**
   * After `filePath` was pushed as `result`: when that is the table the file came from (the same ID, or
   * the same name with or without the owner's part), the file now names it as the server answered.
   */
  pushed(filePath: string, server: string, result: { ID: string; name: string; URL?: string }, login?: string): void {
    const t = this.byFile.get(filePath);
    if (!t || t.server !== server) return;
    if (t.id !== undefined ? t.id !== result.ID : !sameTableName(t.name, result.name, login)) return;
    this.byFile.set(filePath, { ...t, id: result.ID, name: result.name, ...(result.URL ? { url: result.URL } : {}) });
  }
}

/** The file name a table is saved under: its own name without the project (`Demo:demog` → `demog.csv`). */
export function tableFileName(name: string): string {
  const leaf = name.split(/[:.]/).pop()?.trim() || 'table';
  return `${leaf.replace(/[^\w-]+/g, '_').slice(0, 120) || 'table'}.csv`;
}

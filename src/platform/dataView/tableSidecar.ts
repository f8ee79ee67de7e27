// What a downloaded table's file remembers of its table across window reloads: a small JSON file beside
// it (`.demog.csv.datagrok-table.json`) with the table's ID, `Project:table` name, page and server. The
// data view writes it when it shows a table of the server, and reads it when it opens a file that no
// table in memory is known for, so the title and the Push as Table target survive a reload. Pure Node.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { OpenedTable } from '../tables/opened';

export function sidecarOf(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.datagrok-table.json`);
}

/** Writes the table beside its file (best effort: a read-only folder only loses the name after a reload). */
export async function writeSidecar(file: string, table: OpenedTable): Promise<void> {
  const { id, name, url, server } = table;
  await fs.promises.writeFile(sidecarOf(file), `${JSON.stringify({ id, name, url, server }, null, 2)}\n`).catch(() => undefined);
}

/** The table a file came from, when its sidecar is there and well formed. */
export async function readSidecar(file: string): Promise<OpenedTable | undefined> {
  try {
    const value = JSON.parse(await fs.promises.readFile(sidecarOf(file), 'utf8')) as Record<string, unknown>;
    if (typeof value.name !== 'string' || typeof value.server !== 'string') return undefined;
    return {
      name: value.name,
      server: value.server,
      ...(typeof value.id === 'string' ? { id: value.id } : {}),
      ...(typeof value.url === 'string' ? { url: value.url } : {}),
    };
  } catch {
    return undefined;
  }
}

// The push-from-the-editor half of the transfer benchmark: CSV text held in memory (what an unsaved
// editor's document.getText() gives) pushed as a table through pushCsv, the code path of
// datagrok.tables.push, against curl uploading the same bytes from a file to the same route. Reports the
// per-run client/curl ratios and the client's extra memory while pushing: encoding the whole text at once
// (a second full copy) would show as about the text's size.
import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DatagrokApi } from '../../src/api/datagrokApi';
import { pushCsv } from '../../src/platform/tables/push';

const MiB = 1024 * 1024;
const TABLE = 'Bench:push';

export interface PushTextBench {
  baseUrl: string;
  key: string;
  api: DatagrokApi;
  /** Bytes of CSV to generate. */
  size: number;
  dir: string;
  runs: number;
  measure(run: () => Promise<unknown>): Promise<{ seconds: number; extraRss: number }>;
  curl(args: string[]): Promise<string>;
  settle(): Promise<void>;
}

/** CSV text of about `size` bytes: a header and rows with numbers, names and a few non-ASCII letters. */
function csvText(size: number): string {
  const rows = ['id,name,city,value\n'];
  let length = rows[0].length;
  for (let i = 0; length < size; i++) {
    const row = `${i},name ${i % 997},${i % 13 === 0 ? 'São Paulo' : 'Berlin'},${(i * 0.37).toFixed(2)}\n`;
    rows.push(row);
    length += row.length;
  }
  return rows.join('');
}

export async function pushTextRun(b: PushTextBench): Promise<{ ratios: number[]; extraRss: number; textMiB: number }> {
  const text = csvText(b.size);
  const bytes = Buffer.from(text, 'utf8');
  const file = join(b.dir, 'push.csv');
  await writeFile(file, bytes);
  const sha = createHash('sha256').update(bytes).digest('hex');
  const byteLength = bytes.length;
  // Only the text stays in memory, as in the extension host (the encoded bytes are curl's file).
  bytes.fill(0);
  const route = `${b.baseUrl}/public/v1/tables/${encodeURIComponent(TABLE.replace(':', '.'))}`;
  const ratios: number[] = [];
  let extraRss = 0;
  // Warm-up: the first push loads papaparse (the sample check) and compiles the path.
  await pushCsv(b.api, { text: text.slice(0, 2 * MiB) }, 'Bench:warm');
  try {
    for (let run = 0; run < b.runs; run++) {
      const client = async () => {
        await b.settle();
        return b.measure(() => pushCsv(b.api, { text }, TABLE));
      };
      const reference = async () => {
        await b.settle();
        return b.measure(() =>
          b.curl(['-T', file, '-X', 'POST', '-H', `Authorization: Bearer ${b.key}`, '-H', 'Content-Type: application/octet-stream', route, '-o', '/dev/null']),
        );
      };
      const clientFirst = run % 2 === 0;
      const c = clientFirst ? await client() : undefined;
      const u = await reference();
      const pushed = c ?? (await client());
      ratios.push(u.seconds / pushed.seconds);
      extraRss = Math.max(extraRss, pushed.extraRss);
      const mib = byteLength / MiB;
      console.log(
        `push run ${run + 1} (${clientFirst ? 'client' : 'curl'} first): ${(mib / pushed.seconds).toFixed(1)} vs curl ${(mib / u.seconds).toFixed(1)} MiB/s (${(u.seconds / pushed.seconds).toFixed(2)}), extra RSS ${(pushed.extraRss / MiB).toFixed(1)} MiB`,
      );
    }
    // The table holds whoever pushed last; push once more so the check is of the client's bytes.
    const { result } = await pushCsv(b.api, { text }, TABLE);
    const state = (await (await fetch(`${new URL(b.baseUrl).origin}/__emulator/state`)).json()) as { tables: Array<{ ID: string; sha256: string }> };
    const stored = state.tables.find((t) => t.ID === result.ID);
    if (stored?.sha256 !== sha) throw new Error(`the pushed table differs from the text: ${JSON.stringify(stored)} vs ${sha} ${byteLength}`);
  } finally {
    await rm(file, { force: true });
  }
  return { ratios, extraRss, textMiB: byteLength / MiB };
}

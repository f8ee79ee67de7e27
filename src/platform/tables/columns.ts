// The columns of the server's tables, for completion and diagnostics of parameter files: read once per
// server and table from the first line of the table's CSV (the download is stopped after the header,
// so a large table costs a few KB) and kept; a table the server does not have is remembered as missing
// for a minute, so typing does not ask again on every key. No vscode here.
import { Writable } from 'node:stream';
import { isDatagrokError } from '../../api/errors';
import { papaparse } from '../lazyModules';
import { RecentResults } from '../recentResults';
import { PerSession, scopeOf, type ServerSession } from '../session';

/** The header of a table, or `missing` when the server has no such table. */
export type TableColumnsAnswer = { columns: string[] } | 'missing';

/** Found columns are kept this long (a re-pushed table may change them). */
const FOUND_TTL_MS = 10 * 60_000;
const MISSING_TTL_MS = 60_000;
/** The header is in the first bytes; a header longer than this is cut (its last column dropped). */
const HEADER_LIMIT = 256 * 1024;

export class TableColumns {
  private readonly state: PerSession<{
    found: RecentResults<TableColumnsAnswer>;
    /** Tables the server answered 404 for, until when that answer is believed. */
    missing: Map<string, number>;
    reading: Map<string, Promise<TableColumnsAnswer>>;
  }>;

  constructor(private readonly session: ServerSession) {
    this.state = new PerSession(session, () => ({ found: new RecentResults(FOUND_TTL_MS), missing: new Map(), reading: new Map() }));
  }

  /** The columns of a table (ID or name), or `missing`; rejects when the server cannot tell now (offline, signed out). */
  async columnsOf(table: string): Promise<TableColumnsAnswer> {
    const { found, missing, reading } = this.state.get();
    const scope = scopeOf(this.session);
    const api = await this.session.client();
    const key = `${api.baseUrl}|${table.trim().toLowerCase()}`;
    if ((missing.get(key) ?? 0) > Date.now()) return 'missing';
    const known = found.peek(key);
    if (known !== undefined) return known;
    let pending = reading.get(key);
    if (!pending) {
      pending = readHeader(table.trim(), (target, signal) => api.downloadTable(table.trim(), target, { signal }));
      reading.set(key, pending);
      void pending.then(
        () => reading.delete(key),
        () => reading.delete(key),
      );
    }
    const answer = await scope.guard(pending);
    if (answer === 'missing') missing.set(key, Date.now() + MISSING_TTL_MS);
    else {
      missing.delete(key);
      found.set(key, answer);
    }
    return answer;
  }

  /** Forgets every answer (a push changed a table, another server). */
  forget(): void {
    const state = this.state.get();
    state.found = new RecentResults(FOUND_TTL_MS);
    state.missing.clear();
  }
}

type Download = (target: { stream: Writable }, signal: AbortSignal) => Promise<unknown>;

/** Reads a CSV's first line through `download`, stopping the download once it has arrived. */
export async function readHeader(what: string, download: Download): Promise<TableColumnsAnswer> {
  const chunks: Buffer[] = [];
  let held = 0;
  let complete = false;
  const stop = new AbortController();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!complete) {
        chunks.push(chunk);
        held += chunk.length;
        if (chunk.includes(10) || held >= HEADER_LIMIT) {
          complete = true;
          stop.abort();
        }
      }
      done();
    },
  });
  try {
    await download({ stream: sink }, stop.signal);
  } catch (e) {
    if (isDatagrokError(e, 'notFound')) return 'missing';
    if (!complete) throw e;
  }
  const text = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const line = text.split(/\r?\n/)[0] ?? '';
  const header = (papaparse().parse<string[]>(line).data[0] ?? []).map((c) => c.trim()).filter((c) => c !== '');
  if (header.length === 0 && text.trim() !== '') throw new Error(`The table ${what} has no header row.`);
  return { columns: header };
}

// Scripts and queries as entities, through the internal routes Datagrok's own clients use (the grok CLI):
// `GET /scripts?text=`, `GET /scripts/{id}`, `POST /scripts` (create, or update when the id is set),
// `DELETE /scripts/{id}`; the same under `/connectors/queries` for queries. A script's code is its
// `script`, a query's its `query`; both carry their header.
import { DatagrokError } from './errors';
import { unsupportedIfMissing } from './failures';
import type { Transport } from './http';
import { list, one } from './shapes';
import type { CallOptions, ScriptEntity, ScriptKind } from './types';

export type { ScriptEntity, ScriptKind };

const ROUTE: Record<ScriptKind, string> = { script: '/scripts', query: '/connectors/queries' };
const NOUN: Record<ScriptKind, string> = { script: 'script', query: 'query' };

function checked(raw: unknown, what: string): ScriptEntity {
  const e = raw as ScriptEntity;
  if (typeof e?.id !== 'string' || typeof e.name !== 'string') throw new DatagrokError('server', `${what} failed: the server's answer has no id or name.`);
  return e;
}

async function entityRoute<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw unsupportedIfMissing(err, `${what} failed: this server has no route for it (Datagrok's internal entity routes).`);
  }
}

/** The scripts or queries whose names match `text` (the server's search). */
export function listScripts(http: Transport, kind: ScriptKind, text: string | undefined, options: CallOptions = {}): Promise<ScriptEntity[]> {
  const what = `Listing ${NOUN[kind] === 'query' ? 'queries' : 'scripts'}`;
  return entityRoute(what, async () =>
    (await list<unknown>(http, { method: 'GET', path: ROUTE[kind], query: { text: text || undefined }, what, signal: options.signal })).map((e) => checked(e, what)),
  );
}

export function getScript(http: Transport, kind: ScriptKind, id: string, options: CallOptions = {}): Promise<ScriptEntity> {
  const what = `Reading ${NOUN[kind]} ${id}`;
  return entityRoute(what, async () => checked(await one(http, { method: 'GET', path: `${ROUTE[kind]}/${encodeURIComponent(id)}`, what, signal: options.signal }), what));
}

/** Creates the script (no `id`) or replaces the one with that `id`; the saved entity as the server has it. */
export function saveScript(http: Transport, kind: ScriptKind, entity: Partial<ScriptEntity> & { name: string }, options: CallOptions = {}): Promise<ScriptEntity> {
  const what = `Saving ${NOUN[kind]} ${entity.name}`;
  return entityRoute(what, async () =>
    checked(await one(http, { method: 'POST', path: ROUTE[kind], what, signal: options.signal, body: JSON.stringify(entity), contentType: 'application/json' }), what),
  );
}

export function deleteScript(http: Transport, kind: ScriptKind, id: string, options: CallOptions = {}): Promise<void> {
  const what = `Deleting ${NOUN[kind]} ${id}`;
  return entityRoute(what, () => http.empty({ method: 'DELETE', path: `${ROUTE[kind]}/${encodeURIComponent(id)}`, what, signal: options.signal }));
}

/** Every data connection (databases and file shares) a query may name: the internal list the grok CLI reads. */
export function listDataConnections(
  http: Transport,
  text: string | undefined,
  options: CallOptions = {},
): Promise<{ id: string; name: string; nqName: string; dataSource?: string }[]> {
  const what = 'Listing data connections';
  return entityRoute(what, async () =>
    (
      await list<Record<string, unknown>>(http, {
        method: 'GET',
        path: '/connectors/connections',
        query: { text: text || undefined, limit: '1000' } as Record<string, string | undefined>,
        what,
        signal: options.signal,
      })
    )
      .filter((c) => typeof c.id === 'string' && typeof c.name === 'string')
      .map((c) => ({
        id: String(c.id),
        name: String(c.name),
        nqName: typeof c.nqName === 'string' ? c.nqName : String(c.name),
        dataSource: typeof c.dataSource === 'string' ? c.dataSource : undefined,
      })),
  );
}

// Functions saved through the public API, as the Python client `datagrok-api` saves them
// (`FunctionsClient.create_script` / `create_query`, both through `_save`): `POST /public/v1/functions` with
// its Func model as JSON (a client-made uuid `id`, `source` "script" or "data-query", `script` and
// `language`, or `query` and `connection`). The function is kept as a Script or DataQuery entity (called by
// its name, listed and deleted through the internal routes) and answered with its `source`, which the
// client's `Func.from_dict` reads. Also `GET /public/v1/connections/{name}` for a database connection
// (the files' connectors answer first, in routes.ts).
import { randomUUID } from 'node:crypto';
import { ApiError, type Ctx, type Route, readJson, sendJson } from './http';
import type { EmulatorState } from './state';

const TYPE_OF_SOURCE: Record<string, 'Script' | 'DataQuery'> = { script: 'Script', 'data-query': 'DataQuery' };

export function functionSaveRoutes(state: EmulatorState): Route[] {
  const save = async (ctx: Ctx) => {
    const body = (await readJson(ctx.req)) as Record<string, unknown> | null;
    const source = typeof body?.source === 'string' ? body.source : '';
    const type = TYPE_OF_SOURCE[source];
    if (!body || !type) throw new ApiError(400, `A function saved here is a script or a query: "source" must be "script" or "data-query" (got ${JSON.stringify(source)})`);
    const saved = state.entities.save(type, body, randomUUID);
    sendJson(ctx.res, { ...saved, source });
  };
  return [{ method: 'POST', path: 'public/v1/functions', handler: save }];
}

/** A database connection by `Namespace.Name` (the Python client writes `:` as `.`), id or name; undefined if none. */
export function databaseConnection(state: EmulatorState, name: string): Record<string, unknown> | undefined {
  const wanted = name.replace('.', ':').toLowerCase();
  return state.entities
    .all('DataConnection')
    .find((c) => String(c.id).toLowerCase() === wanted || String(c.nqName ?? '').toLowerCase() === wanted || String(c.name).toLowerCase() === wanted);
}

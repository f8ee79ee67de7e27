// Runs a saved script or query when it is called as a function (`POST /public/v1/functions/{ns.name}/call`).
// This emulator has no script or database runtime: a call answers as a real server reports a script
// error, naming the language (or the data source) that is not available here.
import { ApiError } from './http';

export type EntityJson = Record<string, unknown>;

/** A saved script called with its parameters by name. */
export async function runScript(script: EntityJson, _params: Record<string, unknown>): Promise<unknown> {
  const language = typeof script.language === 'string' && script.language ? script.language : 'unknown';
  throw new ApiError(500, `Script ${String(script.nqName ?? script.name)} failed: the language "${language}" is not available on this emulator`);
}

/** A saved query called with its parameters by name. */
export async function runQuery(query: EntityJson, _params: Record<string, unknown>): Promise<unknown> {
  const connection = (query.connection ?? {}) as EntityJson;
  const source = typeof connection.dataSource === 'string' && connection.dataSource ? connection.dataSource : 'unknown';
  throw new ApiError(500, `Query ${String(query.nqName ?? query.name)} failed: the data source "${source}" is not available on this emulator`);
}

// Saved scripts and queries as functions: what `GET /public/v1/functions…` shows of them and how a call on
// them runs (README "Entities for grok s"). A row saved through `/api/scripts` or `/api/connectors/queries`
// (and the seeded queries the library does not compute) runs through scriptRunner.ts.
import type { Json } from './entity-json';
import type { FuncParam, PropertyType, RunContext } from './func-catalog';
import { runQuery, runScript } from './scriptRunner';

const TYPES = new Set(['int', 'double', 'string', 'bool', 'dataframe', 'column', 'datetime', 'list']);

/** The parameters of a script or query: its `params` when it carries them, else read from its header. */
export function paramsOf(entity: Json): FuncParam[] {
  if (Array.isArray(entity.params) && entity.params.length) return entity.params as FuncParam[];
  const code = String(entity.script ?? entity.query ?? '');
  const out: FuncParam[] = [];
  for (const line of code.split(/\r?\n/)) {
    const m = /^\s*(?:#|\/\/|--)\s*(input|output)\s*:\s*([\w_]+)\s+([\w_]+)(?:\s*=\s*([^{[]*))?/.exec(line);
    if (!m) continue;
    const propertyType = (TYPES.has(m[2]) ? m[2] : 'dynamic') as PropertyType;
    const initial = m[4]?.trim();
    out.push({ name: m[3], propertyType, isInput: m[1] === 'input', description: '', defaultValue: initial ? initial : null, nullable: initial !== undefined && initial !== '' });
  }
  return out;
}

/** A saved script or query as a Func record (`source`, `params`, `parameterInfos`, …). */
export function entityFuncJson(entity: Json): Json {
  const params = paramsOf(entity);
  const isQuery = entity['#type'] === 'DataQuery';
  const ns = String(entity.namespace ?? '');
  const json: Json = {
    '#type': entity['#type'],
    id: entity.id,
    name: entity.name,
    friendlyName: entity.friendlyName ?? entity.name,
    nqName: entity.nqName ?? `${ns}${entity.name}`,
    namespace: ns,
    package: { name: ns.replace(/:$/, '') },
    source: isQuery ? 'data-query' : 'script',
    description: entity.description ?? '',
    tags: entity.tags ?? [],
    createdOn: entity.createdOn,
    updatedOn: entity.updatedOn,
    params,
    parameterInfos: params,
    options: entity.options ?? {},
  };
  if (!isQuery) json.language = entity.language;
  const conn = entity.connection as Json | null | undefined;
  if (isQuery && conn) json.connection = { name: conn.name, nqName: conn.nqName ?? `${conn.namespace ?? ''}${conn.name}` };
  return json;
}

/** Calls a saved script or query: the runner decides what happens. */
export function callEntity(entity: Json, params: Record<string, unknown>, ctx?: RunContext): Promise<unknown> {
  return entity['#type'] === 'DataQuery' ? runQuery(entity, params, ctx) : runScript(entity, params, ctx);
}

// The server's catalogs: functions (smart search, one by name with its signature), connections, and
// the lists real servers page through for tables and projects (dashboards). Answers are normalised
// here, so the platform layer sees one shape whatever the server's generation sends.
import type { ConnectionInfo, FuncInfo, FuncParam, FunctionKind, Paging, ProjectInfo, TableInfo } from './catalogTypes';
import { DatagrokError } from './errors';
import { unsupportedIfMissing } from './failures';
import type { Transport } from './http';
import { nameSegment } from './names';
import { list, one } from './shapes';
import type { CallOptions } from './types';

type Raw = Record<string, unknown>;

const text = (o: Raw, ...keys: string[]): string | undefined => {
  for (const k of keys) if (typeof o[k] === 'string' && (o[k] as string) !== '') return o[k] as string;
  return undefined;
};

function kindOf(o: Raw): FunctionKind {
  const source = (text(o, 'source', '#type', 'type') ?? '').toLowerCase();
  if (source.includes('script')) return 'script';
  if (source.includes('query')) return 'query';
  return 'function';
}

function param(o: Raw): FuncParam | undefined {
  const name = text(o, 'name');
  if (!name) return undefined;
  const choices = Array.isArray(o['choices']) ? (o['choices'] as unknown[]).filter((c): c is string => typeof c === 'string') : undefined;
  return {
    name,
    propertyType: text(o, 'propertyType', 'type') ?? 'dynamic',
    isInput: o['isInput'] !== false,
    description: text(o, 'description'),
    defaultValue: o['defaultValue'] ?? undefined,
    nullable: typeof o['nullable'] === 'boolean' ? (o['nullable'] as boolean) : undefined,
    choices: choices && choices.length > 0 ? choices : undefined,
  };
}

export function toFunc(o: Raw): FuncInfo | undefined {
  const id = text(o, 'id');
  const name = text(o, 'name');
  if (!id || !name) return undefined;
  const pkg = o['package'] && typeof o['package'] === 'object' ? text(o['package'] as Raw, 'name') : text(o, 'package');
  const namespace = (text(o, 'namespace') ?? '').replace(/:$/, '');
  const packageName = pkg ?? (namespace || 'Other');
  const rawParams = Array.isArray(o['params']) ? o['params'] : Array.isArray(o['parameterInfos']) ? o['parameterInfos'] : undefined;
  return {
    id,
    name,
    nqName: text(o, 'nqName') ?? `${packageName}:${name}`,
    package: packageName,
    kind: kindOf(o),
    description: text(o, 'description'),
    tags: Array.isArray(o['tags']) ? (o['tags'] as unknown[]).filter((t): t is string => typeof t === 'string') : [],
    params: rawParams ? (rawParams as Raw[]).map(param).filter((p): p is FuncParam => p !== undefined) : undefined,
    language: text(o, 'language'),
  };
}

function toConnection(o: Raw): ConnectionInfo | undefined {
  const id = text(o, 'id');
  const name = text(o, 'name');
  if (!id || !name) return undefined;
  const namespace = (text(o, 'namespace') ?? '').replace(/:$/, '');
  return { id, name, nqName: text(o, 'nqName') ?? (namespace ? `${namespace}:${name}` : name), dataSource: text(o, 'dataSource'), description: text(o, 'description') };
}

function toTable(o: Raw): TableInfo | undefined {
  const id = text(o, 'id', 'ID');
  const name = text(o, 'name', 'friendlyName');
  if (!id || !name) return undefined;
  return {
    id,
    name,
    nqName: text(o, 'nqName'),
    projectName: text(o, 'projectName'),
    bytes: typeof o['bytes'] === 'number' ? (o['bytes'] as number) : undefined,
    updatedOn: text(o, 'updatedOn'),
  };
}

function toProject(o: Raw): ProjectInfo | undefined {
  const id = text(o, 'id', 'ID');
  const name = text(o, 'friendlyName', 'name');
  if (!id || !name) return undefined;
  const tables = Array.isArray(o['tables']) ? (o['tables'] as Raw[]).map((t) => ({ id: text(t, 'id') ?? '', name: text(t, 'name') ?? '' })).filter((t) => t.id) : [];
  return { id, name, isDashboard: o['isDashboard'] === true, description: text(o, 'description'), updatedOn: text(o, 'updatedOn'), tables };
}

const defined = <T>(v: T | undefined): v is T => v !== undefined;

function paging(p: Paging): Record<string, string | undefined> {
  return { text: p.text || undefined, limit: p.limit === undefined ? undefined : String(p.limit), page: p.page === undefined ? undefined : String(p.page) };
}

/** A catalog route the server does not have: kind 'unsupported' (the views fall back or say so). */
async function optional<T>(what: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    throw unsupportedIfMissing(err, `${what} failed: this server does not list them.`);
  }
}

export async function listFunctions(http: Transport, search: string | undefined, options: CallOptions = {}): Promise<FuncInfo[]> {
  const raw = await optional('Listing functions', () =>
    list<Raw>(http, { method: 'GET', path: '/public/v1/functions', query: { text: search || undefined }, what: 'Listing functions', signal: options.signal }),
  );
  return raw.map(toFunc).filter(defined);
}

export async function getFunction(http: Transport, idOrName: string, options: CallOptions = {}): Promise<FuncInfo> {
  const what = `Reading function ${idOrName}`;
  const func = toFunc(await one<Raw>(http, { method: 'GET', path: `/public/v1/functions/${nameSegment(idOrName, 'function name')}`, what, signal: options.signal }));
  if (!func) throw new DatagrokError('server', `${what} failed: the server's answer has no id or name.`);
  return func;
}

export async function listConnections(http: Transport, search: string | undefined, options: CallOptions = {}): Promise<ConnectionInfo[]> {
  const raw = await optional('Listing connections', () =>
    list<Raw>(http, { method: 'GET', path: '/public/v1/connections', query: { text: search || undefined }, what: 'Listing connections', signal: options.signal }),
  );
  return raw.map(toConnection).filter(defined);
}

export async function listTables(http: Transport, p: Paging = {}, options: CallOptions = {}): Promise<TableInfo[]> {
  const raw = await optional('Listing tables', () => list<Raw>(http, { method: 'GET', path: '/tables', query: paging(p), what: 'Listing tables', signal: options.signal }));
  return raw.map(toTable).filter(defined);
}

export async function listProjects(http: Transport, p: Paging = {}, options: CallOptions = {}): Promise<ProjectInfo[]> {
  const raw = await optional('Listing projects and dashboards', () =>
    list<Raw>(http, { method: 'GET', path: '/projects', query: paging(p), what: 'Listing projects and dashboards', signal: options.signal }),
  );
  return raw.map(toProject).filter(defined);
}

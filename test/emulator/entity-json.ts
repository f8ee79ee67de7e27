// The seeded platform entities as the internal routes (`/api/scripts`, `/connectors/queries`, `/projects`, …)
// answer them for grok: each with its `#type`, a stable id on every emulator (so a bundle pulled from one is
// "identical" on another), `namespace` with its colon, and the keys a real server sends.
import { createHash } from 'node:crypto';
import { connectionJson } from './entities';
import type { FuncDef, FuncParam } from './func-catalog';
import { funcId } from './func-catalog';
import type { TableStore } from './tables';

export type Json = Record<string, unknown>;

const SEEDED = '2024-01-15T09:00:00.000Z';

/** A stable UUID (v5-shaped) from any text, so derived rows keep their ids across emulators and resets. */
export function uuidFrom(seed: string): string {
  const h = createHash('sha1').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const COMMENT: Record<string, string> = { python: '#', r: '#', julia: '#', octave: '#', javascript: '//', grok: '#', sql: '--' };

function paramLine(prefix: string, p: FuncParam): string {
  const initial = p.defaultValue !== null && p.defaultValue !== undefined ? ` = ${p.defaultValue}` : '';
  const choices = p.choices ? ` {choices: ${JSON.stringify(p.choices)}}` : '';
  const desc = p.description ? ` [${p.description}]` : '';
  return `${prefix}${p.isInput ? 'input' : 'output'}: ${p.propertyType} ${p.name}${initial}${choices}${desc}`;
}

/** A script's or query's code: the header the platform reads, then a body. */
export function codeOf(def: FuncDef, language: string, body: string): string {
  const c = COMMENT[language] ?? '#';
  const name = def.nqName.split(':')[1];
  const lines = [`${c}name: ${name}`, `${c}description: ${def.description}`];
  if (def.source === 'script') lines.push(`${c}language: ${language}`);
  if (def.connection) lines.push(`${c}connection: ${def.connection}`);
  if (def.tags?.length) lines.push(`${c}tags: ${def.tags.join(', ')}`);
  for (const p of [...def.inputs, ...def.outputs]) lines.push(paramLine(c, p));
  return `${lines.join('\n')}\n${body}\n`;
}

const BODIES: Record<string, string> = {
  'Scripts:Normalize':
    'import numpy as np\nv = table[column]\nif method == "min-max":\n    scaled = (v - v.min()) / (v.max() - v.min())\nelse:\n    scaled = (v - v.mean()) / v.std()\nresult = table.assign(normalized=scaled)[[column, "normalized"]]',
  'Scripts:LinearRegression': 'fit <- lm(table[[y]] ~ table[[x]])\nslope <- coef(fit)[2]\nintercept <- coef(fit)[1]\nr2 <- summary(fit)$r.squared',
  'Scripts:Greet': 'greeting = "Hello, " + name + (excited ? "!" : ".");',
  'Scripts:SumList': 'sum = float(sum(values))',
  'Queries:CountriesByContinent': 'select * from "geo/countries.csv" where continent = @continent',
  'Queries:CitiesAbove': 'select * from "geo/cities.csv" where population >= @minPopulation',
  'Queries:CarsByMake': 'select * from "cars.csv" where make = @make and (@since is null or year >= @since)',
};

function funcBase(def: FuncDef, index: number): Json {
  const [ns, name] = def.nqName.split(':');
  return {
    id: funcId(index),
    name,
    friendlyName: name.replace(/([a-z])([A-Z])/g, '$1 $2'),
    nqName: def.nqName,
    namespace: `${ns}:`,
    description: def.description,
    tags: def.tags ?? [],
    params: [...def.inputs, ...def.outputs].map((p) => ({ ...p, id: uuidFrom(`${def.nqName}/${p.name}`) })),
    options: {},
    createdOn: SEEDED,
    updatedOn: SEEDED,
    author: { id: 'd1000000-0000-4000-8000-000000000001', login: 'demo' },
  };
}

/** The library's scripts (`Scripts:*`) as `GET /api/scripts/{id}` answers them. */
export function scriptJson(def: FuncDef, index: number): Json {
  const language = def.language ?? 'python';
  return { '#type': 'Script', ...funcBase(def, index), language, script: codeOf(def, language, BODIES[def.nqName] ?? ''), environment: null, sample: null };
}

/** The library's queries (`Queries:*`) as `GET /api/connectors/queries/{id}` answers them. */
export function queryJson(def: FuncDef, index: number, connection: Json | undefined): Json {
  const conn = connection
    ? { '#type': 'DataConnection', id: connection.id, name: connection.name, nqName: connection.nqName, namespace: connection.namespace, dataSource: connection.dataSource }
    : null;
  return { '#type': 'DataQuery', ...funcBase(def, index), query: codeOf(def, 'sql', BODIES[def.nqName] ?? ''), connection: conn };
}

/** A seeded database connection (credentials masked as a real server masks them) and a query on it. */
export const NORTHWIND_ID = 'f0000000-0000-4000-8000-000000000101';
export function seededDbEntities(): Json[] {
  const connection: Json = {
    '#type': 'DataConnection',
    id: NORTHWIND_ID,
    name: 'Northwind',
    friendlyName: 'Northwind',
    nqName: 'Samples:Northwind',
    namespace: 'Samples:',
    dataSource: 'Postgres',
    description: 'The Northwind demo database',
    tags: ['demo'],
    parameters: { server: 'db.example.com', port: 5432, db: 'northwind', login: 'reader', password: '_____________' },
    credentials: { '#type': 'Credentials', id: 'f0000000-0000-4000-8000-000000000102', openParameters: { login: 'reader' } },
    createdOn: SEEDED,
    updatedOn: SEEDED,
  };
  const sql =
    '--name: TopCustomers\n--connection: Samples:Northwind\n--input: int limit = 10\nselect company_name, sum(freight) as freight\nfrom orders join customers using (customer_id)\ngroup by company_name order by freight desc limit @limit\n';
  const query: Json = {
    '#type': 'DataQuery',
    id: 'f0000000-0000-4000-8000-000000000103',
    name: 'TopCustomers',
    friendlyName: 'Top Customers',
    nqName: 'Samples:TopCustomers',
    namespace: 'Samples:',
    description: 'Customers by freight',
    tags: ['demo'],
    query: sql,
    connection: { '#type': 'DataConnection', id: NORTHWIND_ID, name: 'Northwind', nqName: 'Samples:Northwind', namespace: 'Samples:', dataSource: 'Postgres' },
    params: [
      { id: uuidFrom('Samples:TopCustomers/limit'), name: 'limit', propertyType: 'int', isInput: true, description: '', defaultValue: 10, nullable: true },
      { id: uuidFrom('Samples:TopCustomers/result'), name: 'result', propertyType: 'dataframe', isInput: false, description: '', defaultValue: null, nullable: false },
    ],
    options: {},
    createdOn: SEEDED,
    updatedOn: SEEDED,
  };
  return [connection, query];
}

/** A file share as a DataConnection entity. */
export function connectionEntity(c: Parameters<typeof connectionJson>[0]): Json {
  return { '#type': 'DataConnection', ...connectionJson(c) };
}

/** The layout a dashboard was created with, as a ViewLayout. */
export function layoutOf(d: { id: string; name: string; layout: unknown; createdOn: string }): Json {
  return {
    '#type': 'ViewLayout',
    id: d.id.startsWith('b1000000-') ? `b2000000-${d.id.slice(9)}` : uuidFrom(`layout:${d.id}`),
    name: `${d.name} layout`,
    friendlyName: `${d.name} layout`,
    namespace: '',
    viewState: JSON.stringify(d.layout ?? {}),
    description: '',
    createdOn: d.createdOn,
    updatedOn: d.createdOn,
  };
}

/** A relation row of a project: its own stable id, the entity, not a link. */
function relation(projectId: string, entity: Json): Json {
  return { id: uuidFrom(`relation:${projectId}:${entity.id}`), entity: { '#type': entity['#type'], id: entity.id, name: entity.name }, isLink: false };
}

/** Projects (made by table uploads) and dashboards as Project entities with their relations. */
export function projectEntities(tables: TableStore, tableEntity: (id: string) => Json | undefined): Json[] {
  const out: Json[] = [];
  const tablesOf = (ids: string[]) =>
    ids.flatMap((id) => {
      const t = tableEntity(id);
      return t ? [t] : [];
    });
  for (const p of tables.projects.values()) {
    const ts = tablesOf(p.tableIds);
    out.push({
      // A project made by an upload lives in its owner's namespace (`<owner>:`), as on real servers.
      '#type': 'Project',
      id: p.id,
      name: p.name,
      friendlyName: p.name,
      nqName: p.owner ? `${p.owner}:${p.name}` : p.name,
      namespace: p.owner ? `${p.owner}:` : '',
      isDashboard: false,
      description: '',
      createdOn: p.createdOn,
      updatedOn: p.createdOn,
      tables: ts.map((t) => ({ id: t.id, name: t.name, nqName: t.nqName })),
      relations: ts.map((t) => relation(p.id, t)),
    });
  }
  for (const d of tables.dashboards.values()) {
    const ts = tablesOf(d.tableIds);
    const layout = layoutOf(d);
    out.push({
      '#type': 'Project',
      id: d.id,
      name: d.name,
      friendlyName: d.name,
      nqName: d.name,
      namespace: '',
      isDashboard: true,
      description: `Dashboard of ${d.tableIds.length} table(s)`,
      createdOn: d.createdOn,
      updatedOn: d.createdOn,
      tables: ts.map((t) => ({ id: t.id, name: t.name, nqName: t.nqName })),
      relations: [...ts.map((t) => ({ ...relation(d.id, t), isLink: true })), relation(d.id, layout)],
    });
  }
  return out;
}

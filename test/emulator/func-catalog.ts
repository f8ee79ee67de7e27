// Function signatures as real servers describe them (`GET /public/v1/functions`, `/functions/{idOrName}`):
// every function has `params` (also as `parameterInfos`, which the grok CLI reads) with `name`,
// `propertyType`, `isInput`, `description`, `defaultValue`, `nullable` and `choices` where relevant, and a
// `source` / `#type` telling functions, scripts and queries apart.
import { ApiError, platformName } from './http';

export type PropertyType = 'int' | 'double' | 'string' | 'bool' | 'dataframe' | 'column' | 'datetime' | 'list' | 'dynamic';
export type Source = 'function' | 'script' | 'data-query';

export interface FuncParam {
  name: string;
  propertyType: PropertyType;
  isInput: boolean;
  description: string;
  defaultValue: unknown;
  nullable: boolean;
  choices?: string[];
}

export type Params = Record<string, unknown>;

export interface RunContext {
  /** Rows of a stored table by id or name. */
  rows(table: string): Promise<{ fields: string[]; rows: Record<string, string>[] }>;
  /** A connector file's text. */
  readText(connector: string, path: string): Promise<string>;
  /** The stored tables' names (what SQL queries see as tables). */
  tableNames?(): string[];
}

/** A function as the registry defines it: `run` gets the parameters (checked by `checkParams` unless `ownChecks`). */
export interface FuncDef {
  /** A fixed id (a published package's functions); else `funcId` of its index. */
  id?: string;
  nqName: string;
  description: string;
  source?: Source;
  /** Scripts: the language. */
  language?: string;
  /** Queries: the connection they read. */
  connection?: string;
  tags?: string[];
  inputs: FuncParam[];
  outputs: FuncParam[];
  /** The function validates its own parameters (the original demo functions keep their exact messages). */
  ownChecks?: boolean;
  run(params: Params, ctx: RunContext): Promise<unknown> | unknown;
}

interface ParamOptions {
  defaultValue?: unknown;
  nullable?: boolean;
  choices?: string[];
}

export function input(name: string, propertyType: PropertyType, description: string, options: ParamOptions = {}): FuncParam {
  const p: FuncParam = {
    name,
    propertyType,
    isInput: true,
    description,
    defaultValue: options.defaultValue ?? null,
    nullable: options.nullable ?? options.defaultValue !== undefined,
  };
  if (options.choices) p.choices = options.choices;
  return p;
}

export function output(name: string, propertyType: PropertyType, description: string): FuncParam {
  return { name, propertyType, isInput: false, description, defaultValue: null, nullable: false };
}

const CREATED = '2024-02-01T10:00:00.000Z';
const TYPE: Record<Source, string> = { function: 'Func', script: 'Script', 'data-query': 'DataQuery' };

/** A stable UUID for a function from its index: `f1000000-…-<n>`. */
export function funcId(index: number): string {
  return `f1000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`;
}

export function funcJson(def: FuncDef, index: number): Record<string, unknown> {
  const [pkg, name] = def.nqName.split(':');
  const source = def.source ?? 'function';
  const params = [...def.inputs, ...def.outputs];
  const json: Record<string, unknown> = {
    '#type': TYPE[source],
    id: def.id ?? funcId(index),
    name,
    friendlyName: name.replace(/([a-z])([A-Z])/g, '$1 $2'),
    nqName: def.nqName,
    namespace: `${pkg}:`,
    package: { name: pkg },
    source,
    description: def.description,
    tags: def.tags ?? [],
    createdOn: CREATED,
    updatedOn: CREATED,
    params,
    parameterInfos: params,
    options: {},
  };
  if (def.language) json.language = def.language;
  if (def.connection) json.connection = { name: def.connection.split(':')[1], nqName: def.connection };
  return json;
}

/** Finds a function by id, `Package:Name` / `Package.Name`, or a bare name that only one package has. */
export function findFunc(defs: FuncDef[], idOrName: string): number {
  const lower = idOrName.toLowerCase();
  const byId = defs.findIndex((d, i) => (d.id ?? funcId(i)) === lower);
  if (byId >= 0) return byId;
  const name = platformName(idOrName).toLowerCase();
  const exact = defs.findIndex((d) => d.nqName.toLowerCase() === name);
  if (exact >= 0 || name.includes(':')) return exact;
  const bare = defs.map((d, i) => (d.nqName.split(':')[1].toLowerCase() === name ? i : -1)).filter((i) => i >= 0);
  return bare.length === 1 ? bare[0] : -1;
}

function typeOk(p: FuncParam, v: unknown): boolean {
  switch (p.propertyType) {
    case 'int':
      return Number.isInteger(v);
    case 'double':
      return typeof v === 'number' && Number.isFinite(v);
    case 'bool':
      return typeof v === 'boolean';
    case 'string':
      return typeof v === 'string';
    case 'dataframe':
      return typeof v === 'string' && v !== '';
    case 'column':
      return typeof v === 'string' && /^[^/]+\/.+$/.test(v);
    case 'datetime':
      return typeof v === 'string' && !Number.isNaN(Date.parse(v));
    case 'list':
      return Array.isArray(v);
    default:
      return true;
  }
}

const EXPECTED: Record<PropertyType, string> = {
  int: 'an integer',
  double: 'a number',
  bool: 'true or false',
  string: 'a string',
  dataframe: 'a table ID or name',
  column: 'a column as "<table>/<column>"',
  datetime: 'a date-time',
  list: 'a list',
  dynamic: 'any value',
};

/** Applies defaults and checks presence, JSON type and choices of every input; unknown inputs are a 400. */
export function checkParams(def: FuncDef, params: Params): Params {
  const out: Params = {};
  for (const key of Object.keys(params)) {
    if (!def.inputs.some((p) => p.name === key)) throw new ApiError(400, `${def.nqName} has no input "${key}"`);
  }
  for (const p of def.inputs) {
    let v = params[p.name];
    if (v === undefined || v === null) {
      if (p.defaultValue !== null) v = p.defaultValue;
      else if (p.nullable) v = null;
      else throw new ApiError(400, `Missing parameter "${p.name}"`);
    }
    if (v !== null && !typeOk(p, v)) throw new ApiError(400, `Parameter "${p.name}" must be ${EXPECTED[p.propertyType]}, got ${JSON.stringify(v)}`);
    if (v !== null && p.choices && !p.choices.includes(String(v))) {
      throw new ApiError(400, `Parameter "${p.name}" must be one of ${p.choices.join(', ')}, got ${JSON.stringify(v)}`);
    }
    out[p.name] = v;
  }
  return out;
}

/** `--functions N`: N generated functions in the package `Bench`, with real signatures and a real result. */
export function benchFunctions(count: number): FuncDef[] {
  const width = Math.max(4, String(count).length);
  const kinds: Source[] = ['function', 'script', 'data-query'];
  return Array.from({ length: count }, (_, i) => ({
    nqName: `Bench:Func${String(i + 1).padStart(width, '0')}`,
    description: `Generated function ${i + 1}: x times factor`,
    source: kinds[i % 3],
    language: i % 3 === 1 ? 'python' : undefined,
    connection: i % 3 === 2 ? 'System:DemoFiles' : undefined,
    tags: ['bench'],
    inputs: [
      input('x', 'double', 'A number'),
      input('factor', 'int', 'Multiplier', { defaultValue: i + 1 }),
      input('label', 'string', 'Free text', { nullable: true }),
      input('mode', 'string', 'How to round', { defaultValue: 'none', choices: ['none', 'floor', 'ceil'] }),
    ],
    outputs: [output('result', 'double', 'x times factor, rounded per mode')],
    run: (p: Params) => {
      const v = (p.x as number) * (p.factor as number);
      return p.mode === 'floor' ? Math.floor(v) : p.mode === 'ceil' ? Math.ceil(v) : v;
    },
  }));
}

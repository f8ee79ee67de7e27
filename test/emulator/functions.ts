// The function registry: `Package:Name` → parameters by name, computed on the real stored tables and files.
// The original demo functions (package Demo) check their own parameters; the library's are checked
// against their signatures (func-catalog.ts).
import Papa from 'papaparse';
import { benchFunctions, checkParams, type FuncDef, findFunc, funcJson, input, output, type Params, type RunContext } from './func-catalog';
import { LIBRARY } from './func-library';
import { callEntity, entityFuncJson } from './entity-funcs';
import type { Json } from './entity-json';
import { ApiError, platformName } from './http';
import { search } from './search';

function required(params: Params, name: string): unknown {
  if (!(name in params) || params[name] === undefined) throw new ApiError(400, `Missing parameter "${name}"`);
  return params[name];
}

function numberParam(params: Params, name: string): number {
  const v = required(params, name);
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ApiError(400, `Parameter "${name}" must be a number, got ${JSON.stringify(v)}`);
  return v;
}

function stringParam(params: Params, name: string): string {
  const v = required(params, name);
  if (typeof v !== 'string' || v === '') throw new ApiError(400, `Parameter "${name}" must be a non-empty string, got ${JSON.stringify(v)}`);
  return v;
}

/** A CSV cell as a number, or undefined when empty or not numeric. */
function numeric(cell: string | undefined): number | undefined {
  if (cell === undefined || cell.trim() === '') return undefined;
  const n = Number(cell);
  return Number.isFinite(n) ? n : undefined;
}

function checkColumn(fields: string[], column: string, table: string): void {
  if (!fields.includes(column)) throw new ApiError(400, `Column "${column}" not found in table ${platformName(table)}`);
}

const DEMO: FuncDef[] = [
  {
    nqName: 'Demo:Add',
    description: 'Adds two numbers',
    inputs: [input('a', 'double', 'First addend'), input('b', 'double', 'Second addend')],
    outputs: [output('sum', 'double', 'a + b')],
    run: (p) => numberParam(p, 'a') + numberParam(p, 'b'),
  },
  {
    nqName: 'Demo:Echo',
    description: 'Returns its input unchanged',
    inputs: [input('value', 'dynamic', 'Any JSON value')],
    outputs: [output('value', 'dynamic', 'The value as given')],
    run: (p) => required(p, 'value'),
  },
  {
    nqName: 'Demo:RowCount',
    description: 'Counts the rows of a table',
    inputs: [input('table', 'dataframe', 'Table ID or name')],
    outputs: [output('count', 'int', 'Number of rows')],
    run: async (p, ctx) => (await ctx.rows(stringParam(p, 'table'))).rows.length,
  },
  {
    nqName: 'Demo:ColumnStats',
    description: 'Minimum, maximum, mean and count of the numeric values of a column',
    inputs: [input('column', 'column', 'The column as "<table>/<column>"')],
    outputs: [output('min', 'double', 'Smallest value'), output('max', 'double', 'Largest value'), output('mean', 'double', 'Average'), output('count', 'int', 'Numeric values')],
    run: async (p, ctx) => {
      const spec = stringParam(p, 'column');
      const slash = spec.indexOf('/');
      if (slash <= 0 || slash === spec.length - 1) throw new ApiError(400, `Parameter "column" must look like "<table>/<column>", got "${spec}"`);
      const table = spec.slice(0, slash);
      const column = spec.slice(slash + 1);
      const { fields, rows } = await ctx.rows(table);
      checkColumn(fields, column, table);
      const values = rows.map((r) => numeric(r[column])).filter((v): v is number => v !== undefined);
      if (values.length === 0) throw new ApiError(400, `Column "${column}" has no numeric values`);
      let min = values[0];
      let max = values[0];
      let sum = 0;
      for (const v of values) {
        if (v < min) min = v;
        if (v > max) max = v;
        sum += v;
      }
      return [min, max, sum / values.length, values.length];
    },
  },
  {
    nqName: 'Demo:Filter',
    description: 'The rows of a table where a numeric column is at least a minimum, as CSV',
    inputs: [input('table', 'dataframe', 'Table ID or name'), input('column', 'string', 'Column name'), input('min', 'double', 'Smallest value kept')],
    outputs: [output('result', 'dataframe', 'The rows kept')],
    run: async (p, ctx) => {
      const table = stringParam(p, 'table');
      const column = stringParam(p, 'column');
      const min = numberParam(p, 'min');
      const { fields, rows } = await ctx.rows(table);
      checkColumn(fields, column, table);
      const kept = rows.filter((r) => {
        const v = numeric(r[column]);
        return v !== undefined && v >= min;
      });
      return Papa.unparse({ fields, data: kept.map((r) => fields.map((f) => r[f] ?? '')) }, { newline: '\n' });
    },
  },
  {
    nqName: 'Demo:Fail',
    description: 'Always fails with the given message',
    inputs: [input('message', 'string', 'The error message', { nullable: true })],
    outputs: [],
    run: (p) => {
      const message = p.message;
      if (message !== undefined && typeof message !== 'string') throw new ApiError(400, 'Parameter "message" must be a string');
      throw new ApiError(500, message || 'Demo:Fail always fails');
    },
  },
];

for (const def of DEMO) def.ownChecks = true;

/** Every function of the emulator: the demo package, the library (several packages, scripts, queries), `--functions N` more. */
export class FunctionRegistry {
  readonly defs: FuncDef[];
  /**
   * Scripts and queries of the entity store that run through scriptRunner.ts: the saved ones, and the seeded
   * ones the library does not compute (set by the state).
   */
  entityFuncs: () => Json[] = () => [];
  /** The functions of the packages published here that the current user sees (set by the state). */
  packageFuncs: () => FuncDef[] = () => [];

  constructor(extra = 0) {
    this.defs = [...DEMO, ...LIBRARY, ...benchFunctions(extra)];
  }

  names(): string[] {
    return this.all().map((f) => f.nqName);
  }

  /** The library's functions and the published packages' (a package published here wins over a library one of its name). */
  private all(): FuncDef[] {
    const published = this.packageFuncs();
    if (published.length === 0) return this.defs;
    const names = new Set(published.map((d) => d.nqName.toLowerCase()));
    return [...this.defs.filter((d) => !names.has(d.nqName.toLowerCase())), ...published];
  }

  /** GET /public/v1/functions?text= (smart search, e.g. `source = "script"`, `package = "Chem"`, `#stats`). */
  list(text: string | null): Record<string, unknown>[] {
    // Searched with `package` as a plain string (so `package = "Chem"` works); answered as `{name}`.
    const own = this.entityFuncs();
    const shadowed = new Set(own.map((e) => String(e.nqName).toLowerCase()));
    const defs = this.all();
    const records = defs
      .filter((d) => !shadowed.has(d.nqName.toLowerCase()))
      .map((d) => ({ ...funcJson(d, defs.indexOf(d)), name: d.nqName.split(':')[1], package: d.nqName.split(':')[0] }));
    const saved = own.map((e) => {
      const f = entityFuncJson(e);
      return { ...f, name: String(f.name), package: String(f.namespace).replace(/:$/, '') };
    });
    return search([...records, ...saved], text).map((r) => ({ ...r, package: { name: r.package } }));
  }

  /** GET /public/v1/functions/{idOrName}; unknown → 404 ApiError. */
  get(idOrName: string): Record<string, unknown> {
    const own = this.entityFunc(idOrName);
    if (own) return entityFuncJson(own);
    const defs = this.all();
    const i = findFunc(defs, idOrName);
    if (i < 0) throw new ApiError(404, `Function ${platformName(idOrName)} not found`);
    return funcJson(defs[i], i);
  }

  /** Calls `Package:Name` (or `Package.Name`) with JSON parameters; unknown → 404 ApiError. */
  async call(rawName: string, body: unknown, ctx: RunContext): Promise<unknown> {
    const name = platformName(rawName);
    const own = this.entityFunc(rawName);
    if (own) {
      if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) throw new ApiError(400, 'The request body must be a JSON object of parameters');
      return callEntity(own, (body ?? {}) as Params, ctx);
    }
    const def = this.all().find((f) => f.nqName.toLowerCase() === name.toLowerCase());
    if (!def) throw new ApiError(404, `Function ${name} not found`);
    const params = body === undefined ? {} : body;
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      throw new ApiError(400, 'The request body must be a JSON object of parameters');
    }
    return def.run(def.ownChecks ? (params as Params) : checkParams(def, params as Params), ctx);
  }

  /** A saved (or runner-backed) script or query by id, `Namespace:Name` or `Namespace.Name`. */
  private entityFunc(idOrName: string): Json | undefined {
    const lower = idOrName.toLowerCase();
    const name = platformName(idOrName).toLowerCase();
    return this.entityFuncs().find((e) => e.id === lower || String(e.nqName).toLowerCase() === name);
  }
}

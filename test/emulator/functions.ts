// The function registry: `Package:Name` → parameters by name, computed on the real stored tables.
import Papa from 'papaparse';
import { ApiError, platformName } from './http';
import type { TableStore } from './tables';

type Params = Record<string, unknown>;

interface EmulatedFunction {
  name: string;
  run(params: Params, tables: TableStore): Promise<unknown> | unknown;
}

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

const FUNCTIONS: EmulatedFunction[] = [
  { name: 'Demo:Add', run: (p) => numberParam(p, 'a') + numberParam(p, 'b') },
  { name: 'Demo:Echo', run: (p) => required(p, 'value') },
  {
    name: 'Demo:RowCount',
    run: async (p, tables) => (await tables.rows(stringParam(p, 'table'))).rows.length,
  },
  {
    name: 'Demo:ColumnStats',
    run: async (p, tables) => {
      const spec = stringParam(p, 'column');
      const slash = spec.indexOf('/');
      if (slash <= 0 || slash === spec.length - 1) throw new ApiError(400, `Parameter "column" must look like "<table>/<column>", got "${spec}"`);
      const table = spec.slice(0, slash);
      const column = spec.slice(slash + 1);
      const { fields, rows } = await tables.rows(table);
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
    name: 'Demo:Filter',
    run: async (p, tables) => {
      const table = stringParam(p, 'table');
      const column = stringParam(p, 'column');
      const min = numberParam(p, 'min');
      const { fields, rows } = await tables.rows(table);
      checkColumn(fields, column, table);
      const kept = rows.filter((r) => {
        const v = numeric(r[column]);
        return v !== undefined && v >= min;
      });
      return Papa.unparse({ fields, data: kept.map((r) => fields.map((f) => r[f] ?? '')) }, { newline: '\n' });
    },
  },
  {
    name: 'Demo:Fail',
    run: (p) => {
      const message = p.message;
      if (message !== undefined && typeof message !== 'string') throw new ApiError(400, 'Parameter "message" must be a string');
      throw new ApiError(500, message || 'Demo:Fail always fails');
    },
  },
];

export function functionNames(): string[] {
  return FUNCTIONS.map((f) => f.name);
}

/** Calls `Package:Name` (or `Package.Name`) with JSON parameters; unknown → 404 ApiError. */
export async function callFunction(rawName: string, body: unknown, tables: TableStore): Promise<unknown> {
  const name = platformName(rawName);
  const fn = FUNCTIONS.find((f) => f.name.toLowerCase() === name.toLowerCase());
  if (!fn) throw new ApiError(404, `Function ${name} not found`);
  const params = body === undefined ? {} : body;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new ApiError(400, 'The request body must be a JSON object of parameters');
  }
  return fn.run(params as Params, tables);
}

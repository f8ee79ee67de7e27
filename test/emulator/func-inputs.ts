// What the demo library's functions share: reading their parameters, a table's numeric column, and
// writing a CSV result.
import Papa from 'papaparse';
import type { Params, RunContext } from './func-catalog';
import { ApiError } from './http';

export const num = (p: Params, name: string) => p[name] as number;
export const str = (p: Params, name: string) => p[name] as string;

/** The numeric values of `<table>/<column>`. */
export async function columnValues(ctx: RunContext, spec: string): Promise<number[]> {
  const slash = spec.indexOf('/');
  const table = spec.slice(0, slash);
  const column = spec.slice(slash + 1);
  const { fields, rows } = await ctx.rows(table);
  if (!fields.includes(column)) throw new ApiError(400, `Column "${column}" not found in table ${table}`);
  const values = rows.map((r) => Number(r[column])).filter((v, i) => rows[i][column]?.trim() !== '' && Number.isFinite(v));
  if (values.length === 0) throw new ApiError(400, `Column "${column}" has no numeric values`);
  return values;
}

export const csv = (fields: string[], rows: unknown[][]) => Papa.unparse({ fields, data: rows }, { newline: '\n' });

// How the emulator runs a script's code, as a server binds it: inputs by name (a dataframe input as the
// language's table: a pandas DataFrame in Python, rows in JavaScript; a column input as its name;
// scalars as values), outputs read back by name (one output → its value, several → an array, a dataframe
// → CSV text). JavaScript runs in node:vm, Python in the machine's python3 (one with pandas), SQL on a
// demo database (sql.js: SQLite in WebAssembly) holding the server's stored tables. Each run has a time
// limit; an error in the script comes back as a server reports it: a 500 whose message names the
// script's line (1-based, header included). Other languages: "not available here".
import { spawn, spawnSync } from 'node:child_process';
import * as vm from 'node:vm';
import Papa from 'papaparse';
import initSqlJs from 'sql.js';
import { ApiError } from './http';
import { PYTHON_DRIVER } from './scriptPythonDriver';

export interface ScriptParam {
  name: string;
  propertyType: string;
  isInput: boolean;
}

export interface ScriptCode {
  /** The function's name, for messages. */
  name: string;
  /** python, javascript, r…; `sql` for queries. */
  language: string;
  /** The whole text, header included (so lines match the file's). */
  code: string;
  params: ScriptParam[];
}

export interface ScriptRunContext {
  /** A stored table's rows, by id or name. */
  rows(table: string): Promise<{ fields: string[]; rows: Record<string, string>[] }>;
  /** The stored tables' names (the demo database's tables). */
  tableNames(): string[];
}

/** The default time limit of a run; `DATAGROK_EMULATOR_SCRIPT_TIMEOUT_MS` overrides it. */
export function scriptTimeLimitMs(): number {
  const fromEnv = Number(process.env.DATAGROK_EMULATOR_SCRIPT_TIMEOUT_MS);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 20_000;
}

export const RUNNABLE = ['javascript', 'python', 'sql'];

const csvOf = (fields: string[], rows: Record<string, unknown>[]) => Papa.unparse({ fields, data: rows.map((r) => fields.map((f) => r[f] ?? '')) }, { newline: '\n' });

function scriptError(script: ScriptCode, line: number | undefined, message: string): ApiError {
  return new ApiError(500, `Error in ${script.language} script ${script.name}${line ? `, line ${line}` : ''}: ${message}`);
}

/** The result as the call route answers it: one output → its value, several → an array, none → null. */
function answer(script: ScriptCode, values: Record<string, unknown>): unknown {
  const outputs = script.params.filter((p) => !p.isInput);
  const out = outputs.map((p) => values[p.name]);
  return out.length === 0 ? null : out.length === 1 ? out[0] : out;
}

/** The CSV of a dataframe input (a table ID or name), and a column input's name. */
async function boundInputs(
  script: ScriptCode,
  params: Record<string, unknown>,
  ctx: ScriptRunContext,
): Promise<{ scalars: Record<string, unknown>; frames: Record<string, { fields: string[]; rows: Record<string, string>[] }> }> {
  const scalars: Record<string, unknown> = {};
  const frames: Record<string, { fields: string[]; rows: Record<string, string>[] }> = {};
  for (const p of script.params.filter((x) => x.isInput)) {
    const value = params[p.name];
    const type = p.propertyType.toLowerCase();
    if (type === 'dataframe' && value !== undefined && value !== null) {
      if (typeof value !== 'string') throw new ApiError(400, `Parameter "${p.name}" must be a table ID or name`);
      frames[p.name] = await ctx.rows(value);
    } else if (type === 'column' && typeof value === 'string') {
      scalars[p.name] = value.slice(value.lastIndexOf('/') + 1);
    } else scalars[p.name] = value ?? null;
  }
  return { scalars, frames };
}

// ---- JavaScript --------------------------------------------------------------------------------------

/** A dataframe input in JavaScript: its rows, with `rowCount`, `columns` (names) and `col(name)`. */
function jsFrame(frame: { fields: string[]; rows: Record<string, string>[] }) {
  const rows = frame.rows.map((r) => Object.fromEntries(frame.fields.map((f) => [f, r[f] !== '' && Number.isFinite(Number(r[f])) ? Number(r[f]) : r[f]])));
  return Object.assign(rows, { rowCount: rows.length, columns: [...frame.fields], col: (name: string) => rows.map((r) => r[name]) });
}

function jsOutput(value: unknown, type: string): unknown {
  if (type !== 'dataframe' || typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const fields = [...new Set(value.flatMap((r) => Object.keys(r as object)))];
    return csvOf(fields, value as Record<string, unknown>[]);
  }
  return value;
}

async function runJavaScript(script: ScriptCode, params: Record<string, unknown>, ctx: ScriptRunContext, timeoutMs: number): Promise<unknown> {
  const { scalars, frames } = await boundInputs(script, params, ctx);
  const sandbox: Record<string, unknown> = { ...scalars, console: { log: () => undefined, warn: () => undefined, error: () => undefined } };
  for (const [name, frame] of Object.entries(frames)) sandbox[name] = jsFrame(frame);
  for (const p of script.params.filter((x) => !x.isInput)) if (!(p.name in sandbox)) sandbox[p.name] = undefined;
  const context = vm.createContext(sandbox);
  // Outputs are assigned as globals (`result = ...`), as Datagrok's JavaScript scripts do.
  try {
    new vm.Script(script.code, { filename: `${script.name}.js` }).runInContext(context, { timeout: timeoutMs });
  } catch (e) {
    const error = e as Error & { code?: string };
    if (error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw scriptError(script, undefined, `timed out after ${timeoutMs} ms`);
    const line = new RegExp(`${script.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.js:(\\d+)`).exec(error.stack ?? '')?.[1];
    throw scriptError(script, line ? Number(line) : undefined, `${error.name ?? 'Error'}: ${error.message}`);
  }
  const values: Record<string, unknown> = {};
  for (const p of script.params.filter((x) => !x.isInput)) values[p.name] = jsOutput(context[p.name], p.propertyType.toLowerCase());
  return answer(script, values);
}

// ---- Python ------------------------------------------------------------------------------------------

let pythonFound: string | null | undefined;

/** A python3 that has pandas: `DATAGROK_EMULATOR_PYTHON`, else `python3` on the PATH, else /usr/bin/python3. */
export function pythonWithPandas(): string | undefined {
  if (pythonFound !== undefined) return pythonFound ?? undefined;
  const candidates = [process.env.DATAGROK_EMULATOR_PYTHON, 'python3', '/usr/bin/python3'].filter((c): c is string => !!c);
  pythonFound = candidates.find((c) => spawnSync(c, ['-c', 'import pandas'], { stdio: 'ignore', timeout: 20_000 }).status === 0) ?? null;
  return pythonFound ?? undefined;
}

async function runPython(script: ScriptCode, params: Record<string, unknown>, ctx: ScriptRunContext, timeoutMs: number): Promise<unknown> {
  const python = pythonWithPandas();
  if (!python) throw new ApiError(500, `Python scripts are not available here: no python3 with pandas on this machine (set DATAGROK_EMULATOR_PYTHON).`);
  const { scalars, frames } = await boundInputs(script, params, ctx);
  const job = {
    code: script.code,
    file: `${script.name}.py`,
    scalars,
    frames: Object.fromEntries(Object.entries(frames).map(([n, f]) => [n, csvOf(f.fields, f.rows)])),
    outputs: script.params.filter((p) => !p.isInput).map((p) => ({ name: p.name, type: p.propertyType.toLowerCase() })),
  };
  // Plots are drawn off screen (matplotlib's Agg backend): a graphics output is a figure's PNG.
  const child = spawn(python, ['-c', PYTHON_DRIVER], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, MPLBACKEND: 'Agg' } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  child.stdin.end(JSON.stringify(job));
  await new Promise<void>((resolve) => child.on('close', () => resolve()));
  clearTimeout(timer);
  if (timedOut) throw scriptError(script, undefined, `timed out after ${timeoutMs} ms`);
  const marker = stdout.lastIndexOf('\u0000DATAGROK');
  if (marker < 0) throw scriptError(script, undefined, stderr.trim().split('\n').pop() || 'the Python process ended without a result');
  const outcome = JSON.parse(stdout.slice(marker + '\u0000DATAGROK'.length)) as { values?: Record<string, unknown>; error?: string; line?: number | null };
  if (outcome.error !== undefined) throw scriptError(script, outcome.line ?? undefined, outcome.error);
  return answer(script, outcome.values ?? {});
}

// ---- SQL ---------------------------------------------------------------------------------------------

let sqlEngine: ReturnType<typeof initSqlJs> | undefined;

/** A few rows of Northwind's customers and orders, for the seeded Samples:Northwind queries. */
const NORTHWIND = `
CREATE TABLE customers (customer_id TEXT PRIMARY KEY, company_name TEXT, country TEXT);
INSERT INTO customers VALUES ('ALFKI','Alfreds Futterkiste','Germany'),('BONAP','Bon app''','France'),('ERNSH','Ernst Handel','Austria'),('QUICK','QUICK-Stop','Germany'),('SAVEA','Save-a-lot Markets','USA');
CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id TEXT, freight REAL, ship_country TEXT);
INSERT INTO orders VALUES (10248,'ALFKI',32.38,'Germany'),(10249,'SAVEA',11.61,'USA'),(10250,'ERNSH',65.83,'Austria'),(10251,'QUICK',41.34,'Germany'),(10252,'SAVEA',51.3,'USA'),(10253,'BONAP',58.17,'France'),(10254,'ERNSH',22.98,'Austria'),(10255,'ALFKI',148.33,'Germany');
`;

/** A fresh database with Northwind's customers and orders and the server's stored tables, each under its table name (`demog`, `car_models`…). */
async function demoDatabase(ctx: ScriptRunContext, sql: string) {
  sqlEngine ??= initSqlJs();
  const SQL = await sqlEngine;
  const db = new SQL.Database();
  db.exec(NORTHWIND);
  for (const name of ctx.tableNames()) {
    const table = name.replace(/^.*[:.]/, '');
    // Only the tables the query names are loaded (the stored tables can be large).
    if (!new RegExp(`\\b${table.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(sql)) continue;
    const { fields, rows } = await ctx.rows(name);
    const numeric = fields.map((f) => rows.every((r) => (r[f] ?? '') === '' || Number.isFinite(Number(r[f]))));
    const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
    db.run(`CREATE TABLE IF NOT EXISTS ${quote(table)} (${fields.map((f, i) => `${quote(f)} ${numeric[i] ? 'REAL' : 'TEXT'}`).join(', ')})`);
    const insert = db.prepare(`INSERT INTO ${quote(table)} VALUES (${fields.map(() => '?').join(', ')})`);
    for (const r of rows) insert.run(fields.map((f, i) => ((r[f] ?? '') === '' ? null : numeric[i] ? Number(r[f]) : r[f])));
    insert.free();
  }
  return db;
}

/** Runs a query's SQL (the text after its header, up to `--end`) with `@name` inputs bound; a dataframe. */
async function runSql(script: ScriptCode, params: Record<string, unknown>, ctx: ScriptRunContext, timeoutMs: number): Promise<unknown> {
  const started = Date.now();
  const sql = script.code.split(/\r?\n--end\b/)[0];
  const db = await demoDatabase(ctx, sql);
  try {
    const bound: Record<string, string | number | null> = {};
    for (const p of script.params.filter((x) => x.isInput)) {
      if (!new RegExp(`@${p.name}\\b`).test(sql)) continue;
      const v = params[p.name];
      bound[`@${p.name}`] = typeof v === 'boolean' ? Number(v) : typeof v === 'number' || typeof v === 'string' ? v : v === undefined || v === null ? null : JSON.stringify(v);
    }
    let result: { columns: string[]; values: unknown[][] } | undefined;
    try {
      const statement = db.prepare(sql, bound);
      const columns = statement.getColumnNames();
      const values: unknown[][] = [];
      while (statement.step()) {
        values.push(statement.get());
        if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms`);
      }
      statement.free();
      result = { columns, values };
    } catch (e) {
      throw scriptError(script, undefined, (e as Error).message);
    }
    const table = csvOf(
      result.columns,
      result.values.map((row) => Object.fromEntries(result.columns.map((c, i) => [c, row[i]]))),
    );
    const outputs = script.params.filter((p) => !p.isInput);
    return outputs.length > 1 ? [table] : table;
  } finally {
    db.close();
  }
}

/** Runs a script's or query's code with the call's parameters, within the time limit. */
export async function runCode(script: ScriptCode, params: Record<string, unknown>, ctx: ScriptRunContext, timeoutMs = scriptTimeLimitMs()): Promise<unknown> {
  switch (script.language.toLowerCase()) {
    case 'javascript':
      return runJavaScript(script, params, ctx, timeoutMs);
    case 'python':
      return runPython(script, params, ctx, timeoutMs);
    case 'sql':
      return runSql(script, params, ctx, timeoutMs);
    default:
      throw new ApiError(
        501,
        `${script.language || 'This'} scripts are not available here: this server runs ${RUNNABLE.join(', ')} (the emulator); run ${script.name} on a Datagrok server.`,
      );
  }
}

// Runs one notebook cell on the server: a script or query as a temporary script, a function call by
// name. Inputs named like the notebook's variables take them: a table by its reference on the server (a
// table the server answered as CSV goes up once, the first time a later cell takes it; never again), a
// scalar by its value. No vscode.
import * as fs from 'node:fs';
import type { DatagrokApi } from '../../api/datagrokApi';
import { badInput, DatagrokError } from '../../api/errors';
import type { FuncParam } from '../../api/catalogTypes';
import { csvShape, looksLikeCsv, outputsOf } from '../functions/outputs';
import { withTemporaryScript } from '../scripts/entities';
import { readRaised } from '../scripts/scriptErrors';
import { pushCsv } from '../tables/push';
import { type CallCell, callVariables } from './cells';
import type { OutputFiles } from './outputFiles';
import { cellLine, cellScript } from './scriptCell';
import { countCsvFileRows, fileStart, type TableHead, tableHead } from './tableHead';
import type { NotebookVariable, NotebookVariables } from './variables';

export interface CellOutput {
  name: string;
  type: string;
  value?: unknown;
  /** A dataframe as the server answered it (CSV), when no file keeps it (`CellContext.outputFiles`). */
  csv?: string;
  /** A dataframe's rows on disk: its output id and file (the text released once written). */
  id?: string;
  file?: string;
  /** A dataframe's columns and first rows (when it is in a file). */
  head?: TableHead;
  rows?: number;
  columns?: number;
}

export interface CellRun {
  outputs: CellOutput[];
  /** The variables the cell took. */
  reads: string[];
}

export interface CellContext {
  api: DatagrokApi;
  variables: NotebookVariables;
  signal: AbortSignal;
  /** What the tables the notebook puts on the server are named from (`Notebook_<stem>_`). */
  tablePrefix: string;
  /** Told when a temporary script could not be deleted. */
  leftBehind(name: string, error: unknown): void;
  /** Where dataframe outputs are written (each its own file); without it, their CSV stays in memory. */
  outputFiles?: Pick<OutputFiles, 'write' | 'reserve' | 'remove'>;
  /** The functions' declared outputs read so far in this session, by name (read once, beside the first call). */
  signatures?: Map<string, Promise<FuncParam[]>>;
}

/** A cell's failure with the line of the cell it is on (1-based), when the server names one. */
export class CellFailure extends Error {
  constructor(
    message: string,
    readonly line?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The table's reference on the server: a table answered as CSV is uploaded now, once. */
export async function tableRef(ctx: Pick<CellContext, 'api' | 'signal' | 'tablePrefix'>, v: NotebookVariable): Promise<string> {
  if (v.table) return v.table;
  const gone = () => badInput(`The table "${v.name}" has no rows here: run cell ${v.cell + 1} again.`);
  if (v.file !== undefined && !fs.existsSync(v.file)) throw gone();
  const source = v.file !== undefined ? { file: v.file } : v.csv !== undefined ? { text: v.csv } : undefined;
  if (!source) throw gone();
  const { result } = await pushCsv(ctx.api, source, `${ctx.tablePrefix}${v.name}`, { signal: ctx.signal, what: `The table "${v.name}"` });
  v.table = result.ID;
  v.csv = undefined;
  return v.table;
}

const argumentOf = (ctx: CellContext, v: NotebookVariable) => (v.type === 'dataframe' ? tableRef(ctx, v) : Promise.resolve(v.value));

function missing(cellNumber: number, name: string, what: string): Error {
  return badInput(`Cell ${cellNumber} takes ${what} "${name}", which no cell above has made: run the cell that makes it first, or fix the name.`);
}

/** The outputs of a result, named and typed by the function's declared outputs. */
function outputsFrom(result: unknown, declared: { name: string; type: string }[]): CellOutput[] {
  if (declared.length === 0) return result === null || result === undefined ? [] : [outputOf('result', 'dynamic', result)];
  const values = declared.length === 1 ? [result] : outputsOf(result);
  return declared.map((d, i) => outputOf(d.name, d.type, values[i]));
}

/** An answer the client wrote to an output's file as it came (one string or CSV text), not yet looked at. */
class Streamed {
  constructor(
    readonly id: string,
    readonly file: string,
  ) {}
}

/**
 * Calls the function; with output files, each string of the answer (a table's CSV; one, or each of several
 * outputs) goes to a new one as it arrives.
 */
async function callOnServer(ctx: CellContext, name: string, params: Record<string, unknown>): Promise<unknown> {
  const files = ctx.outputFiles;
  if (!files) return ctx.api.callFunction(name, params, { signal: ctx.signal });
  const reserved = new Map<string, string>();
  const nextFile = async () => {
    const { id, file } = await files.reserve();
    reserved.set(file, id);
    return file;
  };
  const streamed = (file: string) => new Streamed(reserved.get(file) as string, file);
  try {
    const answer = await ctx.api.callFunctionToFile(name, params, nextFile, { signal: ctx.signal });
    if ('file' in answer) return streamed(answer.file);
    if ('elements' in answer) return answer.elements.map((e) => ('file' in e ? streamed(e.file) : e.value));
    return answer.value;
  } catch (error) {
    await Promise.all([...reserved.values()].map((id) => files.remove(id).catch(() => undefined)));
    throw error;
  }
}

function outputOf(name: string, type: string, value: unknown): CellOutput {
  if (value instanceof Streamed) return { name, type, value };
  if ((type === 'dataframe' || type === 'dynamic') && looksLikeCsv(value)) return { name, type: 'dataframe', csv: value };
  return { name, type, value };
}

/** Each dataframe's CSV to its own file (its text released), with its shape and first rows; or its shape alone, kept in memory. */
async function settle(ctx: CellContext, outputs: CellOutput[]): Promise<CellOutput[]> {
  for (const o of outputs) {
    if (o.value instanceof Streamed) {
      const { id, file } = o.value;
      const start = await fileStart(file);
      if ((o.type === 'dataframe' || o.type === 'dynamic') && looksLikeCsv(start.text)) {
        const head = tableHead(start.text, { rows: await countCsvFileRows(file), whole: start.whole });
        Object.assign(o, { type: 'dataframe', value: undefined, id, file, head, rows: head.rows, columns: head.columns.length });
      } else {
        // A string output that is not a table (a name, a message): its value.
        o.value = await fs.promises.readFile(file, 'utf8');
        await ctx.outputFiles?.remove(id);
      }
      continue;
    }
    if (o.csv === undefined) continue;
    if (!ctx.outputFiles) {
      Object.assign(o, csvShape(o.csv));
      continue;
    }
    const head = tableHead(o.csv);
    const { id, file } = await ctx.outputFiles.write(o.csv);
    o.csv = undefined;
    Object.assign(o, { id, file, head, rows: head.rows, columns: head.columns.length });
  }
  return outputs;
}

async function runScriptCell(ctx: CellContext, index: number, language: string, text: string): Promise<CellRun> {
  const script = cellScript(language, text, index + 1);
  const params: Record<string, unknown> = {};
  const reads: string[] = [];
  for (const input of script.local.header.inputs) {
    const v = ctx.variables.get(input.name);
    if (v && v.cell < index) {
      params[input.name] = await argumentOf(ctx, v);
      reads.push(input.name);
    } else if (input.baseType === 'dataframe' && input.initialText === undefined) throw missing(index + 1, input.name, 'the table');
  }
  const name = script.local.header.value('name') ?? '';
  let called = '';
  try {
    const { result } = await withTemporaryScript(
      ctx.api,
      script.local,
      (callName) => {
        called = callName;
        return callOnServer(ctx, callName, params);
      },
      ctx.signal,
      ctx.leftBehind,
    );
    const outputs = outputsFrom(
      result,
      script.local.header.outputs.map((o) => ({ name: o.name, type: o.baseType })),
    );
    return { outputs: await settle(ctx, outputs), reads };
  } catch (error) {
    if (!(error instanceof DatagrokError) || error.kind !== 'server' || !error.serverMessage || (error.status ?? 500) < 500) throw error;
    const called_ = called.replace(/^.*:/, '');
    const raised = readRaised(error.serverMessage, { name, called: called_ || undefined });
    const line = raised.line === undefined ? undefined : cellLine(script, raised.line);
    throw new CellFailure(`${line ? `Line ${line}: ` : ''}${raised.text.split(called_ || name).join(`cell ${index + 1}`)}`, line, { cause: error });
  }
}

async function runCallCell(ctx: CellContext, index: number, call: CallCell): Promise<CellRun> {
  const params: Record<string, unknown> = {};
  for (const [key, arg] of Object.entries(call.args)) {
    if ('variable' in arg) {
      const v = ctx.variables.get(arg.variable);
      if (!v || v.cell >= index) throw missing(index + 1, arg.variable, 'the variable');
      params[key] = await argumentOf(ctx, v);
    } else {
      // A parameter-file cell names a table by its variable's name, as text.
      const v = typeof arg.value === 'string' ? ctx.variables.get(arg.value) : undefined;
      params[key] = v && v.type === 'dataframe' && v.cell < index ? await tableRef(ctx, v) : arg.value;
    }
  }
  const reads = [
    ...callVariables(call),
    ...Object.values(call.args).flatMap((a) => ('value' in a && typeof a.value === 'string' && ctx.variables.get(a.value)?.type === 'dataframe' ? [a.value] : [])),
  ];
  // The signature (for the outputs' names and types) is read while the call runs, not before it.
  const key = call.function.toLowerCase();
  const signature =
    ctx.signatures?.get(key) ??
    ctx.api.getFunction(call.function, { signal: ctx.signal }).then(
      (f) => (f.params ?? []).filter((p) => !p.isInput),
      (): FuncParam[] => {
        // Unknown here (the call itself says what is wrong with the name): read again next time.
        ctx.signatures?.delete(key);
        return [];
      },
    );
  ctx.signatures?.set(key, signature);
  const result = await callOnServer(ctx, call.function, params);
  const declared = await signature;
  const outputs = outputsFrom(
    result,
    declared.map((p) => ({ name: p.name, type: p.propertyType.toLowerCase() })),
  );
  if (call.assignTo && outputs.length > 0) outputs[0] = { ...outputs[0], name: call.assignTo };
  return { outputs: await settle(ctx, outputs), reads };
}

/** Runs a cell (`call` given for a function-call cell: parsed from its text, or from a parameter-file object). */
export function runCell(ctx: CellContext, cell: { index: number; language: string; text: string; call?: CallCell }): Promise<CellRun> {
  if (cell.call) return runCallCell(ctx, cell.index, cell.call);
  return runScriptCell(ctx, cell.index, cell.language, cell.text);
}

/** What a cell's outputs make of the notebook's variables (the file, or the CSV, kept until a later cell takes the table). */
export function variablesOf(index: number, run: CellRun): NotebookVariable[] {
  return run.outputs.map((o) => ({ name: o.name, type: o.type, cell: index, value: o.value, csv: o.csv, file: o.file, rows: o.rows, columns: o.columns }));
}

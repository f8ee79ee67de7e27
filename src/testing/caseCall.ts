// One call of a test case's function: its "$csv" inputs pushed first under names of their own (so a test
// never replaces a table someone uses), then the function called. The public API has no route that
// deletes a table, so the tables a case pushed stay on the server: they are named
// `vscodetest_<run>_<table>` and listed in the run's output.
import * as vscode from 'vscode';
import type { FuncParam } from '../api/types';
import type { DatagrokApi } from '../api/datagrokApi';
import { DatagrokError, isDatagrokError } from '../api/errors';
import { pushCsvParameters } from '../core/csvParameters';
import { ProgressReporter } from '../core/progress';
import type { Catalog } from '../platform/functions/catalog';
import { outputsOf } from '../platform/functions/signature';
import type { CallOutcome } from '../platform/tests/expect';

export interface CaseCall {
  outcome: CallOutcome;
  /** The function's outputs, when its signature could be read. */
  outputs: FuncParam[];
  /** Tables pushed for "$csv" inputs (left on the server: the API cannot delete them). */
  tables: string[];
  durationMs: number;
}

/** A name for a table a test pushes: unique, and marked as a test's. */
export function testTableName(given: string, runId: string): string {
  const table = given.split(/[.:]/).pop() ?? 'table';
  return `vscodetest_${runId}_${table}`;
}

export function newTestRunId(): string {
  return Math.random().toString(36).slice(2, 8);
}

/** Calls the function; a failure of the call is an outcome, a cancel or a bad "$csv" input is thrown. */
export async function callCase(
  deps: { client: DatagrokApi; catalog: Catalog; log: vscode.LogOutputChannel },
  functionName: string,
  params: Record<string, unknown>,
  fileUri: vscode.Uri,
  runId: string,
  signal: AbortSignal,
): Promise<CaseCall> {
  const { client, catalog, log } = deps;
  let outputs: FuncParam[] = [];
  try {
    outputs = outputsOf(await catalog.funcOrLastKnown(functionName));
  } catch {
    // No signature (an unknown function, no catalog on this server): the answer is judged as it comes.
  }
  const tables: string[] = [];
  const quiet = new ProgressReporter({ report: () => undefined });
  // Bad "$csv" inputs (no such file, not CSV) are thrown: the case could not run.
  const sent = await pushCsvParameters(client, params, vscode.Uri.joinPath(fileUri, '..'), undefined, log, quiet, signal, {
    tableName: (name) => testTableName(name, runId),
    onPushed: (table) => tables.push(table.name),
  });
  const started = Date.now();
  try {
    const result = await client.callFunction(functionName, sent, { signal });
    return { outcome: { ok: true, result }, outputs, tables, durationMs: Date.now() - started };
  } catch (error) {
    if (isDatagrokError(error, 'cancelled') || signal.aborted) throw error;
    // Not signed in, the server unreachable: the case could not run (errored), it did not fail.
    if (isDatagrokError(error) && ['unauthorized', 'network', 'timeout', 'unavailable'].includes(error.kind)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return { outcome: { ok: false, error: message }, outputs, tables, durationMs: Date.now() - started };
  }
}

export function isCancel(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof DatagrokError && error.kind === 'cancelled');
}

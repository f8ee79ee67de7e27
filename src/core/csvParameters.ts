// Dataframe parameters given as local CSV files: `{"$csv": "./data.csv"}` (relative to the parameter
// file) is pushed first, through the same push code as "Push CSV as Table", and replaced by the new
// table's ID. An optional "name" sets the table name (default: the file name). Shared by the Run command
// and the function tests (which name their tables uniquely and report them).
import * as vscode from 'vscode';
import type { DatagrokApi } from '../api/datagrokApi';
import { badInput } from '../api/errors';
import type { ProgressReporter } from './progress';
import { describeShape } from '../platform/tables/csvSample';
import { csvToPush } from './documents';
import { inspectSource, pushCsv } from '../platform/tables/push';
import type { RecentEntities } from '../platform/recent';
import { checkTableName } from '../platform/tables/names';
import { csvReferences, isAbsolutePath } from './csvReferences';

export { csvReferences };

export interface CsvPushOptions {
  /** The table name to push to, from the one the parameter gives (or the file's default name). */
  tableName?: (name: string) => string;
  /** Told of each table pushed. */
  onPushed?: (table: { ID: string; name: string; key: string }) => void;
}

/**
 * Resolves every `$csv` reference (relative to `baseDir`), checks them all before pushing any, then
 * pushes them and returns the parameters with table IDs in their place.
 */
export async function pushCsvParameters(
  client: DatagrokApi,
  params: Record<string, unknown>,
  baseDir: vscode.Uri | undefined,
  recent: RecentEntities | undefined,
  log: vscode.LogOutputChannel,
  progress: ProgressReporter,
  signal: AbortSignal,
  options: CsvPushOptions = {},
): Promise<Record<string, unknown>> {
  const refs = csvReferences(params);
  if (refs.length === 0) return params;
  const prepared = [];
  for (const ref of refs) {
    let uri: vscode.Uri;
    if (isAbsolutePath(ref.path)) uri = vscode.Uri.file(ref.path);
    else if (baseDir) uri = vscode.Uri.joinPath(baseDir, ref.path);
    else throw badInput(`Parameter "${ref.key}": the relative path "${ref.path}" needs a parameter file (or a workspace folder) to start from.`);
    const csv = await csvToPush(uri);
    const given = ref.name !== undefined ? checkTableName(ref.name) : csv.defaultName;
    const name = options.tableName ? checkTableName(options.tableName(given)) : given;
    const shape = await inspectSource(csv.source, `The CSV "${ref.path}" of parameter "${ref.key}"`);
    prepared.push({ ref, csv, name, shape });
  }
  const resolved = { ...params };
  for (const { ref, csv, name, shape } of prepared) {
    progress.message(`pushing ${ref.path} as ${name}`);
    const { result } = await pushCsv(client, csv.source, name, { shape, signal, onProgress: progress.bytes });
    log.info(`Pushed ${csv.uri.toString(true)} as ${result.name} (${result.ID}, ${describeShape(shape)}) for parameter "${ref.key}"`);
    await recent?.remember(client.baseUrl, result);
    options.onPushed?.({ ID: result.ID, name: result.name ?? name, key: ref.key });
    resolved[ref.key] = result.ID;
  }
  return resolved;
}

// Dataframe parameters given as local CSV files: `{"$csv": "./data.csv"}` (relative to the parameter
// file) is pushed first, through the same push code as "Push CSV as Table", and replaced by the new
// table's ID. An optional "name" sets the table name (default: the file name).
import * as vscode from 'vscode';
import type { DatagrokApi } from '../api/types';
import { badInput } from '../api/errors';
import type { ProgressReporter } from '../core/progress';
import { describeShape } from '../platform/csvSample';
import { csvToPush } from '../core/documents';
import { inspectSource, pushCsv } from '../platform/pushTable';
import type { RecentEntities } from '../platform/recent';
import { checkTableName } from '../platform/tableName';
import { csvReferences, isAbsolutePath } from '../core/csvReferences';

export { csvReferences };

/**
 * Resolves every `$csv` reference (relative to `baseDir`), checks them all before pushing any, then
 * pushes them and returns the parameters with table IDs in their place.
 */
export async function pushCsvParameters(
  client: DatagrokApi,
  params: Record<string, unknown>,
  baseDir: vscode.Uri | undefined,
  recent: RecentEntities,
  log: vscode.LogOutputChannel,
  progress: ProgressReporter,
  signal: AbortSignal,
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
    const name = ref.name !== undefined ? checkTableName(ref.name) : csv.defaultName;
    const shape = await inspectSource(csv.source, `The CSV "${ref.path}" of parameter "${ref.key}"`);
    prepared.push({ ref, csv, name, shape });
  }
  const resolved = { ...params };
  for (const { ref, csv, name, shape } of prepared) {
    progress.message(`pushing ${ref.path} as ${name}`);
    const { result } = await pushCsv(client, csv.source, name, { shape, signal, onProgress: progress.bytes });
    log.info(`Pushed ${csv.uri.toString(true)} as ${result.name} (${result.ID}, ${describeShape(shape)}) for parameter "${ref.key}"`);
    await recent.remember(client.baseUrl, result);
    resolved[ref.key] = result.ID;
  }
  return resolved;
}

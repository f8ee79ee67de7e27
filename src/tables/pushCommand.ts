// datagrok.tables.push: the CSV of an editor (unsaved text included) or a file, judged, named and
// uploaded with byte progress; remembered for later picks.
import * as vscode from 'vscode';
import type { CreationResult } from '../api/types';
import { type CommandInvocation, UserCancelled } from '../core/commands';
import { badInput } from '../api/errors';
import { hostOf } from '../api/names';
import { formatBytes } from '../api/units';
import type { Services } from '../services';
import { anySignal } from '../core/signals';
import { type CsvShape, describeShape } from '../platform/csvSample';
import { announceCreated } from '../ui/entityPick';
import { uriOption } from '../core/options';
import { activeCsvEditor, type CsvToPush, csvToPush } from '../core/documents';
import { countCsvRows } from '../platform/csvRows';
import { inspectSource, pushCsv } from '../platform/pushTable';
import type { RecentEntities } from '../platform/recent';
import { checkTableName, finalTableName, tableNamePreview } from '../platform/tableName';

export interface PushTableOptions {
  /** The CSV to push: a Uri, a URI string or a path; default the active editor. */
  uri?: vscode.Uri | string;
  /** `table`, `<project>.<table>` or `Project:table`; default from the file name. */
  name?: string;
  /** For scripts and tests: aborts the upload like the notification's Cancel button. */
  signal?: AbortSignal;
}

async function askCsvFile(): Promise<vscode.Uri> {
  const picked = await vscode.window.showOpenDialog({ title: 'Push CSV as Table', canSelectMany: false, filters: { CSV: ['csv', 'tsv', 'txt'] } });
  if (!picked?.[0]) throw new UserCancelled();
  return picked[0];
}

/**
 * The name box doubles as the confirmation: it says what is about to be pushed, where, and the name the
 * server will give (updated as the user types, so `planets` becoming `planets:planets` is no surprise).
 */
function confirmName(csv: CsvToPush, shape: CsvShape, host: string, initial: string): Promise<string> {
  const ragged = shape.ragged > 0 ? ` (${shape.ragged.toLocaleString('en-US')} rows have a different number of fields than the header)` : '';
  const what = `${describeShape(shape)}, ${formatBytes(shape.bytes)}${ragged}.`;
  const box = vscode.window.createInputBox();
  box.title = `Push ${csv.what} to ${host}`;
  box.value = initial;
  box.ignoreFocusOut = true;
  const update = () => {
    const preview = tableNamePreview(box.value);
    box.validationMessage = 'problem' in preview ? preview.problem : undefined;
    box.prompt = `${what} ${'note' in preview ? `${preview.note} ` : ''}Table name: table, <project>.<table> or Project:table; an existing table of that name is replaced.`;
  };
  update();
  return new Promise<string>((resolve, reject) => {
    let done = false;
    box.onDidChangeValue(update);
    box.onDidAccept(() => {
      update();
      if (box.validationMessage) return;
      done = true;
      resolve(box.value.trim());
      box.hide();
    });
    box.onDidHide(() => {
      box.dispose();
      if (!done) reject(new UserCancelled());
    });
    box.show();
  });
}

function checkOptions(options: PushTableOptions): void {
  if (options.name !== undefined && typeof options.name !== 'string') throw badInput('The option "name" must be text.');
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) throw badInput('The option "signal" must be an AbortSignal.');
}

export async function pushTableCommand(services: Services, recent: RecentEntities, inv: CommandInvocation<PushTableOptions>): Promise<CreationResult> {
  const options = inv.options;
  if (options) checkOptions(options);
  let target = options ? uriOption(options.uri, 'uri') : inv.arg instanceof vscode.Uri ? inv.arg : undefined;
  if (!target && inv.interactive) {
    // From the palette: the active CSV editor, else a file to choose.
    let active: vscode.Uri | undefined;
    try {
      active = activeCsvEditor();
    } catch {
      active = undefined;
    }
    target = active ?? (await askCsvFile());
  }
  const csv = await csvToPush(target);
  const shape = await inspectSource(csv.source, csv.what);
  const client = await services.connection.client();
  // A table opened from this server defaults to its own name: pushing it back replaces it.
  const known = csv.uri.scheme === 'file' ? services.platform.openedTables.pushName(csv.uri.fsPath, client.baseUrl) : undefined;
  let name = options?.name !== undefined ? checkTableName(options.name) : (known ?? csv.defaultName);
  const host = hostOf(client.baseUrl);
  if (inv.interactive) name = await confirmName(csv, shape, host, name);

  const started = Date.now();
  const { result, rows } = await inv.withProgress(`Pushing ${csv.what} as ${finalTableName(name)}`, async (progress, signal) => {
    const stop = anySignal(signal, options?.signal);
    // A sampled file's row count was an estimate: counted exactly while it uploads (one more read of
    // the file, at the same time), so the message after the push says the real number.
    const source = csv.source;
    const counting = !shape.exact && 'file' in source ? countCsvRows(source.file, stop).catch(() => undefined) : Promise.resolve(undefined);
    const pushed = await pushCsv(client, source, name, { shape, what: csv.what, onProgress: progress.bytes, signal: stop });
    return { result: pushed.result, rows: await counting };
  });
  const seconds = (Date.now() - started) / 1000;
  const rate = seconds > 0 ? ` (${(shape.bytes / 1024 / 1024 / seconds).toFixed(1)} MB/s)` : '';
  services.log.info(`Pushed ${csv.uri.toString(true)} as ${result.name} (${result.ID}): ${rows !== undefined ? `${rows.toLocaleString('en-US')} rows (counted) × ${shape.columns} columns` : describeShape(shape)}, ${formatBytes(shape.bytes)} in ${seconds.toFixed(1)} s${rate}`);
  await recent.remember(client.baseUrl, result);
  // The Tables view lists it.
  services.platform.catalog.reload();
  // The exact count (the text's, or the file's counted during the upload); never the sample's estimate.
  const exact = shape.exact ? shape : rows !== undefined ? { ...shape, rows, exact: true } : undefined;
  const pushed = exact ? describeShape(exact) : `${shape.columns.toLocaleString('en-US')} column${shape.columns === 1 ? '' : 's'}, ${formatBytes(shape.bytes)}`;
  announceCreated(`Pushed ${csv.what} as table ${result.name} (${pushed}).`, result);
  return result;
}

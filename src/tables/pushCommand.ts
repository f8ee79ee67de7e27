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
import { type CsvShape, describeShape } from '../platform/tables/csvSample';
import { announceCreated } from '../ui/entityPick';
import { uriOption } from '../core/options';
import { activeCsvEditor, type CsvToPush, csvToPush } from '../core/documents';
import { countCsvRows } from '../platform/tables/csvRows';
import { inspectSource, pushCsv } from '../platform/tables/push';
import type { RecentEntities } from '../platform/recent';
import { checkTableName, finalTableName, sameTableName, tableNamePreview } from '../platform/tables/names';

export interface PushTableOptions {
  /** The CSV to push: a Uri, a URI string or a path; default the active editor. */
  uri?: vscode.Uri | string;
  /** `table`, `<project>.<table>`, `Project:table` or `<owner>:<project>:<table>`; default from the file name. */
  name?: string;
  /** For scripts and tests: aborts the upload like the notification's Cancel button. */
  signal?: AbortSignal;
}

async function askCsvFile(): Promise<vscode.Uri> {
  const picked = await vscode.window.showOpenDialog({ title: 'Push CSV as Table', canSelectMany: false, filters: { CSV: ['csv', 'tsv', 'txt'] } });
  if (!picked?.[0]) throw new UserCancelled();
  return picked[0];
}

/** The signed-in user's login (their personal group's name): known after sign-in, else read once; undefined when it cannot be. */
async function loginOf(services: Services): Promise<string | undefined> {
  const user = services.connection.peekUser() ?? (await services.connection.currentUser().catch(() => undefined));
  return user?.name || undefined;
}

/**
 * The name box doubles as the confirmation: it says what is about to be pushed, where, and the name the
 * server will give, owner first (updated as the user types, so `planets` becoming `Admin:planets:planets`
 * is no surprise). `known`: the table this file was opened from, which that name replaces.
 */
function confirmName(csv: CsvToPush, shape: CsvShape, host: string, initial: string, login: string | undefined, known: string | undefined): Promise<string> {
  const ragged = shape.ragged > 0 ? ` (${shape.ragged.toLocaleString('en-US')} rows have a different number of fields than the header)` : '';
  const what = `${describeShape(shape)}, ${formatBytes(shape.bytes)}${ragged}.`;
  const box = vscode.window.createInputBox();
  box.title = `Push ${csv.what} to ${host}`;
  box.value = initial;
  box.ignoreFocusOut = true;
  const update = () => {
    const preview = tableNamePreview(box.value, login);
    box.validationMessage = 'problem' in preview ? preview.problem : undefined;
    // The table the file came from keeps the name the server gave it (a shared table may have no owner part).
    const note = 'note' in preview ? (known && sameTableName(box.value, known, login) ? `Replaces ${known}, the table this file was opened from.` : preview.note) : undefined;
    box.prompt = `${what} ${note ? `${note} ` : ''}Table name: table, <project>.<table> or Project:table; an existing table of that name is replaced.`;
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
  const login = await loginOf(services);
  if (inv.interactive) name = await confirmName(csv, shape, host, name, login, known);
  const replacing = known !== undefined && sameTableName(name, known, login);

  const started = Date.now();
  const { result, rows } = await inv.withProgress(`Pushing ${csv.what} as ${replacing ? known : finalTableName(name, login)}`, async (progress, signal) => {
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
  services.log.info(
    `Pushed ${csv.uri.toString(true)} as ${result.name} (${result.ID}): ${rows !== undefined ? `${rows.toLocaleString('en-US')} rows (counted) × ${shape.columns} columns` : describeShape(shape)}, ${formatBytes(shape.bytes)} in ${seconds.toFixed(1)} s${rate}`,
  );
  await recent.remember(client.baseUrl, result);
  // A file opened from the server now names the table as the server answered (the next push defaults to it).
  if (csv.uri.scheme === 'file') services.platform.openedTables.pushed(csv.uri.fsPath, client.baseUrl, result, login);
  // The Tables view lists it.
  services.platform.catalog.reload();
  // The exact count (the text's, or the file's counted during the upload); never the sample's estimate.
  const exact = shape.exact ? shape : rows !== undefined ? { ...shape, rows, exact: true } : undefined;
  const pushed = exact ? describeShape(exact) : `${shape.columns.toLocaleString('en-US')} column${shape.columns === 1 ? '' : 's'}, ${formatBytes(shape.bytes)}`;
  announceCreated(`Pushed ${csv.what} as table ${result.name} (${pushed}).`, result);
  return result;
}

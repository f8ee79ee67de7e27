// The data view in the real host: a function's dataframe result and a table of the server open in it,
// and what its webview is sent (the extension's message protocol, read through the test API) follows
// sort, filter and summary requests. Several outputs are named after the function's signature.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CreationResult } from '../../src/api/types';
import type { DatagrokExtensionApi } from '../../src/extension';
import type { HostMessage } from '../../src/platform/dataView/protocol';
import { control, requireWorkspaceTrust, resetEmulator, signIn } from './support';

const EXTENSION_ID = 'datagrok-community.datagrok-vscode';

function run<T = unknown>(command: string, arg?: unknown): Promise<T> {
  return Promise.resolve(vscode.commands.executeCommand<T>(command, arg));
}

/** The error a command failed with (undefined when it succeeded). */
function failure(command: Promise<unknown>): Promise<Error | undefined> {
  return command.then(
    () => undefined,
    (error: unknown) => error as Error,
  );
}

type Of<T extends HostMessage['type']> = Extract<HostMessage, { type: T }>;

function only<T extends HostMessage['type']>(replies: HostMessage[], type: T): Of<T> {
  const found = replies.find((m) => m.type === type);
  assert.ok(found, `expected a "${type}" message, got ${JSON.stringify(replies).slice(0, 400)}`);
  return found as Of<T>;
}

async function until<T>(get: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = get();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The CSV text as rows of fields (the test's fixtures have no quoted fields). */
function table(csv: string): { header: string[]; rows: string[][] } {
  const [header, ...rows] = csv
    .trim()
    .split(/\r?\n/)
    .map((line) => line.split(','));
  return { header, rows };
}

describe('The data view', () => {
  let api: DatagrokExtensionApi;

  before(async function () {
    requireWorkspaceTrust(this, true);
    await resetEmulator();
    await signIn();
    api = await vscode.extensions.getExtension<DatagrokExtensionApi>(EXTENSION_ID)!.activate();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  /** The data view whose resource's path ends with `name` (a result's run ID rides in its query), once open; its meta message (the file read). */
  async function openView(name: string): Promise<{ uri: string; meta: Of<'meta'> }> {
    // The newest view of that name (each run's result has a view of its own).
    const uri = await until(
      () =>
        api.dataViews
          .list()
          .filter((v) => vscode.Uri.parse(v.uri).path.endsWith(name))
          .pop()?.uri,
      `a data view of ${name}`,
    );
    const meta = only(await api.dataViews.request(uri, { type: 'ready' }), 'meta');
    return { uri, meta };
  }

  /** The view's row count once the whole file is read (a table opens while it still downloads). */
  async function exactCount(uri: string): Promise<{ rows: number; exact: boolean }> {
    const end = Date.now() + 20_000;
    for (;;) {
      const { rowCount } = only(await api.dataViews.request(uri, { type: 'rows', start: 0, count: 1 }), 'rows');
      if (rowCount.exact || Date.now() > end) return rowCount;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('opens a dataframe result in the data view with its columns, types and row count', async () => {
    const csv = await run<string>('datagrok.functions.run', { function: 'Demo:Filter', params: { table: 'Demo:demog', column: 'AGE', min: 70 } });
    const expected = table(csv);
    const { meta } = await openView('Demo:Filter — result.csv');
    assert.deepEqual(
      meta.columns.map((c) => c.name),
      expected.header,
    );
    const type = (name: string) => meta.columns.find((c) => c.name === name)?.type;
    assert.equal(type('AGE'), 'int');
    assert.equal(type('HEIGHT'), 'double');
    assert.equal(type('SEX'), 'string');
    assert.equal(type('STARTED'), 'datetime');
    assert.deepEqual(meta.rowCount, { rows: expected.rows.length, exact: true });
    assert.deepEqual(meta.rows, expected.rows.slice(0, 200), 'the first rows come with the columns (the first screen asks for nothing)');
    assert.equal(
      vscode.window.tabGroups.activeTabGroup.tabs.some((t) => t.input instanceof vscode.TabInputCustom && t.input.viewType === 'datagrok.dataView'),
      true,
      'a data view tab is open',
    );
  });

  it('serves the rows sorted and filtered as asked, and summarizes a column', async () => {
    const csv = await run<string>('datagrok.functions.run', { function: 'Demo:Filter', params: { table: 'Demo:demog', column: 'AGE', min: 60 } });
    const expected = table(csv);
    const { uri, meta } = await openView('Demo:Filter — result.csv');
    const age = meta.columns.findIndex((c) => c.name === 'AGE');
    const sex = meta.columns.findIndex((c) => c.name === 'SEX');
    const ages = expected.rows.map((r) => Number(r[age]));

    const sorted = only(await api.dataViews.request(uri, { type: 'sort', sort: { column: age, descending: true } }), 'view');
    assert.equal(sorted.rowCount.rows, expected.rows.length);
    const top = only(await api.dataViews.request(uri, { type: 'rows', start: 0, count: 50 }), 'rows').rows.map((r) => Number(r[age]));
    assert.equal(top[0], Math.max(...ages));
    assert.deepEqual(
      top,
      [...top].sort((a, b) => b - a),
      'descending',
    );

    const women = expected.rows.filter((r) => r[sex] === 'F' && Number(r[age]) <= 65).length;
    const filtered = only(
      await api.dataViews.request(uri, {
        type: 'filter',
        filters: [
          { column: sex, kind: 'values', values: ['F'] },
          { column: age, kind: 'range', max: 65 },
        ],
      }),
      'view',
    );
    assert.equal(filtered.rowCount.rows, women);
    const served = only(await api.dataViews.request(uri, { type: 'rows', start: 0, count: 5000 }), 'rows').rows;
    assert.equal(served.length, women);
    assert.ok(served.every((r) => r[sex] === 'F' && Number(r[age]) <= 65));
    assert.deepEqual(
      served.map((r) => Number(r[age])),
      served.map((r) => Number(r[age])).sort((a, b) => b - a),
      'still sorted',
    );

    // Summaries and charts describe the rows the filters keep, and say so.
    const kept = expected.rows.filter((r) => r[sex] === 'F' && Number(r[age]) <= 65).map((r) => Number(r[age]));
    const summary = only(await api.dataViews.request(uri, { type: 'summary', column: age }), 'summary').summary;
    assert.deepEqual(summary.scope, { rows: women, of: expected.rows.length, filtered: true });
    assert.equal(summary.count, women);
    assert.equal(summary.min, Math.min(...kept));
    assert.equal(summary.max, Math.max(...kept));
    const chart = only(await api.dataViews.request(uri, { type: 'chart', kind: 'distribution', column: age }), 'chart').chart;
    assert.equal(chart.kind, 'histogram');
    assert.deepEqual(chart.scope, { rows: women, of: expected.rows.length, filtered: true });
    assert.equal(
      chart.y.reduce((a, b) => a + b, 0),
      women,
    );
    const sexes = only(await api.dataViews.request(uri, { type: 'summary', column: sex }), 'summary').summary;
    assert.deepEqual(
      sexes.top.map((t) => [t.value, t.count]),
      [['F', women]],
    );

    // Without the filters: every row again.
    only(await api.dataViews.request(uri, { type: 'filter', filters: [] }), 'view');
    const all = only(await api.dataViews.request(uri, { type: 'summary', column: age }), 'summary').summary;
    assert.deepEqual(all.scope, { rows: expected.rows.length, of: expected.rows.length, filtered: false });
    assert.equal(all.count, expected.rows.length);
    assert.equal(all.min, Math.min(...ages));
    assert.equal(all.max, Math.max(...ages));
    const allChart = only(await api.dataViews.request(uri, { type: 'chart', kind: 'distribution', column: age }), 'chart').chart;
    assert.equal(
      allChart.y.reduce((a, b) => a + b, 0),
      expected.rows.length,
    );
    assert.ok(
      api.dataViews
        .list()
        .find((v) => v.uri === uri)
        ?.sent.some((m) => m.type === 'progress'),
      'progress was sent while summarizing',
    );
  });

  it('names several outputs after the signature (min, max, mean, count)', async () => {
    await run('datagrok.functions.run', { function: 'Demo:ColumnStats', params: { column: 'Demo:demog/AGE' } });
    const document = await until(
      () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'datagrok-result' && path.posix.basename(d.uri.path) === 'Demo:ColumnStats — result'),
      'the result document',
    );
    assert.deepEqual(Object.keys(JSON.parse(document.getText())), ['min', 'max', 'mean', 'count']);
  });

  it('opens a table of the server under its name with Open Table (named for what it does), and Push as Table replaces that table', async () => {
    const contributed = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON.contributes.commands as { command: string; title: string }[];
    assert.equal(contributed.find((c) => c.command === 'datagrok.tables.open')?.title, 'Open Table');
    const uri = await run<vscode.Uri>('datagrok.tables.open', { name: 'Demo:demog' });
    assert.equal(path.basename(uri.fsPath), 'demog.csv');
    await api.dataViews.whenOpen(uri.toString());
    const view = api.dataViews.list().find((v) => v.uri === uri.toString());
    assert.equal(view?.title, 'Demo:demog');
    const meta = only(await api.dataViews.request(uri.toString(), { type: 'ready' }), 'meta');
    assert.equal(meta.title, 'Demo:demog');
    assert.deepEqual(await exactCount(uri.toString()), { rows: 5850, exact: true });
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(tab instanceof vscode.TabInputCustom && tab.viewType === 'datagrok.dataView', 'the data view, not a CSV text editor');

    const before = (await control<{ tables: { ID: string; name: string }[] }>('GET', 'state')).tables;
    const demog = before.find((t) => t.name === 'demog');
    const pushed = await run<CreationResult>('datagrok.tables.push', { uri });
    assert.equal(pushed.ID, demog?.ID, 'the same table, replaced');
    const after = (await control<{ tables: { ID: string }[] }>('GET', 'state')).tables;
    assert.equal(after.length, before.length, 'no new table');
  });

  it("keeps a table's server name after a reload: a file with its sidecar opens titled and pushes to that table", async () => {
    const uri = await run<vscode.Uri>('datagrok.tables.open', { name: 'Demo:demog' });
    await api.dataViews.whenOpen(uri.toString());
    await exactCount(uri.toString());
    const sidecar = path.join(path.dirname(uri.fsPath), '.demog.csv.datagrok-table.json');
    assert.equal(JSON.parse(fs.readFileSync(sidecar, 'utf8')).name, 'Demo:demog', 'the view wrote the table beside its file');
    // What a window reload leaves: the file and its sidecar, and no table in memory for that path.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-reloaded-'));
    const copy = path.join(folder, 'demog.csv');
    fs.copyFileSync(uri.fsPath, copy);
    fs.copyFileSync(sidecar, path.join(folder, '.demog.csv.datagrok-table.json'));
    const reopened = await run<vscode.Uri>('datagrok.dataView.open', { uri: copy });
    const meta = only(await api.dataViews.request(reopened.toString(), { type: 'ready' }), 'meta');
    assert.equal(meta.title, 'Demo:demog');
    assert.equal(api.dataViews.list().find((v) => v.uri === reopened.toString())?.title, 'Demo:demog');
    const before = (await control<{ tables: { ID: string; name: string }[] }>('GET', 'state')).tables;
    const pushed = await run<CreationResult>('datagrok.tables.push', { uri: reopened });
    assert.equal(pushed.ID, before.find((t) => t.name === 'demog')?.ID, 'Push as Table replaces the table it came from');
    assert.equal((await control<{ tables: unknown[] }>('GET', 'state')).tables.length, before.length, 'no new table');
  });

  it('opens the view of a table at once, before its first bytes, and shows its rows as they come', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until(() => (api.dataViews.list().some((v) => v.uri.endsWith('demog.csv')) ? undefined : true), 'the earlier view of demog.csv to close');
    await control('POST', 'faults', { match: '/public/v1/tables/Demo', stallAfterBytes: 0 }); // headers, then nothing until reset
    const outcome = failure(run<vscode.Uri>('datagrok.tables.open', { name: 'Demo:demog' }));
    const uri = await until(() => api.dataViews.list().find((v) => v.uri.endsWith('demog.csv'))?.uri, 'a data view of demog.csv before any byte arrived');
    assert.equal(fs.statSync(vscode.Uri.parse(uri).fsPath).size, 0, 'no byte has arrived yet');
    await control('POST', 'reset'); // drops the held answer: the client asks again (nothing was written) and gets the table
    assert.equal(await outcome, undefined, 'Open Table succeeds');
    assert.deepEqual(await exactCount(uri), { rows: 5850, exact: true }, 'the rows came into the view that was open before them');
    await signIn();
    // Not found: the view that got nothing is closed, and the error says why.
    const missing = await failure(run('datagrok.tables.open', { name: 'Demo:nosuchtable' }));
    assert.ok(missing instanceof Error && /nosuchtable/i.test(missing.message), `the error names the table: ${String(missing)}`);
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputCustom && t.input.uri.path.endsWith('nosuchtable.csv'));
    await until(() => (tabs().length === 0 && !api.dataViews.list().some((v) => v.uri.endsWith('nosuchtable.csv')) ? true : undefined), 'the empty view to close');
  });

  it('shows the first rows of a table while it downloads ("at least N"), and says so when the download stops', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until(() => (api.dataViews.list().some((v) => v.uri.endsWith('demog.csv')) ? undefined : true), 'the earlier view of demog.csv to close');
    // The server sends the first 200,000 bytes (about 2,400 of 5,850 rows), then holds the download open.
    await control('POST', 'faults', { match: '/public/v1/tables/Demo', stallAfterBytes: 200_000 });
    const outcome = failure(run<vscode.Uri>('datagrok.tables.open', { name: 'Demo:demog' }));
    const uri = await until(() => api.dataViews.list().find((v) => v.uri.endsWith('demog.csv'))?.uri, 'a data view of demog.csv while it downloads');
    const meta = only(await api.dataViews.request(uri, { type: 'ready' }), 'meta');
    assert.equal(meta.title, 'Demo:demog');
    assert.equal(meta.rowCount.exact, false, `at least N rows while the download goes on: ${JSON.stringify(meta.rowCount)}`);
    assert.ok(meta.rowCount.rows >= 1000 && meta.rowCount.rows < 5850, `rows known so far: ${meta.rowCount.rows}`);
    assert.ok(
      meta.columns.some((c) => c.name === 'AGE' && c.type === 'int'),
      'columns and types from the first rows',
    );
    assert.ok(meta.rows.length === 200 && meta.rows[0].length === meta.columns.length, 'the first rows come with the columns while the table downloads');
    const rows = only(await api.dataViews.request(uri, { type: 'rows', start: 0, count: 20 }), 'rows');
    assert.equal(rows.rows.length, 20);
    assert.equal(rows.rows[0].length, meta.columns.length);
    assert.equal(await Promise.race([outcome.then(() => 'settled'), new Promise((r) => setTimeout(() => r('pending'), 300))]), 'pending', 'the command waits for the download');

    await control('POST', 'reset'); // ends the held download
    const error = await outcome;
    assert.ok(error instanceof Error, 'Open Table fails when its download stops');
    await until(
      () =>
        api.dataViews
          .list()
          .find((v) => v.uri === uri)
          ?.sent.find((m) => m.type === 'error' && /download stopped/i.test(m.message)),
      'the view saying the download stopped',
    );
    await signIn();
  });
});

// One open data view: the worker that reads its file, the webview's requests answered through it, and
// the actions (Save As CSV, Push as Table, Open in Browser, Open as Text). Every message sent to the
// webview is also kept (the last SENT_KEPT), and `handle` returns the replies to one request, which is
// how the integration tests read the grid's data source.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { uiArguments } from '../core/commands';
import type { OpenedTable } from '../platform/tables/opened';
import type { DataViewAction, HostMessage, RowCount, WebviewMessage } from '../platform/dataView/protocol';
import { TableAnswers } from '../platform/dataView/tableAnswers';
import { readSidecar, writeSidecar } from '../platform/dataView/tableSidecar';
import { DataSourceClient } from '../platform/dataView/workerClient';
import { localFileOf } from './localFile';
import { saveTableAs } from '../ui/saveTableAs';

const SENT_KEPT = 200;

export class DataViewSession {
  readonly sent: HostMessage[] = [];
  private client: DataSourceClient | undefined;
  private localFile: string | undefined;
  private started: Promise<HostMessage> | undefined;
  /** Rows, sort, filter, summaries and charts, answered by the worker. */
  private readonly answers: TableAnswers;
  private rowCount: RowCount = { rows: 0, exact: false };
  private disposed = false;

  constructor(
    readonly uri: vscode.Uri,
    private readonly workerFile: string,
    private readonly table: () => OpenedTable | undefined,
    /** Tells the extension which table a file came from (read from its sidecar after a reload). */
    private readonly remember: (table: OpenedTable) => void,
    private readonly post: (message: HostMessage) => void,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.answers = new TableAnswers(
      () => this.title,
      (m) => this.send(m),
      (title, work) => vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, work),
    );
  }

  get title(): string {
    return this.table()?.name ?? path.posix.basename(this.uri.path);
  }

  private send(message: HostMessage): void {
    this.sent.push(message);
    if (this.sent.length > SENT_KEPT) this.sent.shift();
    this.post(message);
  }

  /** Opens the file in the worker (once; the view starts it as it opens, while its page loads) and returns the meta message. */
  start(): Promise<HostMessage> {
    this.started ??= (async () => {
      this.localFile = await localFileOf(this.uri);
      if (this.uri.scheme === 'file') {
        // A table of the server keeps its name across reloads in a file beside it.
        const known = this.table();
        if (known) await writeSidecar(this.localFile, known);
        else {
          const recalled = await readSidecar(this.localFile);
          if (recalled) this.remember(recalled);
        }
      }
      // Closed while the file was looked at (the reader starts as the view opens): no worker left behind.
      if (this.disposed) throw new Error('The data view was closed.');
      const client = new DataSourceClient(this.workerFile);
      this.client = client;
      client.onCount = (rowCount) => {
        this.rowCount = rowCount;
        this.send({ type: 'count', rowCount });
      };
      client.onError = (message) => this.send({ type: 'error', message: `Reading ${this.title} failed: ${message}` });
      // A table still downloading into its file: the grid reads what has arrived; the count grows.
      const download = this.table()?.download;
      void download
        ?.then(
          () => client.call('complete', []),
          (error: unknown) => client.call('complete', [`The download stopped: ${error instanceof Error ? error.message : String(error)}`]),
        )
        .catch(() => undefined);
      const { columns, rowCount, rows } = await client.call('open', [this.localFile, { growing: download !== undefined }]);
      this.rowCount = rowCount;
      const actions: DataViewAction[] = ['saveAs', 'push', 'text'];
      if (this.table()?.url) actions.push('browser');
      this.log.info(`Data view: ${this.uri.toString(true)} (${columns.length} columns)`);
      return { type: 'meta', title: this.title, columns, rowCount, actions, source: this.uri.toString(true), rows } as HostMessage;
    })();
    return this.started;
  }

  /** Answers a webview message; resolves with the messages sent in reply (requests may overlap: each has its own). */
  async handle(message: WebviewMessage): Promise<HostMessage[]> {
    const replies: HostMessage[] = [];
    const reply = (m: HostMessage) => {
      replies.push(m);
      this.send(m);
    };
    try {
      await this.answer(message, reply);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      if (!/aborted/i.test(text)) reply({ type: 'error', message: text });
    }
    return replies;
  }

  private async answer(m: WebviewMessage, reply: (message: HostMessage) => void): Promise<void> {
    if (m.type === 'ready') {
      reply(await this.start());
      return;
    }
    await this.start();
    if (await this.answers.answer(this.client as DataSourceClient, m, reply)) return;
    if (m.type === 'copy') await vscode.env.clipboard.writeText(m.text);
    else if (m.type === 'action') await this.act(m.action);
  }

  private async act(action: DataViewAction): Promise<void> {
    const table = this.table();
    if (action === 'text') {
      await vscode.commands.executeCommand('vscode.openWith', this.uri, 'default');
    } else if (action === 'browser') {
      if (table?.url) await vscode.env.openExternal(vscode.Uri.parse(table.url));
    } else if (action === 'push') {
      await vscode.commands.executeCommand('datagrok.tables.push', ...uiArguments(this.uri));
    } else {
      await saveTableAs(this.title, this.localFile as string, path.posix.basename(this.uri.path));
    }
  }

  /** The latest row count the worker reported. */
  get count(): RowCount {
    return this.rowCount;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.answers.cancel();
    await this.client?.dispose();
    if (this.uri.scheme !== 'file' && this.localFile) await fs.promises.rm(path.dirname(this.localFile), { recursive: true, force: true });
  }
}

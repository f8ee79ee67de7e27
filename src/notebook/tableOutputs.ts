// The notebook's table outputs: each dataframe a cell answers is a CSV file of this extension host
// (src/platform/notebook/outputFiles.ts); the table renderer (dist/notebookRenderer.js) asks for its rows,
// sort, filter, summaries and charts over renderer messaging, answered by a data view worker reading that
// file, opened when the output is first shown. A file goes when its output is replaced or cleared, when its
// notebook closes, and with the extension host; leftovers of a gone host at the next start. Every message
// sent to an output is also kept (the last SENT_KEPT), and `request` answers one as if the renderer sent it:
// how the integration tests read the grid's data source.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostMessage, RendererEnvelope, RowCount, WebviewMessage } from '../platform/dataView/protocol';
import { TableAnswers } from '../platform/dataView/tableAnswers';
import { DataSourceClient } from '../platform/dataView/workerClient';
import { OutputFiles } from '../platform/notebook/outputFiles';
import type { CellOutput } from '../platform/notebook/runCell';
import { saveTableAs } from '../ui/saveTableAs';
import { tableOutputId } from './outputs';

/** The renderer's id (package.json contributes.notebookRenderer). */
export const TABLE_RENDERER = 'datagrok-table';
const SENT_KEPT = 200;
const GONE = 'The rows of this table are no longer here (the window was reloaded, or its outputs were cleared): run the cell again to see them.';

/** The grid's Push as Table of an output: its notebook, its name and its file (which says which table it is). */
export type PushOutput = (output: { notebook: string; name: string; file: string }) => Promise<void>;

/** What the extension's test API shows of the notebooks' table outputs. */
export interface NotebookTablesApi {
  /** The table outputs known here: their id, notebook, name, file, and every message sent to their renderer so far. */
  list(): { id: string; notebook: string; name: string; file: string; sent: readonly HostMessage[] }[];
  /** Answers a message as if the output's renderer sent it; resolves with the messages sent in reply. */
  request(id: string, message: WebviewMessage): Promise<HostMessage[]>;
}

class TableOutput {
  readonly sent: HostMessage[] = [];
  /** Seen in its notebook's outputs (until then a change of the outputs does not remove it). */
  shown = false;
  private opening: Promise<DataSourceClient> | undefined;
  private client: DataSourceClient | undefined;
  private readonly answers: TableAnswers;

  constructor(
    readonly id: string,
    readonly file: string,
    readonly notebook: string,
    readonly name: string,
    private readonly workerFile: string,
    private readonly post: (message: HostMessage) => void,
    private readonly push: PushOutput,
  ) {
    this.answers = new TableAnswers(
      () => name,
      (m) => this.send(m),
      (title, work) => vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, work),
    );
  }

  send(message: HostMessage): void {
    this.sent.push(message);
    if (this.sent.length > SENT_KEPT) this.sent.shift();
    this.post(message);
  }

  /** The file's reader (a worker thread), started when the output is first shown or asked. */
  private open(): Promise<DataSourceClient> {
    this.opening ??= (async () => {
      const client = new DataSourceClient(this.workerFile);
      this.client = client;
      client.onCount = (rowCount: RowCount) => this.send({ type: 'count', rowCount });
      client.onError = (message) => this.send({ type: 'error', message: `Reading ${this.name} failed: ${message}` });
      await client.call('open', [this.file]);
      return client;
    })();
    return this.opening;
  }

  async handle(m: WebviewMessage): Promise<HostMessage[]> {
    const replies: HostMessage[] = [];
    const reply = (message: HostMessage) => {
      replies.push(message);
      this.send(message);
    };
    try {
      if (m.type === 'copy') await vscode.env.clipboard.writeText(m.text);
      else if (m.type === 'ready') {
        const client = await this.open();
        reply({ type: 'count', rowCount: await client.call('rowCount', []) });
      } else if (m.type === 'action') {
        // Save As CSV copies the file, which is this window's and goes with the output; Push as Table sends the
        // table to the server (once: a table a later cell took is there already).
        if (m.action === 'saveAs') await saveTableAs(this.name, this.file, this.name);
        else if (m.action === 'push') await this.push({ notebook: this.notebook, name: this.name, file: this.file });
      } else await this.answers.answer(await this.open(), m, reply);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      if (/ENOENT/.test(text)) reply({ type: 'error', message: GONE, gone: true });
      else if (!/aborted/i.test(text)) reply({ type: 'error', message: text });
    }
    return replies;
  }

  async dispose(files: OutputFiles): Promise<void> {
    this.answers.cancel();
    await this.client?.dispose();
    await files.remove(this.id);
  }
}

export class NotebookTables implements NotebookTablesApi, vscode.Disposable {
  private readonly files: OutputFiles;
  private readonly outputs = new Map<string, TableOutput>();
  private readonly messaging = vscode.notebooks.createRendererMessaging(TABLE_RENDERER);
  private readonly subscriptions: vscode.Disposable[];
  private readonly workerFile: string;

  /**
   * @param push the grid's Push as Table (it says its outcome, failures included, itself)
   */
  constructor(
    context: vscode.ExtensionContext,
    log: vscode.LogOutputChannel,
    private readonly push: PushOutput,
  ) {
    this.files = new OutputFiles(path.join(context.globalStorageUri.fsPath, 'notebook-outputs'));
    this.workerFile = vscode.Uri.joinPath(context.extensionUri, 'dist', 'dataViewWorker.js').fsPath;
    void this.files.sweep().then(
      (gone) => gone.length > 0 && log.info(`Notebook outputs: removed the files of ${gone.length} earlier window${gone.length === 1 ? '' : 's'}`),
      () => undefined,
    );
    this.subscriptions = [
      this.messaging.onDidReceiveMessage(({ message }) => {
        const { output, message: m } = message as RendererEnvelope<WebviewMessage>;
        if (typeof output === 'string') void this.request(output, m);
      }),
      vscode.workspace.onDidCloseNotebookDocument((n) => this.drop(n.uri.toString(), () => true)),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        if (e.cellChanges.some((c) => c.outputs !== undefined)) this.sync(e.notebook);
      }),
    ];
  }

  /** Where a cell's dataframes are written (CellContext.outputFiles). */
  get writer(): OutputFiles {
    return this.files;
  }

  /** Knows a cell's table output (its file is written): the renderer may ask for its rows from now on. */
  add(notebook: vscode.NotebookDocument, o: CellOutput): void {
    if (!o.id || !o.file) return;
    const id = o.id;
    const post = (message: HostMessage) => void this.messaging.postMessage({ output: id, message } satisfies RendererEnvelope<HostMessage>);
    this.outputs.set(id, new TableOutput(id, o.file, notebook.uri.toString(), o.name, this.workerFile, post, this.push));
  }

  /** The outputs no longer in their notebook (replaced by a new run, cleared) lose their files. */
  private sync(notebook: vscode.NotebookDocument): void {
    const present = new Set(notebook.getCells().flatMap((c) => c.outputs.flatMap((o) => tableOutputId(o) ?? [])));
    for (const o of this.outputs.values()) if (o.notebook === notebook.uri.toString() && present.has(o.id)) o.shown = true;
    this.drop(notebook.uri.toString(), (o) => o.shown && !present.has(o.id));
  }

  private drop(notebook: string, which: (o: TableOutput) => boolean): void {
    for (const o of [...this.outputs.values()]) {
      if (o.notebook !== notebook || !which(o)) continue;
      this.outputs.delete(o.id);
      void o.dispose(this.files).catch(() => undefined);
    }
  }

  list(): ReturnType<NotebookTablesApi['list']> {
    return [...this.outputs.values()].map((o) => ({ id: o.id, notebook: o.notebook, name: o.name, file: o.file, sent: o.sent }));
  }

  async request(id: string, message: WebviewMessage): Promise<HostMessage[]> {
    const output = this.outputs.get(id);
    if (output) return output.handle(message);
    const gone: HostMessage = { type: 'error', message: GONE, gone: true };
    void this.messaging.postMessage({ output: id, message: gone } satisfies RendererEnvelope<HostMessage>);
    return [gone];
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    for (const o of this.outputs.values()) void o.dispose(this.files).catch(() => undefined);
    this.outputs.clear();
    this.files.dispose();
  }
}

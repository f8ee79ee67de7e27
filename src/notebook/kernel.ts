// The notebook's kernels: one controller per server the user signed in to ("Datagrok: <server>"). A run
// takes the cells one after another (Run Cell, Run All, Run Above/Below are VS Code's, through this
// handler); each gets its execution order and times; Interrupt abandons the server call under way (its
// temporary script is still deleted) and the cells still queued.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { normalizeBaseUrl, hostOf } from '../api/names';
import { DatagrokError } from '../api/errors';
import { parseParameterFile } from '../core/parameterFile';
import { type CallCell, cellKind, parseCallCell, CellSyntaxError } from '../platform/notebook/cells';
import { NOTEBOOK_TYPE } from '../platform/notebook/format';
import { CellFailure, runCell, variablesOf } from '../platform/notebook/runCell';
import type { Services } from '../services';
import { cellOutput, errorOutput } from './outputs';
import type { NotebookSessions } from './session';
import type { NotebookTables } from './tableOutputs';

export const CELL_LANGUAGES = ['python', 'r', 'javascript', 'julia', 'octave', 'sql', 'datagrok-call', 'json', 'jsonc'];

export interface CellResult {
  index: number;
  kind: string;
  outcome: 'succeeded' | 'failed' | 'skipped';
  outputs: { name: string; type: string; value?: unknown; table?: string }[];
  ms: number;
  /** Why it failed (failed) or was not run (skipped). */
  message?: string;
}

/** A function-call cell's call: its `Pkg:Func(…)` text, or a parameter-file object. */
export function callOf(cell: vscode.NotebookCell): CallCell | undefined {
  const text = cell.document.getText();
  if (cellKind(cell.document.languageId) !== 'call') return undefined;
  if (cell.document.languageId === 'datagrok-call') return parseCallCell(text);
  const file = parseParameterFile(text, `cell ${cell.index + 1}`);
  if (!file.functionName) throw new CellSyntaxError('The parameter object names no function: add "$function": "Package:Name".', 0);
  return { function: file.functionName, args: Object.fromEntries(Object.entries(file.params).map(([k, value]) => [k, { value }])) };
}

const cancelled = (e: unknown) => e instanceof DatagrokError && e.kind === 'cancelled';

export class NotebookKernels implements vscode.Disposable {
  private readonly controllers = new Map<string, vscode.NotebookController>();
  /** The server each notebook's selected controller runs on, by notebook URI. */
  private readonly selected = new Map<string, string>();
  private readonly selections = new vscode.EventEmitter<void>();
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('datagrok-notebook');

  constructor(
    private readonly services: Services,
    private readonly sessions: NotebookSessions,
    private readonly tables: NotebookTables,
  ) {
    this.update();
    services.context.subscriptions.push(services.connection.onDidChange(() => this.update()));
  }

  /** A controller for every server the user signed in to, and the active one. */
  private update(): void {
    const urls = new Set(this.services.connection.knownServers().map((u) => normalizeBaseUrl(u)));
    try {
      urls.add(this.services.connection.baseUrl());
    } catch {
      // A bad server setting: the known servers still get their controllers.
    }
    for (const url of urls) if (!this.controllers.has(url)) this.controllers.set(url, this.make(url));
  }

  private make(url: string): vscode.NotebookController {
    const id = `datagrok-${createHash('sha256').update(url).digest('hex').slice(0, 12)}`;
    const controller = vscode.notebooks.createNotebookController(id, NOTEBOOK_TYPE, `Datagrok: ${hostOf(url)}`, async (cells, notebook) => {
      await this.execute(url, controller, cells, notebook);
    });
    controller.description = url;
    controller.supportedLanguages = CELL_LANGUAGES;
    controller.supportsExecutionOrder = true;
    controller.interruptHandler = (notebook) => {
      const session = this.sessions.peek(notebook);
      this.services.log.info(`Notebook ${path.posix.basename(notebook.uri.path)}: interrupted${session?.running ? ', the server call abandoned' : ''}`);
      if (!session) return;
      session.interrupted = true;
      session.running?.abort();
    };
    controller.onDidChangeSelectedNotebooks(({ notebook, selected }) => {
      if (selected) this.selected.set(notebook.uri.toString(), url);
      else if (this.selected.get(notebook.uri.toString()) === url) this.selected.delete(notebook.uri.toString());
      this.selections.fire();
    });
    return controller;
  }

  /** The controller of the active server (made now if the server is new). */
  activeController(): { controller: vscode.NotebookController; url: string } {
    const url = this.services.connection.baseUrl();
    this.update();
    const controller = this.controllers.get(url);
    if (!controller) throw new Error(`Datagrok: no notebook kernel for ${url}.`);
    return { controller, url };
  }

  /** The server a notebook runs on: its selected kernel's, else the active one. */
  serverOf(notebook: vscode.NotebookDocument): string {
    return this.selected.get(notebook.uri.toString()) ?? this.services.connection.baseUrl();
  }

  /** What the notebook's tables are named on the server: `Notebook_<file name>_<variable>`. */
  static tablePrefix(notebook: vscode.NotebookDocument): string {
    return `Notebook_${path.posix
      .basename(notebook.uri.path)
      .replace(/\.[^.]*$/, '')
      .replace(/[^\w-]+/g, '_')}_`;
  }

  /** Selects the active server's kernel for a notebook shown in an editor, and waits until VS Code says so. */
  async select(notebook: vscode.NotebookDocument, editor: vscode.NotebookEditor): Promise<{ controller: vscode.NotebookController; url: string }> {
    const { controller, url } = this.activeController();
    if (this.selected.get(notebook.uri.toString()) === url) return { controller, url };
    const chosen = new Promise<void>((resolve) => {
      const listener = this.selections.event(() => {
        if (this.selected.get(notebook.uri.toString()) !== url) return;
        listener.dispose();
        resolve();
      });
    });
    const ext = this.services.context.extension.id;
    await vscode.commands.executeCommand('notebook.selectKernel', { notebookEditor: editor, id: controller.id, extension: ext });
    await Promise.race([chosen, new Promise((r) => setTimeout(r, 10_000))]);
    if (this.selected.get(notebook.uri.toString()) !== url) throw new Error(`The notebook's kernel could not be set to Datagrok: ${hostOf(url)}; pick it with "Select Kernel".`);
    return { controller, url };
  }

  /** Runs cells in order (after any run of this notebook under way); a failed cell skips the rest. */
  execute(url: string, controller: vscode.NotebookController, cells: vscode.NotebookCell[], notebook: vscode.NotebookDocument): Promise<CellResult[]> {
    const session = this.sessions.of(notebook);
    const run = session.queue.then(async () => {
      session.interrupted = false;
      const results: CellResult[] = [];
      let stop: string | undefined;
      for (const cell of cells) {
        const kind = cell.kind === vscode.NotebookCellKind.Markup ? 'markdown' : cellKind(cell.document.languageId);
        if (kind === 'markdown' || stop || session.interrupted) {
          results.push({ index: cell.index, kind, outcome: 'skipped', outputs: [], ms: 0, ...(kind === 'markdown' ? {} : { message: stop ?? 'Interrupted.' }) });
          continue;
        }
        const result = await this.runOne(url, controller, notebook, cell, kind);
        results.push(result);
        if (result.outcome === 'failed') stop = `Not run: cell ${cell.index + 1} failed.`;
      }
      // A table a later cell took is on the server by now: its reference is part of the result.
      for (const r of results)
        for (const o of r.outputs) {
          const v = session.variables.get(o.name);
          if (o.type === 'dataframe' && v?.cell === r.index && v.table) o.table = v.table;
        }
      return results;
    });
    session.queue = run.catch(() => undefined);
    return run;
  }

  private async runOne(url: string, controller: vscode.NotebookController, notebook: vscode.NotebookDocument, cell: vscode.NotebookCell, kind: string): Promise<CellResult> {
    const session = this.sessions.of(notebook);
    const execution = controller.createNotebookCellExecution(cell);
    execution.executionOrder = ++session.order;
    const abort = new AbortController();
    session.running = abort;
    const started = Date.now();
    execution.start(started);
    await execution.clearOutput();
    this.diagnostics.delete(cell.document.uri);
    try {
      const api = await this.services.connection.clientFor(url);
      const call = callOf(cell);
      session.variables.forgetCell(cell.index);
      const ran = await runCell(
        {
          api,
          variables: session.variables,
          signal: abort.signal,
          tablePrefix: NotebookKernels.tablePrefix(notebook),
          signatures: session.signatures,
          outputFiles: this.tables.writer,
          leftBehind: (name, e) => {
            const message = `The temporary script ${name} could not be deleted from the server (${e instanceof Error ? e.message : String(e)}): delete it in Datagrok.`;
            this.services.log.warn(message);
            void vscode.window.showWarningMessage(message);
          },
        },
        { index: cell.index, language: cell.document.languageId, text: cell.document.getText(), call },
      );
      const made = variablesOf(cell.index, ran);
      for (const v of made) session.variables.set(v);
      for (const o of ran.outputs) this.tables.add(notebook, o);
      await execution.replaceOutput(ran.outputs.map((o) => cellOutput(o)));
      session.ran(notebook, cell, { reads: ran.reads, writes: made.map((v) => v.name) });
      execution.end(true, Date.now());
      return {
        index: cell.index,
        kind,
        outcome: 'succeeded',
        outputs: ran.outputs.map(({ name, type, value }) => ({ name, type, ...(type === 'dataframe' ? {} : { value }) })),
        ms: Date.now() - started,
      };
    } catch (e) {
      const message = cancelled(e) ? 'Cancelled: the server call was abandoned.' : e instanceof Error ? e.message : String(e);
      const line = e instanceof CellFailure ? e.line : e instanceof CellSyntaxError ? e.line + 1 : undefined;
      if (line !== undefined && line >= 1 && line <= cell.document.lineCount) {
        const d = new vscode.Diagnostic(cell.document.lineAt(line - 1).range, message, vscode.DiagnosticSeverity.Error);
        d.source = 'Datagrok';
        this.diagnostics.set(cell.document.uri, [d]);
      }
      await execution.replaceOutput([errorOutput(line !== undefined && !message.startsWith('Line ') ? `Line ${line}: ${message}` : message)]);
      execution.end(false, Date.now());
      return { index: cell.index, kind, outcome: 'failed', outputs: [], ms: Date.now() - started, message };
    } finally {
      if (session.running === abort) session.running = undefined;
    }
  }

  dispose(): void {
    for (const c of this.controllers.values()) c.dispose();
    this.selections.dispose();
    this.diagnostics.dispose();
  }
}

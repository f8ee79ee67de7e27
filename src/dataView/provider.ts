// The data view as a custom editor (viewType datagrok.dataView): a read-only editor of CSV files, function
// results and tables of the server. Each editor has a session (session.ts) with a worker thread reading
// its file; the open sessions are listed for the integration tests (DataViews.request).
import * as vscode from 'vscode';
import type { HostMessage, WebviewMessage } from '../platform/dataView/protocol';
import type { OpenedTables } from '../platform/tables/opened';
import { dataViewHtml } from './html';
import { DataViewSession } from './session';

export const DATA_VIEW = 'datagrok.dataView';

/** What the extension's test API shows of the open data views. */
export interface DataViewsApi {
  /** The open data views: their resource, title, and every message sent to their webview so far. */
  list(): { uri: string; title: string; sent: readonly HostMessage[] }[];
  /** Answers a message as if the view's webview sent it; resolves with the messages sent in reply. */
  request(uri: string, message: WebviewMessage): Promise<HostMessage[]>;
  /** Resolves when a data view of `uri` is open (rejects after `timeoutMs`). */
  whenOpen(uri: string, timeoutMs?: number): Promise<void>;
}

export class DataViews implements vscode.CustomReadonlyEditorProvider, DataViewsApi {
  private readonly sessions = new Map<string, DataViewSession>();
  private readonly opened = new vscode.EventEmitter<string>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly tables: OpenedTables,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): void {
    const { uri } = document;
    const webview = panel.webview;
    webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist')] };
    const workerFile = vscode.Uri.joinPath(this.extensionUri, 'dist', 'dataViewWorker.js').fsPath;
    const session = new DataViewSession(
      uri,
      workerFile,
      () => (uri.scheme === 'file' ? this.tables.get(uri.fsPath) : undefined),
      (table) => this.tables.remember(uri.fsPath, table),
      (m) => void webview.postMessage(m),
      this.log,
    );
    const key = uri.toString();
    this.sessions.get(key)?.dispose();
    this.sessions.set(key, session);
    const listening = webview.onDidReceiveMessage((m: WebviewMessage) => void session.handle(m));
    webview.html = dataViewHtml(webview, this.extensionUri);
    // The worker reads the first rows while the page loads (its "ready" gets them with the columns); a failure is told then.
    session.start().catch(() => undefined);
    panel.onDidDispose(() => {
      listening.dispose();
      if (this.sessions.get(key) === session) this.sessions.delete(key);
      void session.dispose();
    });
    this.opened.fire(key);
  }

  list(): { uri: string; title: string; sent: readonly HostMessage[] }[] {
    return [...this.sessions].map(([uri, s]) => ({ uri, title: s.title, sent: s.sent }));
  }

  request(uri: string, message: WebviewMessage): Promise<HostMessage[]> {
    const session = this.sessions.get(uri);
    if (!session) return Promise.reject(new Error(`No data view of ${uri} is open (open: ${[...this.sessions.keys()].join(', ') || 'none'}).`));
    return session.handle(message);
  }

  whenOpen(uri: string, timeoutMs = 10_000): Promise<void> {
    if (this.sessions.has(uri)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        listener.dispose();
        reject(new Error(`No data view of ${uri} opened within ${timeoutMs} ms.`));
      }, timeoutMs);
      const listener = this.opened.event((key) => {
        if (key !== uri) return;
        clearTimeout(timer);
        listener.dispose();
        resolve();
      });
    });
  }

  dispose(): void {
    for (const s of this.sessions.values()) void s.dispose();
    this.sessions.clear();
    this.opened.dispose();
  }
}

/** Opens a resource in the data view (beside another editor or in the active group). */
export async function showInDataView(uri: vscode.Uri, options: { viewColumn?: vscode.ViewColumn; preserveFocus?: boolean } = {}): Promise<void> {
  await vscode.commands.executeCommand('vscode.openWith', uri, DATA_VIEW, { preview: false, ...options });
}

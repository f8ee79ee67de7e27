// The data view's messages: between the webview and the extension (what the grid asks, what it is sent),
// and between the extension and the worker thread that reads the file. Types only. The webview's script
// imports these types too, so they stay free of Node and vscode.
import type { ColumnType } from './columnTypes';
import type { ChartData, ColumnInfo, ColumnSummary, Filter, RowCount, RowScope, SortSpec } from './types';

export type { ChartData, ColumnInfo, ColumnSummary, ColumnType, Filter, RowCount, RowScope, SortSpec };

export type DataViewAction = 'saveAs' | 'push' | 'browser' | 'text';

/** What the webview asks. */
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'rows'; start: number; count: number; tag?: number }
  | { type: 'sort'; sort?: SortSpec }
  | { type: 'filter'; filters: Filter[] }
  | { type: 'summary'; column: number }
  | { type: 'chart'; kind: 'distribution'; column: number }
  | { type: 'chart'; kind: 'scatter'; x: number; y: number }
  | { type: 'cancel' }
  | { type: 'copy'; text: string }
  | { type: 'action'; action: DataViewAction };

/** What the extension sends the webview. */
export type HostMessage =
  | { type: 'meta'; title: string; columns: ColumnInfo[]; rowCount: RowCount; actions: DataViewAction[]; source: string; rows: string[][] }
  | { type: 'count'; rowCount: RowCount }
  | { type: 'rows'; start: number; rows: string[][]; rowCount: RowCount; tag?: number }
  | { type: 'view'; rowCount: RowCount; sort?: SortSpec; filters: Filter[] }
  | { type: 'summary'; summary: ColumnSummary }
  | { type: 'chart'; chart: ChartData }
  | { type: 'progress'; task: string; fraction?: number; done?: boolean }
  /** `gone`: the rows are not there any more (a notebook output after a reload): the page says so instead of the grid. */
  | { type: 'error'; message: string; gone?: boolean };

/** A notebook's table output item (mime type NOTEBOOK_TABLE_MIME): the reference to its rows, never the rows past the first screen. */
export interface NotebookTableItem {
  /** The output's id: its file, known to the extension host that ran the cell. */
  id: string;
  name: string;
  rows: number;
  columns: ColumnInfo[];
  /** The first rows (the grid's first screen), or none when they were too big to carry. */
  first: string[][];
}

export const NOTEBOOK_TABLE_MIME = 'application/vnd.datagrok.table+json';

/** Between the notebook's table renderer and the extension (renderer messaging): a grid's message, by output id. */
export interface RendererEnvelope<M> {
  output: string;
  message: M;
}

/** The worker's methods (src/platform/dataView/worker.ts), their arguments and results. */
export interface WorkerMethods {
  /** The columns and the first rows (the grid's first screen). */
  open(path: string, options?: { growing?: boolean }): { columns: ColumnInfo[]; rowCount: RowCount; rows: string[][] };
  /** The growing file is whole (or failed with this message). */
  complete(error?: string): void;
  rowCount(): RowCount;
  rows(start: number, count: number): string[][];
  sort(sort: SortSpec | undefined): RowCount;
  filter(filters: Filter[]): RowCount;
  summary(column: number): ColumnSummary;
  distribution(column: number): ChartData;
  scatter(x: number, y: number): ChartData;
}

export type WorkerRequest =
  | { [M in keyof WorkerMethods]: { id: number; method: M; args: Parameters<WorkerMethods[M]> } }[keyof WorkerMethods]
  | { id: number; method: 'cancel'; args: [number] };

export type WorkerReply =
  | { id: number; result: unknown }
  | { id: number; error: string }
  | { id: number; progress: number }
  | { event: 'count'; rowCount: RowCount }
  | { event: 'error'; message: string };

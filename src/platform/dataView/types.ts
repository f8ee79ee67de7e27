// The data view's data types, shared by its source, the worker's protocol and the webview. Types only.
import type { ColumnType } from './columnTypes';

export interface ColumnInfo {
  name: string;
  type: ColumnType;
}

export type Filter =
  | { column: number; kind: 'text'; text: string }
  | { column: number; kind: 'range'; min?: number; max?: number }
  | { column: number; kind: 'values'; values: string[] };

export interface SortSpec {
  column: number;
  descending?: boolean;
}

/** Fraction done (0..1) of a long request. */
export type OnProgress = (fraction: number) => void;

export interface RowCount {
  rows: number;
  /** False while the file is still being read: there are at least `rows`. */
  exact: boolean;
}

/** Which rows a summary or chart describes: `rows` of the table's `of`, fewer when a filter is on. */
export interface RowScope {
  rows: number;
  of: number;
  filtered: boolean;
}

export interface ChartData {
  kind: 'histogram' | 'bar' | 'scatter';
  columns: string[];
  /** histogram: bin lower edges and counts; bar: values and counts; scatter: x and y. */
  x: number[] | string[];
  y: number[];
  /** Points drawn from a sample of this many rows (undefined when all rows were used). */
  sampledFrom?: number;
  /** Rows the chart describes. */
  total: number;
  /** The rows it describes: all, or those the filters keep. */
  scope: RowScope;
}

export interface ColumnSummary {
  column: string;
  type: ColumnType;
  /** Non-missing values. */
  count: number;
  missing: number;
  distinct: number;
  distinctApproximate: boolean;
  min?: number;
  max?: number;
  mean?: number;
  /** The most frequent values, most first. */
  top: { value: string; count: number }[];
  /** The rows it describes: all, or those the filters keep. */
  scope: RowScope;
}

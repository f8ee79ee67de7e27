// What a cell's outputs look like in the notebook: a table as the data view's grid (the table renderer,
// reading its rows on demand from the output's file; the notebook holds only the first screen), a scalar labelled with its output name, a plot as an image, an error with the cell's
// line. Each output carries its saved form (src/platform/notebook/format.ts) in its metadata.
import * as vscode from 'vscode';
import type { SavedOutput } from '../platform/notebook/format';
import type { CellOutput } from '../platform/notebook/runCell';
import { NOTEBOOK_TABLE_MIME, type NotebookTableItem } from '../platform/dataView/protocol';

const shapeOf = (o: { rows?: number; columns?: number }) =>
  `${(o.rows ?? 0).toLocaleString('en-US')} row${o.rows === 1 ? '' : 's'} × ${o.columns ?? 0} column${o.columns === 1 ? '' : 's'}`;

/** The output item the table renderer draws: the output's id (its file), the shape, the columns and the first rows. */
function tableItem(o: CellOutput): vscode.NotebookCellOutputItem | undefined {
  if (!o.id || !o.head) return undefined;
  const item: NotebookTableItem = { id: o.id, name: o.name, rows: o.head.rows, columns: o.head.columns, first: o.head.first };
  return vscode.NotebookCellOutputItem.json(item, NOTEBOOK_TABLE_MIME);
}

/** The output id of a table output (its file), if it is one. */
export function tableOutputId(output: vscode.NotebookCellOutput): string | undefined {
  const id = (output.metadata as { datagrokOutput?: unknown } | undefined)?.datagrokOutput;
  return typeof id === 'string' ? id : undefined;
}

function scalarText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

const looksLikePng = (v: unknown): v is string => typeof v === 'string' && /^(data:image\/png;base64,)?iVBORw0KGgo/.test(v);

/** The saved form of an output: a table's reference and shape, never its rows; a plot is not saved. */
function savedFormOf(o: CellOutput, table?: string): SavedOutput | undefined {
  if (o.type === 'dataframe') return { name: o.name, type: o.type, rows: o.rows, columns: o.columns, ...(table ? { table } : {}) };
  if (looksLikePng(o.value)) return undefined;
  return { name: o.name, type: o.type, value: o.value };
}

/** One output of a cell's run. */
export function cellOutput(o: CellOutput, table?: string): vscode.NotebookCellOutput {
  const saved = savedFormOf(o, table);
  const metadata = saved ? { datagrok: saved } : undefined;
  if (o.type === 'dataframe') {
    const item = tableItem(o);
    const text = vscode.NotebookCellOutputItem.text(`${o.name}: dataframe, ${shapeOf(o)}`, 'text/plain');
    // The id stays out of the saved form (`datagrok`): a file of this extension host only.
    return new vscode.NotebookCellOutput(item ? [item, text] : [text], { ...metadata, ...(o.id ? { datagrokOutput: o.id } : {}) });
  }
  if (looksLikePng(o.value)) {
    const bytes = Buffer.from(o.value.replace(/^data:image\/png;base64,/, ''), 'base64');
    return new vscode.NotebookCellOutput([new vscode.NotebookCellOutputItem(bytes, 'image/png')]);
  }
  return new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.text(`${o.name} (${o.type}) = ${scalarText(o.value)}`, 'text/plain')], metadata);
}

/** An output read back from the file: a table by its reference (its rows are on the server). */
export function savedOutput(s: SavedOutput): vscode.NotebookCellOutput {
  const text =
    s.type === 'dataframe'
      ? `${s.name}: dataframe, ${shapeOf(s)}${s.table ? ` (on the server: table ${s.table})` : ''}; run the cell to see its rows`
      : s.type === 'error'
        ? `Error: ${String(s.value)}`
        : `${s.name} (${s.type}) = ${scalarText(s.value)}`;
  return new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.text(text, 'text/plain')], { datagrok: s });
}

/** A cell's failure: the message (with the cell's line when the server named one). */
export function errorOutput(message: string): vscode.NotebookCellOutput {
  const error = new Error(message);
  error.name = 'Datagrok';
  error.stack = '';
  return new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.error(error)], { datagrok: { name: 'error', type: 'error', value: message } satisfies SavedOutput });
}

/** The saved form an output carries, if any. */
export function savedOf(output: vscode.NotebookCellOutput): SavedOutput | undefined {
  const saved = (output.metadata as { datagrok?: SavedOutput } | undefined)?.datagrok;
  return saved && typeof saved.name === 'string' && typeof saved.type === 'string' ? saved : undefined;
}

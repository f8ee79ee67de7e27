// What a cell's outputs look like in the notebook: a table as its shape and its first rows (the rows stay
// out of the file), a scalar labelled with its output name, a plot as an image, an error with the cell's
// line. Each output carries its saved form (src/platform/notebook/format.ts) in its metadata.
import * as vscode from 'vscode';
import type { SavedOutput } from '../platform/notebook/format';
import type { CellOutput } from '../platform/notebook/runCell';
import { papaparse } from '../platform/lazyModules';

/** How many of a table's rows the notebook shows under the cell. */
export const PREVIEW_ROWS = 20;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const shapeOf = (o: { rows?: number; columns?: number }) =>
  `${(o.rows ?? 0).toLocaleString('en-US')} row${o.rows === 1 ? '' : 's'} × ${o.columns ?? 0} column${o.columns === 1 ? '' : 's'}`;

function previewHtml(o: CellOutput): string {
  const parsed = papaparse().parse<string[]>(o.csv ?? '', { preview: PREVIEW_ROWS + 1, skipEmptyLines: true });
  const [header = [], ...rows] = parsed.data;
  const head = `<tr>${header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`;
  const body = rows.map((r) => `<tr>${r.map((v) => `<td>${escapeHtml(v)}</td>`).join('')}</tr>`).join('');
  const more = (o.rows ?? 0) > rows.length ? `<div>… ${((o.rows ?? 0) - rows.length).toLocaleString('en-US')} more rows</div>` : '';
  return `<div><b>${escapeHtml(o.name)}</b>: dataframe, ${shapeOf(o)}</div><table>${head}${body}</table>${more}`;
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
    return new vscode.NotebookCellOutput(
      [vscode.NotebookCellOutputItem.text(previewHtml(o), 'text/html'), vscode.NotebookCellOutputItem.text(`${o.name}: dataframe, ${shapeOf(o)}`, 'text/plain')],
      metadata,
    );
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

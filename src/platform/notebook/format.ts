// The Datagrok notebook file (*.dgnb): plain text that reads and diffs like the cells it holds. No vscode.
//
//   %% datagrok-notebook {"saveOutputs":false}
//
//   %% markdown
//   # Orders by country
//
//   %% sql
//   --connection: Demo:Northwind
//   --output: dataframe orders
//   select * from orders
//
//   %% output {"name":"orders","type":"dataframe","table":"1f3c…","rows":830,"columns":14}
//
// The first line marks the file and carries the notebook's settings as one JSON object. Each cell starts
// with a line `%% <language>` (a blank line before it), followed by its text exactly as written: a
// one-line edit in a cell is a one-line change in the file. A cell's text line that itself starts with
// `%%` is written with one more `%` (and read back without it). Outputs are written only when the notebook
// says `saveOutputs`, each as one `%% output {json}` line after its cell: a scalar's value, a table's
// server reference and shape, an error's message; never a table's rows, never an image.

export const NOTEBOOK_TYPE = 'datagrok-notebook';
const MAGIC = `%% ${NOTEBOOK_TYPE}`;
const MARKER = /^%% ([A-Za-z][\w.+-]*)(?: (.*))?$/;

export interface NotebookSettings {
  /** Write the outputs into the file (default: no; outputs are the server's answers of one session). */
  saveOutputs?: boolean;
}

/** An output as the file keeps it. */
export interface SavedOutput {
  name: string;
  /** dataframe, int, double, string, bool, datetime, graphics, error… */
  type: string;
  /** A scalar's value or an error's message. */
  value?: unknown;
  /** A dataframe's table on the server (id or name). */
  table?: string;
  rows?: number;
  columns?: number;
}

export interface NotebookCellText {
  /** markdown, sql, python, r, javascript, julia, octave, datagrok-call, jsonc… */
  language: string;
  text: string;
  outputs?: SavedOutput[];
}

export interface NotebookText {
  settings: NotebookSettings;
  cells: NotebookCellText[];
}

export class NotebookFormatError extends Error {
  constructor(
    message: string,
    /** The line of the file (1-based) the error is on. */
    readonly line: number,
  ) {
    super(`Line ${line}: ${message}`);
  }
}

const escapeLine = (line: string) => (line.startsWith('%%') ? `%${line}` : line);
const unescapeLine = (line: string) => (line.startsWith('%%%') ? line.slice(1) : line);

function savedOutput(json: string | undefined, line: number): SavedOutput {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json ?? '');
  } catch {
    throw new NotebookFormatError('an output line needs one JSON object after "%% output", such as {"name":"count","type":"int","value":3}.', line);
  }
  const o = parsed as Partial<SavedOutput> | null;
  if (!o || typeof o !== 'object' || Array.isArray(o) || typeof o.name !== 'string' || typeof o.type !== 'string')
    throw new NotebookFormatError('an output needs a "name" and a "type" (text).', line);
  return o as SavedOutput;
}

/** The notebook a file's text holds; a text that is not one throws a NotebookFormatError naming the line. */
export function parseNotebook(content: string): NotebookText {
  if (content.trim() === '') return { settings: {}, cells: [] };
  const lines = content.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  const first = MARKER.exec(lines[0] ?? '');
  if (!first || `%% ${first[1]}` !== MAGIC)
    throw new NotebookFormatError(`a Datagrok notebook starts with "${MAGIC}" (this file starts with "${(lines[0] ?? '').slice(0, 40)}").`, 1);
  let settings: NotebookSettings = {};
  if (first[2]?.trim()) {
    try {
      settings = JSON.parse(first[2]) as NotebookSettings;
    } catch {
      throw new NotebookFormatError(`the notebook's settings after "${MAGIC}" are not one JSON object.`, 1);
    }
    if (!settings || typeof settings !== 'object' || Array.isArray(settings)) throw new NotebookFormatError('the notebook settings must be a JSON object.', 1);
  }
  const cells: NotebookCellText[] = [];
  let body: string[] | undefined;
  const close = () => {
    if (!body || cells.length === 0) return;
    // The blank line written before the next marker is not the cell's.
    if (body.length > 0 && body[body.length - 1] === '') body.pop();
    cells[cells.length - 1].text = body.map(unescapeLine).join('\n');
    body = undefined;
  };
  for (let i = 1; i < lines.length; i++) {
    const marker = MARKER.exec(lines[i]);
    if (!marker) {
      if (body) body.push(lines[i]);
      else if (lines[i].trim() !== '') throw new NotebookFormatError(`text outside a cell: start a cell with a line such as "%% python".`, i + 1);
      continue;
    }
    close();
    if (marker[1] === 'output') {
      const cell = cells[cells.length - 1];
      if (!cell) throw new NotebookFormatError('an output line before any cell.', i + 1);
      cell.outputs = [...(cell.outputs ?? []), savedOutput(marker[2], i + 1)];
      continue;
    }
    cells.push({ language: marker[1], text: '' });
    body = [];
  }
  // The last cell has no blank line after it: its text runs to the end of the file.
  if (body && cells.length > 0) cells[cells.length - 1].text = body.map(unescapeLine).join('\n');
  return { settings, cells };
}

/** The file's text of a notebook: outputs only when its settings say `saveOutputs`. */
export function serializeNotebook(notebook: NotebookText): string {
  const settings = Object.keys(notebook.settings).length > 0 ? ` ${JSON.stringify(notebook.settings)}` : '';
  const out = [`${MAGIC}${settings}`];
  for (const cell of notebook.cells) {
    out.push('', `%% ${cell.language}`, ...cell.text.split('\n').map(escapeLine));
    const outputs = notebook.settings.saveOutputs ? (cell.outputs ?? []) : [];
    // The cell's text ends before the blank line that precedes what follows.
    if (outputs.length > 0) out.push('', ...outputs.map((o) => `%% output ${JSON.stringify(o)}`));
  }
  return `${out.join('\n')}\n`;
}

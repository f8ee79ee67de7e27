// A Datagrok notebook as a Jupyter notebook (nbformat 4.5) in Python. No vscode.
//
// Markdown stays Markdown. A Python cell runs in Jupyter as written: its inputs are the variables the cells
// above made (a table as a pandas DataFrame). A query, a script in another server language and a function
// call run on the server through Datagrok's Python client (jupyterPython.ts), a table passed by its ID (a
// DataFrame made here goes up once). A cell that cannot be written so becomes a code cell of comments that
// says why and holds its text; every cell keeps its language and text in its metadata, so nothing is lost.
import { type CallCell, cellKind } from './cells';
import { cellScript } from './scriptCell';
import { isPythonName, pythonLiteral, pythonText, setupCell } from './jupyterPython';

export interface ExportCell {
  language: string;
  text: string;
  /** A function-call cell's call, read by the caller (from the call syntax or a parameter-file object). */
  call?: CallCell;
  /** Why a function-call cell could not be read. */
  callProblem?: string;
  /** The outputs a function-call cell's function declares, when known (its signature, or the last run). */
  outputs?: { name: string; type: string }[];
}

export interface JupyterCell {
  id: string;
  cell_type: 'markdown' | 'code';
  metadata: Record<string, unknown>;
  source: string[];
  execution_count?: null;
  outputs?: unknown[];
}

export interface JupyterNotebook {
  nbformat: 4;
  nbformat_minor: 5;
  metadata: Record<string, unknown>;
  cells: JupyterCell[];
}

/** Where an exported cell came from and how it was written. */
export type ExportedAs = 'markdown' | 'python' | 'server' | 'commented';

/** Thrown inside the mapping for a cell that cannot be written in Python: its reason. */
class NotExpressible extends Error {}

const lines = (text: string) => text.split('\n').map((line, i, all) => (i < all.length - 1 ? `${line}\n` : line));

/** The cell's text without its header's `name:` line: the server copy gets a name of its own. */
function withoutName(text: string, prefix: string): string {
  return text
    .split('\n')
    .filter((line) => !new RegExp(`^\\s*${prefix}\\s*name\\s*:`).test(line))
    .join('\n');
}

/** How a value leaves the server for a variable of this type. */
function received(type: string, expression: string): string {
  // A function whose outputs are not known may answer a table: as_frame reads CSV text, keeps anything else.
  if (type === 'dataframe' || type === 'dynamic') return `as_frame(${expression})`;
  if (type === 'graphics') return `as_image(${expression})`;
  return expression;
}

function assignments(outputs: { name: string; type: string }[], call: string): string[] {
  for (const o of outputs) if (!isPythonName(o.name)) throw new NotExpressible(`its output "${o.name}" is not a Python name.`);
  if (outputs.length === 0) return [call];
  if (outputs.length === 1) return [`${outputs[0].name} = ${received(outputs[0].type, call)}`];
  return [`_out = outputs(${call}, ${outputs.length})`, ...outputs.map((o, i) => `${o.name} = ${received(o.type, `_out[${i}]`)}`)];
}

/** A variable passed to the server: a DataFrame by its table's ID, any other value as it is. */
function argument(name: string): string {
  if (!isPythonName(name)) throw new NotExpressible(`it takes "${name}", which is not a Python name.`);
  return `table_ref(${JSON.stringify(name)}, ${name})`;
}

function paramsDict(entries: [string, string][]): string {
  if (entries.length === 0) return '{}';
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(', ')}}`;
}

const SERVER_LANGUAGES: Record<string, string> = { r: 'r', julia: 'julia', octave: 'octave' };

function scriptCode(cell: ExportCell, index: number, made: Map<string, string>): { code: string[]; outputs: { name: string; type: string }[] } {
  let script: ReturnType<typeof cellScript>;
  try {
    script = cellScript(cell.language, cell.text, index + 1);
  } catch (e) {
    throw new NotExpressible((e as Error).message.replace(/^Cell \d+(, line \d+)?: /, ''));
  }
  const { header } = script.local;
  const outputs = header.outputs.map((o) => ({ name: o.name, type: o.baseType }));
  if (cell.language === 'python') {
    // Inputs no cell above made take their initial values, as the server would give them.
    const initial = header.inputs.filter((i) => !made.has(i.name) && i.initialText !== undefined && isPythonName(i.name)).map((i) => `${i.name} = ${pythonLiteral(i.initial)}`);
    return { code: [`# Cell ${index + 1} (Python) runs here: its inputs are the variables of the cells above.`, ...initial, cell.text], outputs };
  }
  if (cell.language === 'javascript')
    throw new NotExpressible(
      'the Python client saves scripts in grok, julia, python, r, nodejs and octave only (its ScriptLanguage), not javascript, which Datagrok runs in the browser: run this cell in Datagrok, or write it in Python.',
    );
  const params = paramsDict(header.inputs.filter((i) => made.has(i.name)).map((i) => [i.name, argument(i.name)]));
  const code = pythonText(withoutName(cell.text, header.prefix));
  if (cell.language === 'sql') {
    const connection = header.value('connection');
    if (!connection) throw new NotExpressible('the query names no connection: add "--connection: <Connection>" to its header.');
    return {
      code: [
        `# Cell ${index + 1}: a query on ${connection}, run on the server.`,
        ...assignments(outputs, `run_on_server(${code}, ${params}, connection=${JSON.stringify(connection)})`),
      ],
      outputs,
    };
  }
  const language = SERVER_LANGUAGES[cell.language];
  if (!language) throw new NotExpressible(`the Python client runs no ${cell.language} scripts.`);
  return {
    code: [
      `# Cell ${index + 1}: a script in ${cell.language}, run on the server.`,
      ...assignments(outputs, `run_on_server(${code}, ${params}, language=${JSON.stringify(language)})`),
    ],
    outputs,
  };
}

function callCode(cell: ExportCell, index: number, made: Map<string, string>): { code: string[]; outputs: { name: string; type: string }[] } {
  if (!cell.call) throw new NotExpressible(cell.callProblem ?? 'its call could not be read.');
  const { call } = cell;
  const params = paramsDict(
    Object.entries(call.args).map(([key, arg]): [string, string] => {
      if ('variable' in arg) return [key, argument(arg.variable)];
      // A parameter-file cell names a table by its variable's name, as text.
      if (typeof arg.value === 'string' && made.get(arg.value) === 'dataframe') return [key, argument(arg.value)];
      return [key, pythonLiteral(arg.value)];
    }),
  );
  let outputs = cell.outputs;
  let note = '';
  if (!outputs) {
    outputs = [{ name: call.assignTo ?? `cell${index + 1}_result`, type: 'dynamic' }];
    if (!call.assignTo) note = ' Its outputs were not known when it was exported: the answer is kept as it came.';
  } else if (call.assignTo && outputs.length > 0) outputs = [{ ...outputs[0], name: call.assignTo }, ...outputs.slice(1)];
  const code = assignments(outputs, `grok.functions.call(${JSON.stringify(call.function)}, ${params})`);
  return { code: [`# Cell ${index + 1}: ${call.function}, called on the server.${note}`, ...code], outputs };
}

function commented(cell: ExportCell, index: number, why: string): string[] {
  return [`# Cell ${index + 1} (${cell.language}) is not run here: ${why}`, '# The cell as written:', ...cell.text.split('\n').map((line) => (line === '' ? '#' : `# ${line}`))];
}

export interface ExportResult {
  notebook: JupyterNotebook;
  /** How each cell of the Datagrok notebook was written, in order. */
  cells: { index: number; as: ExportedAs; reason?: string }[];
}

/** The Jupyter notebook of a Datagrok notebook's cells. */
export function toJupyter(cells: ExportCell[], options: { fileName: string; tablePrefix: string }): ExportResult {
  const out: JupyterCell[] = [
    {
      id: 'datagrok-setup',
      cell_type: 'code',
      metadata: { datagrok: { setup: true } },
      source: lines(setupCell(options.fileName, options.tablePrefix)),
      execution_count: null,
      outputs: [],
    },
  ];
  const report: ExportResult['cells'] = [];
  /** The variables the cells so far make, with their types. */
  const made = new Map<string, string>();
  cells.forEach((cell, index) => {
    const metadata = { datagrok: { language: cell.language, text: cell.text } };
    const id = `cell-${index + 1}`;
    const kind = cellKind(cell.language);
    if (kind === 'markdown') {
      out.push({ id, cell_type: 'markdown', metadata, source: lines(cell.text) });
      report.push({ index, as: 'markdown' });
      return;
    }
    let source: string[];
    try {
      const { code, outputs } = kind === 'call' ? callCode(cell, index, made) : scriptCode(cell, index, made);
      source = code;
      for (const o of outputs) made.set(o.name, o.type);
      report.push({ index, as: cell.language === 'python' ? 'python' : 'server' });
    } catch (e) {
      if (!(e instanceof NotExpressible)) throw e;
      source = commented(cell, index, e.message);
      report.push({ index, as: 'commented', reason: e.message });
    }
    out.push({ id, cell_type: 'code', metadata, source: lines(source.join('\n')), execution_count: null, outputs: [] });
  });
  const notebook: JupyterNotebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
      language_info: { name: 'python' },
      datagrok: { exportedFrom: options.fileName },
    },
    cells: out,
  };
  return { notebook, cells: report };
}

/** The .ipynb file's text (one-space indents, as Jupyter writes them). */
export function jupyterText(notebook: JupyterNotebook): string {
  return `${JSON.stringify(notebook, null, 1)}\n`;
}

// The Python an exported notebook is written in: its first cell (the client of Datagrok's `datagrok-api`,
// built from the environment, and the few helpers the cells call) and Python literals. No vscode.
//
// The client is the resource-based `datagrok_api.DatagrokClient(base_url, api_key)`: `grok.functions.call`
// (`POST /public/v1/functions/{name}/call`), `grok.tables.upload` (`POST /public/v1/tables/{name}`, CSV),
// `grok.connections.get` (`GET /public/v1/connections/{name}`), `grok.functions.create_query` and, for a
// script in another language, `grok.functions._save(Script(...))`, what `create_script` does with the
// language set (`POST /public/v1/functions`). The client deletes no function: the temporary copy is deleted
// through its HTTP session on the routes the extension uses (`DELETE /scripts/{id}`, `/connectors/queries/{id}`).

/** The environment variables the first cell reads (the names "Use Datagrok in Terminals" exports). */
export const ENV_URL = 'DATAGROK_API_URL';
export const ENV_KEY = 'DATAGROK_API_KEY';

const PYTHON_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

/** Whether a notebook variable's name is a Python name (a header allows `$`, Python does not). */
export function isPythonName(name: string): boolean {
  return /^[A-Za-z_]\w*$/.test(name) && !PYTHON_KEYWORDS.has(name);
}

/** A JSON value as a Python literal. */
export function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : `float("${value}")`;
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pythonLiteral(v)}`)
      .join(', ')}}`;
  return JSON.stringify(String(value));
}

/** A text as a Python string: triple-quoted when that keeps it as written (a query reads as SQL), else escaped. */
export function pythonText(text: string): string {
  if (text.includes('\n') && !text.includes('"""') && !text.includes('\\') && !text.endsWith('"')) return `"""${text}"""`;
  return JSON.stringify(text);
}

/** The first cell: the client from the environment (the key never in the file) and the helpers. */
export function setupCell(fileName: string, tablePrefix: string): string {
  return `# Exported from ${fileName} by Datagrok for VS Code. Python cells run here; queries, scripts in other
# languages and function calls run on the Datagrok server through its Python client:
#   pip install datagrok-api pandas
# The server and the API key come from the environment, never from this file: ${ENV_URL} and
# ${ENV_KEY} ("Datagrok: Use Datagrok in Terminals" sets both in VS Code's terminals).
import base64
import os
import uuid
from io import StringIO

import pandas as pd
from datagrok_api import DatagrokClient
from datagrok_api.models import Script, ScriptLanguage

_key = os.environ["${ENV_KEY}"]
grok = DatagrokClient(os.environ["${ENV_URL}"], _key if _key.startswith("Bearer ") else "Bearer " + _key)
_uploaded = {}


def as_frame(value):
    """A table the server answered (CSV text) as a pandas DataFrame; any other value as it is."""
    return pd.read_csv(StringIO(value)) if isinstance(value, str) and "\\n" in value else value


def as_image(value):
    """A plot the server answered (a PNG in base64), shown in the notebook; its PNG bytes."""
    data = base64.b64decode(value.split(",", 1)[-1]) if isinstance(value, str) else value
    try:
        from IPython.display import Image, display

        display(Image(data=data))
    except ImportError:
        pass
    return data


def table_ref(name, value):
    """A DataFrame as the server takes it: uploaded once (as ${tablePrefix}<name>), passed by its ID."""
    if not isinstance(value, pd.DataFrame):
        return value
    if id(value) not in _uploaded:
        _uploaded[id(value)] = (value, grok.tables.upload(${JSON.stringify(tablePrefix)} + name, value)["ID"])
    return _uploaded[id(value)][1]


def outputs(result, count):
    """A call's outputs as a list: one output is the answer itself, several a list."""
    return [result] if count == 1 else list(result)


def run_on_server(code, params, connection=None, language=None):
    """A query or script cell run on the server as the notebook runs it: saved under a unique name, called, deleted."""
    name = "NotebookCell_" + uuid.uuid4().hex[:12]
    if connection is not None:
        func = grok.functions.create_query(grok.connections.get(connection), code, name)
        route = "/connectors/queries/"
    else:
        func = grok.functions._save(Script(script=code, name=name, language=ScriptLanguage(language)))
        route = "/scripts/"
    try:
        return grok.functions.call(func, params)
    finally:
        try:
            grok._http.delete(route + func.id)
        except Exception as error:
            print(f"The temporary function {func.grok_name} could not be deleted: {error}")
`;
}

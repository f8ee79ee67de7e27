// The agents' operations as a model sees them: name, one-line title, a precise description and the JSON
// schema of the input. The language-model tools (package.json "languageModelTools", checked equal by a
// unit test) and the MCP server list exactly these.

export interface OperationDefinition {
  /** Tool name: `datagrok_<verb><Object>`. */
  name: string;
  /** Short, for people (the tools picker, MCP clients' lists). */
  title: string;
  /** For the model: what it does, when to use it, what it returns. */
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, object>; required?: string[]; additionalProperties: false };
  /** Reads only: runs without asking. Otherwise it changes the server (see WRITES). */
  readOnly: boolean;
  /** For a write: whether it may replace or remove what is there (MCP destructiveHint). */
  destructive?: boolean;
  /** For a write: whether the same call twice changes nothing more (MCP idempotentHint). Reads are. */
  idempotent?: boolean;
  /** Inputs required over MCP though optional in the editor (which has an active editor to fall back on). */
  requiredOverMcp?: string[];
}

/** What every writing tool's description says about who asks the user, true for each channel. */
export const WRITES =
  'It changes the server: in VS Code the editor shows the change and asks the user before it runs; through an MCP client, the client decides whether to ask (the tool is annotated destructiveHint/idempotentHint), so make sure the user wants it.';

const str = (description: string) => ({ type: 'string', description });

export const DEFINITIONS: readonly OperationDefinition[] = [
  {
    name: 'datagrok_findFunctions',
    title: 'Find Datagrok functions',
    description:
      'Searches the functions, scripts and queries of the Datagrok server the user is signed in to. `query` is Datagrok smart-search text: plain words match names and descriptions; filters such as `package = "Chem"` or `#tag` also work; omit it to list all. Returns JSON: the total and up to `limit` matches, each with nqName (Package:Name, what describe and run take), kind and description.',
    inputSchema: {
      type: 'object',
      properties: {
        query: str('Smart-search text, e.g. "solubility" or package = "Chem". Omit to list all functions.'),
        limit: { type: 'integer', minimum: 1, maximum: 200, description: 'Most matches to return (default 50).' },
      },
      additionalProperties: false,
    },
    readOnly: true,
  },
  {
    name: 'datagrok_describeFunction',
    title: 'Describe a Datagrok function',
    description:
      "Reads one function's signature from the signed-in Datagrok server: its inputs (name, type, default, required, choices, description) and outputs, the one-line signature, and a parameter-file template. Use it before datagrok_runFunction to know the inputs.",
    inputSchema: {
      type: 'object',
      properties: { name: str('The function as Package:Name (e.g. Demo:Add) or its ID.') },
      required: ['name'],
      additionalProperties: false,
    },
    readOnly: true,
  },
  {
    name: 'datagrok_runFunction',
    title: 'Run a Datagrok function',
    description:
      'Runs a function on the signed-in Datagrok server and returns its outputs: a dataframe output is summarised (rows, columns, first rows), other values as JSON. Give the inputs as `params` (an object keyed by input name), or a `parameterFile` (a JSON file in the workspace with "$function" and the inputs), or both (`params` win). A dataframe input can be a table ID or name, or {"$csv": "path/to/file.csv"} to push a local CSV first. Local files (parameter files, $csv) are read only inside the workspace folders. ' +
      WRITES,
    inputSchema: {
      type: 'object',
      properties: {
        function: str('Package:Name of the function. Optional when the parameter file names it with "$function".'),
        params: { type: 'object', description: 'Inputs by name, e.g. {"a": 2, "b": 3}.' },
        parameterFile: str('Path of a parameter file inside a workspace folder (relative to the first one, or absolute).'),
      },
      additionalProperties: false,
    },
    readOnly: false,
    destructive: true,
    idempotent: false,
  },
  {
    name: 'datagrok_pushTable',
    title: 'Push CSV as a Datagrok table',
    description:
      'Uploads a local CSV file as a table on the signed-in Datagrok server (a table of the same name is replaced). `file` is a path inside a workspace folder (relative to the first one, or absolute); a path outside the workspace is refused. In VS Code, omit it to push the active CSV editor, unsaved edits included; over MCP it is required. Returns the new table ID, name, URL and shape. ' +
      WRITES,
    inputSchema: {
      type: 'object',
      properties: {
        file: str('Path of the CSV file inside a workspace folder. In VS Code, omit it to push the active CSV editor.'),
        name: str(
          'Table name: table, <project>.<table> or Project:table; the server saves it as <owner>:<project>:<table>, the owner being the signed-in login (the result says the name it got). Default: the file name without extension.',
        ),
      },
      additionalProperties: false,
    },
    readOnly: false,
    destructive: true,
    idempotent: true,
    requiredOverMcp: ['file'],
  },
  {
    name: 'datagrok_openTable',
    title: 'Read a Datagrok table',
    description:
      'Downloads a table from the signed-in Datagrok server as CSV and returns a summary: rows, columns (names) and the first rows as CSV text. `table` is a table ID or name (<project>.<table>, Project:table, or the full <owner>:<project>:<table> the server lists).',
    inputSchema: {
      type: 'object',
      properties: {
        table: str('Table ID or name.'),
        rows: { type: 'integer', minimum: 0, maximum: 200, description: 'How many first rows to include (default 20).' },
      },
      required: ['table'],
      additionalProperties: false,
    },
    readOnly: true,
  },
  {
    name: 'datagrok_listFiles',
    title: 'List connector files',
    description:
      'Lists a folder of a file connector (file share) on the signed-in Datagrok server. Without `connector`, lists the file shares themselves. Returns JSON entries with path, whether it is a file, size and modification time.',
    inputSchema: {
      type: 'object',
      properties: {
        connector: str('The file share as Namespace:Name, e.g. System:DemoFiles. Omit to list the file shares.'),
        path: str('Folder path inside the connector, "/"-separated; omit for its root.'),
      },
      additionalProperties: false,
    },
    readOnly: true,
  },
  {
    name: 'datagrok_readFile',
    title: 'Read a connector file',
    description:
      'Reads a text file from a file connector of the signed-in Datagrok server, a page at a time: `length` bytes (default 16384, at most 65536) from `offset` (default 0). Returns JSON: the text, the bytes read, and `nextOffset` when there is more (call again with it). A .csv or .tsv file read without offset or length is summarised as datagrok_openTable does (rows, columns, first rows); pass offset or length to read its text.',
    inputSchema: {
      type: 'object',
      properties: {
        connector: str('The file share as Namespace:Name, e.g. System:DemoFiles.'),
        path: str('File path inside the connector, "/"-separated.'),
        offset: { type: 'integer', minimum: 0, maximum: 1073741824, description: 'Byte offset to start at (default 0): the nextOffset of the previous page.' },
        length: { type: 'integer', minimum: 1, maximum: 65536, description: 'Bytes to read (default 16384, at most 65536).' },
        rows: { type: 'integer', minimum: 0, maximum: 200, description: 'For a CSV summary: how many first rows to include (default 20).' },
      },
      required: ['connector', 'path'],
      additionalProperties: false,
    },
    readOnly: true,
  },
  {
    name: 'datagrok_writeFile',
    title: 'Write a connector file',
    description: 'Writes text to a file of a file connector on the signed-in Datagrok server (an existing file is replaced). Returns the path and size written. ' + WRITES,
    inputSchema: {
      type: 'object',
      properties: {
        connector: str('The file share as Namespace:Name, e.g. System:DemoFiles.'),
        path: str('File path inside the connector, "/"-separated.'),
        content: str('The whole new content of the file (UTF-8 text).'),
      },
      required: ['connector', 'path', 'content'],
      additionalProperties: false,
    },
    readOnly: false,
    destructive: true,
    idempotent: true,
  },
  {
    name: 'datagrok_createDashboard',
    title: 'Create a Datagrok dashboard',
    description:
      'Creates a new dashboard on the signed-in Datagrok server from one or more existing tables (it adds; nothing is replaced). Returns its ID, name and URL; share it with datagrok_shareDashboard. ' +
      WRITES,
    inputSchema: {
      type: 'object',
      properties: {
        name: str('The dashboard name.'),
        tables: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'Table IDs (as datagrok_pushTable returns).' },
      },
      required: ['name', 'tables'],
      additionalProperties: false,
    },
    readOnly: false,
    destructive: false,
    idempotent: false,
  },
  {
    name: 'datagrok_shareDashboard',
    title: 'Share a Datagrok dashboard',
    description:
      'Shares a dashboard on the signed-in Datagrok server with groups or users, with View (default) or Edit access. Groups are names or IDs (datagrok_listGroups finds them). ' +
      WRITES,
    inputSchema: {
      type: 'object',
      properties: {
        dashboard: str('The dashboard ID.'),
        groups: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'Group or user names or IDs.' },
        access: { type: 'string', enum: ['View', 'Edit'], description: 'View (default) or Edit.' },
      },
      required: ['dashboard', 'groups'],
      additionalProperties: false,
    },
    readOnly: false,
    destructive: true,
    idempotent: true,
  },
  {
    name: 'datagrok_listGroups',
    title: 'List Datagrok groups',
    description:
      'Lists groups on the signed-in Datagrok server. With `query`, the groups and users whose names contain it; without, the groups the user belongs to, with whether they administer each. Returns JSON with id, name and description.',
    inputSchema: {
      type: 'object',
      properties: { query: str('Part of a group or user name. Omit for the groups the user belongs to.') },
      additionalProperties: false,
    },
    readOnly: true,
  },
  {
    name: 'datagrok_listPendingRequests',
    title: 'List pending membership requests',
    description:
      'Lists the pending membership requests to the groups the signed-in user administers on the Datagrok server: request ID, who asks, which group. Approve or deny one with datagrok_resolveRequest.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    readOnly: true,
  },
  {
    name: 'datagrok_resolveRequest',
    title: 'Approve or deny a membership request',
    description:
      'Approves (approve: true) or denies (approve: false) a pending membership request to a group the signed-in user administers. The request ID comes from datagrok_listPendingRequests. ' +
      WRITES,
    inputSchema: {
      type: 'object',
      properties: {
        request: str('The request ID.'),
        approve: { type: 'boolean', description: 'true to approve (the person joins the group), false to deny.' },
      },
      required: ['request', 'approve'],
      additionalProperties: false,
    },
    readOnly: false,
    destructive: true,
    idempotent: false,
  },
];

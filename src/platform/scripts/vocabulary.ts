// The words of a Datagrok script header, as the function annotation reference lists them: the parameter
// types, the header keys and parameter options (with what each means, for completion and hover), the
// languages, and which comment prefix and language a file's extension implies. Pure: no vscode here.

export type CommentPrefix = '#' | '//' | '--';

/** Types every scripting language supports (the reference), then the others real servers accept. */
export const DOCUMENTED_TYPES = ['int', 'double', 'bool', 'string', 'datetime', 'dataframe', 'column', 'column_list', 'list', 'graphics', 'file', 'blob'];
export const KNOWN_TYPES = new Set([
  ...DOCUMENTED_TYPES,
  'bigint',
  'num',
  'qnum',
  'map',
  'object',
  'dynamic',
  'string_list',
  'dataframe_list',
  'funccall',
  'widget',
  'viewer',
  'view',
  'semantic_value',
]);
export const LANGUAGES = ['python', 'r', 'javascript', 'julia', 'octave', 'grok'];

/** The header's keys and what each means (hover and completion). */
export const HEADER_KEYS: Record<string, string> = {
  name: "The function's name: shows up in the user interface, and is how the function is called.",
  friendlyName: 'The name people see, when it differs from `name`.',
  description: "Shows up in the function's tooltip.",
  language: 'The script language: python, r, javascript, julia, octave or grok.',
  tags: 'Comma-separated tags that you can use in search.',
  'help-url': 'Help that shows up when you click "?" in the function dialog.',
  reference: 'A reference to a research paper, Wikipedia article, Git repository…',
  'top-menu': 'Top menu path separated with pipes (`|`), such as `Chem | Gasteiger Charges`.',
  environment: 'The script environment (a Conda environment for Python…).',
  sample: 'Path to a sample data CSV file; the ribbon gets a `*` icon that loads it.',
  condition: 'Script-based info panels: a GrokScript condition deciding whether to show the panel.',
  connection: 'Queries: the name of the data connection the query runs on.',
  schedule: 'A cron expression for automatic execution (server-based functions only).',
  'schedule.runAs': 'The group or role a scheduled run executes as.',
  input: 'One input: `<type> <name> [= initial] [{options}] [[description]]`.',
  output: 'One output: `<type> <name> [{options}] [[description]]`.',
  editor: "A function that edits this function's inputs (`Package:Editor`).",
  'meta.': 'Any additional parameter, usable to search for functions.',
};

/** The options of the reference, by what they apply to (completion). */
export const PARAM_OPTIONS: Record<string, string> = {
  caption: 'Custom field caption',
  description: "The input's description",
  postfix: 'Field postfix',
  units: 'Value unit name',
  nullable: 'true makes it an optional parameter',
  optional: 'true makes it an optional (named) parameter',
  category: 'Groups the parameter under a named section in the function dialog',
  validator: 'A single validator: a Grok expression or a regex literal',
  validators: 'Comma-separated list of validators',
  choices: 'A list of values (["A", "B"]), or a function or query that returns them',
  suggestions: 'A function that returns a list of strings to autocomplete the input',
  min: 'Minimum (numbers)',
  max: 'Maximum (numbers)',
  step: 'Step of a slider or clicker (numbers)',
  columns: 'dataframe: numerical or categorical — only those columns are loaded',
  type: 'column, column_list: numerical, categorical or dateTime',
  format: 'Datetime format, e.g. MM/dd/yyyy',
  allowNulls: 'column: adds validation of missing values',
  action: 'Outputs: join("table") or replace("table")',
  separators: 'list: characters that split text into values (default ",")',
  inputType: "The input's editor: Radio, Slider, Color, TextArea, Molecule…",
  semType: 'The semantic type, e.g. Molecule',
  visible: 'A GrokScript expression: whether the input is shown',
  enabled: 'A GrokScript expression: whether the input is enabled',
  editor: 'A function whose inputs edit this one',
  editorParam: "The helper function's parameter this input reads",
  propagateChoice: "all: a lookup table's columns initialize the other inputs",
  pattern: 'string inputs of queries: the type of a filter pattern (double, datetime…)',
  table: 'column: the dataframe input the column belongs to',
  meta: 'Tags of a dataframe output and its columns',
};

/** What each documented type holds (hover, completion). */
const TYPES: Record<string, string> = {
  int: 'A whole number.',
  double: 'A floating-point number.',
  bool: 'true or false.',
  string: 'Text.',
  datetime: 'A date and time.',
  dataframe: 'A table: a pandas DataFrame in Python, a data.frame in R, a DG.DataFrame in JavaScript. Called with a table ID or name.',
  column: 'A column of a dataframe input (in Python and R scripts: its name).',
  column_list: 'Several columns of a dataframe input.',
  list: 'A list, typically of strings (`list<string>`).',
  graphics: 'A picture, typically an output (a plot).',
  file: 'A file: when the script runs, a string with the path to it.',
  blob: 'An array of bytes.',
};

/** What a type holds, for hover and completion. */
export function describeType(type: string): string {
  return TYPES[type] ?? 'A platform type (beyond the ones every scripting language supports).';
}

const PREFIX_OF_EXTENSION: Record<string, CommentPrefix> = { py: '#', r: '#', jl: '#', m: '#', js: '//', sql: '--' };
const LANGUAGE_OF_EXTENSION: Record<string, string> = { py: 'python', r: 'r', jl: 'julia', m: 'octave', js: 'javascript', sql: 'sql' };

/** The comment prefix of a file name's extension, or undefined when it is not a script or query file. */
export function prefixOfFile(fileName: string): CommentPrefix | undefined {
  return PREFIX_OF_EXTENSION[fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase()];
}

/** The language a file's extension implies (`sql` for queries). */
export function languageOfFile(fileName: string): string | undefined {
  return LANGUAGE_OF_EXTENSION[fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase()];
}

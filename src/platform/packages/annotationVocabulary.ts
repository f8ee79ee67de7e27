// The words of a package function's annotation, on top of the script header's (src/platform/scripts/
// vocabulary.ts): the keys grok reads in a package's comments, the function roles, the types a package
// may declare, the parameter options, and the decorators with their options (datagrok-api 1.27.9
// src/decorators/functions.d.ts; datagrok-tools 6.7.5 bin/utils/func-generation.js, the tables
// test/unit/packageLanguage.test.ts holds these to). Pure.
import { HEADER_KEYS, KNOWN_TYPES, PARAM_OPTIONS } from '../scripts/vocabulary';
import { FUNCTION_ROLES } from './roles';

/** The comment keys of a package function, with what each means (completion, hover). */
export const PACKAGE_KEYS: Record<string, string> = {
  ...Object.fromEntries(Object.entries(HEADER_KEYS).filter(([k]) => !['language', 'environment', 'schedule.runAs'].includes(k))),
  'meta.role': "The function's roles, comma-separated (`panel`, `app`, `fileViewer`…): where the platform uses it. `grok check` holds the signature to each role.",
  sidebar: 'The function shows in the sidebar of the views it names.',
  test: 'A test of the function: `test: <call> [, wait: <ms>] [, timeout: <ms>] [, skip: <reason>]`.',
  'meta.cache': 'Caches the results: `all`, `server`, `client` or `true`.',
  'meta.cache.invalidateOn': 'A cron expression: when cached results expire (needs `meta.cache`).',
  'meta.ext': 'File importers and exporters: the file extensions, comma-separated.',
  'meta.icon': 'The path of an icon, from the package root.',
  'meta.browsePath': 'Where an app shows in the Browse tree (`Chem | Tools`).',
  'meta.url': "An app's own URL path.",
  'meta.fileViewer': 'File viewers: the extensions viewed, comma-separated.',
  'meta.keywords': 'Words that find the function in search.',
  returns: 'Old form of `output`.',
  require: 'A file the function needs.',
  'editor-for': 'The function this one edits.',
  sample: HEADER_KEYS.sample,
};

/** The roles and what each does: grok check's table, then the roles its generator names. */
export const ROLES: Record<string, string> = {
  ...Object.fromEntries(FUNCTION_ROLES.map(([role, signature, doc]) => [role, `${doc || 'A function role.'} Signature: \`${signature}\`.`])),
  model: 'A model of the Model Hub (a Rich Function View).',
  appTreeBrowser: "Fills an app's node in the Browse tree: (treeNode: dynamic, browseView: view).",
};

/** The types a package function may declare: the scripts' and the platform's own (func-generation.js `dgAnnotationTypes`). */
export const PACKAGE_TYPES = new Set(
  [
    ...KNOWN_TYPES,
    ...['byte_array', 'cell', 'tablerowfiltercall', 'colfiltercall', 'bitset', 'func', 'property', 'categorical', 'numerical', 'gridcellrenderargs', 'element'],
    ...['tableview', 'user', 'menu', 'project', 'event_data', 'progressindicator', 'credentials', 'scriptenvironment', 'notebook', 'filter', 'grid_cell_renderer', 'void', 'any'],
  ].map((t) => t.toLowerCase()),
);

/** The options of an input or output: the scripts' and those the generator writes (`inputOptionsNames`). */
export const PACKAGE_PARAM_OPTIONS: Record<string, string> = {
  ...PARAM_OPTIONS,
  initialValue: 'The initial value',
  viewer: 'Outputs: the viewer a dataframe opens with',
  optionsType: 'The type option (`type` of the options)',
  'meta.url': 'The input is a URL',
};

/** TypeScript types as the generator maps them to annotation types (func-generation.js `typesToAnnotation`). */
export const TS_TO_ANNOTATION: Record<string, string> = {
  DataFrame: 'dataframe',
  'DG.DataFrame': 'dataframe',
  Column: 'column',
  'DG.Column': 'column',
  'Column<any>': 'column',
  'DG.Column<any>': 'column',
  ColumnList: 'column_list',
  'DG.ColumnList': 'column_list',
  FileInfo: 'file',
  'DG.FileInfo': 'file',
  Uint8Array: 'blob',
  number: 'double',
  boolean: 'bool',
  'dayjs.Dayjs': 'datetime',
  Dayjs: 'datetime',
  graphics: 'graphics',
  'DG.View': 'view',
  'DG.ViewBase': 'view',
  View: 'view',
  ViewBase: 'view',
  'DG.Widget': 'widget',
  Widget: 'widget',
  'DG.FuncCall': 'funccall',
  FuncCall: 'funccall',
  'DG.SemanticValue': 'semantic_value',
  SemanticValue: 'semantic_value',
  any: 'dynamic',
  void: 'void',
  string: 'string',
};

/** The annotation type of a TypeScript type, as the generator writes it: `T[]` a list, unknown types `dynamic`. */
export function annotationType(tsType: string | undefined): string {
  let t = (tsType ?? 'any').replace(/\s+/g, '').replace(/\|undefined$/, '');
  const promise = /^Promise<(.*)>$/.exec(t);
  if (promise) t = promise[1];
  const array = t.endsWith('[]');
  if (array) t = t.slice(0, -2);
  const mapped = TS_TO_ANNOTATION[t] ?? TS_TO_ANNOTATION[t.replace(/<.*>$/, '')];
  if (!mapped) return 'dynamic';
  return array ? `list<${mapped}>` : mapped;
}

/**
 * The decorators grok's generator reads (func-generation.js `reservedDecorators`): the role each gives, and
 * whether it goes on a class. datagrok-api also declares `packageSettingsEditor`, which the generator does
 * not know (it stops the build): `settingsEditor` is the one that works.
 */
export const DECORATORS: Record<string, { role?: string; onClass?: boolean; doc: string }> = {
  func: { doc: 'A package function.' },
  app: { role: 'app', doc: 'An application that gets shown in the app store.' },
  autostart: { role: 'autostart', doc: 'Runs at platform startup.' },
  init: { role: 'init', doc: 'Runs when the package is initialized.' },
  editor: { role: 'editor', doc: 'Creates a custom editor for a function call.' },
  panel: { role: 'panel', doc: 'A widget on the context panel.' },
  dashboard: { role: 'dashboard', doc: 'A widget on the welcome screen.' },
  folderViewer: { role: 'folderViewer', doc: "A folder's content preview." },
  semTypeDetector: { role: 'semTypeDetector', doc: "A column's semantic type detector." },
  settingsEditor: { role: 'packageSettingsEditor', doc: "Edits the package's settings." },
  functionAnalysis: { role: 'functionAnalysis', doc: 'A function analysis in the function view.' },
  converter: { role: 'converter', doc: 'Converts values: one input, one output.' },
  fileViewer: { role: 'fileViewer', doc: 'Views files of the extensions given (`fileViewer`).' },
  fileExporter: { role: 'fileExporter', doc: 'Exports a file: added to the export menu.' },
  fileHandler: { role: 'file-handler', doc: 'Imports files of the extensions given (`ext`).' },
  demo: { doc: 'A demo (`demoPath`).' },
  treeBrowser: { doc: 'Fills a node of the Browse tree.' },
  model: { role: 'model', doc: 'A model of the Model Hub.' },
  appTreeBrowser: { role: 'appTreeBrowser', doc: "Fills an app's node in the Browse tree." },
  viewer: { role: 'viewer', onClass: true, doc: 'Registers a JsViewer class.' },
  filter: { role: 'filter', onClass: true, doc: 'Registers a Filter class.' },
  cellRenderer: { role: 'cellRenderer', onClass: true, doc: 'Registers a GridCellRenderer class.' },
};

/** The options of a function decorator (`FunctionOptions` and the role decorators' own), with what each means. */
export const DECORATOR_OPTIONS: Record<string, string> = {
  name: "The function's name (the method's name when left out).",
  friendlyName: 'The name people see.',
  description: "Shows up in the function's tooltip.",
  tags: 'Tags, as a list of strings.',
  meta: 'Other metadata, `{role: …, key: value}`: each becomes a `meta.<key>` annotation.',
  outputs: 'The outputs, `[{name, type, options?}]` (else from the return type).',
  result: 'The one output, `{name, type, options?}`.',
  sidebar: PACKAGE_KEYS.sidebar,
  editor: HEADER_KEYS.editor,
  cache: PACKAGE_KEYS['meta.cache'],
  'cache.invalidateOn': PACKAGE_KEYS['meta.cache.invalidateOn'],
  cacheInvalidateOn: PACKAGE_KEYS['meta.cache.invalidateOn'],
  'top-menu': HEADER_KEYS['top-menu'],
  topMenu: HEADER_KEYS['top-menu'],
  condition: HEADER_KEYS.condition,
  helpUrl: HEADER_KEYS['help-url'],
  'help-url': HEADER_KEYS['help-url'],
  connection: HEADER_KEYS.connection,
  browsePath: PACKAGE_KEYS['meta.browsePath'],
  icon: PACKAGE_KEYS['meta.icon'],
  url: PACKAGE_KEYS['meta.url'],
  test: PACKAGE_KEYS.test,
  order: 'Dashboards: their order on the welcome screen.',
  features: 'Models: their features.',
  runOnInput: 'Models: run on every input change.',
  runOnOpen: 'Models: run when opened.',
  app: 'The app whose tree this fills.',
  fileViewer: PACKAGE_KEYS['meta.fileViewer'],
  fileViewerCheck: 'A function deciding whether a file is viewed.',
  ext: PACKAGE_KEYS['meta.ext'],
  path: 'Demos: the demo path.',
  demoPath: 'Demos: the demo path.',
  demoSkip: 'Demos: why the demo is skipped.',
  demoWait: 'Demos: how long to wait.',
  toolbox: 'Viewers: add the icon to the toolbox.',
  trellisable: 'Viewers: can be a trellis plot inner viewer.',
  viewerPath: 'Viewers: the path in the top menu.',
  semType: 'Filters: the semantic type.',
  cellType: 'Cell renderers: the cell type.',
  columnTags: 'Cell renderers: the column tags a match needs.',
  virtual: 'Cell renderers: render in virtual columns.',
};

/** The keys of a decorator's `meta` (datagrok-api `Meta`); any other key is written as well. */
export const META_KEYS = [
  'role',
  'cache',
  'cacheInvalidateOn',
  'browsePath',
  'icon',
  'demoPath',
  'demoSkip',
  'demoWait',
  'path',
  'vectorFunc',
  'ext',
  'cellType',
  'columnTags',
  'supportedSemTypes',
  'supportedTypes',
  'supportedDistanceFunctions',
  'supportedUnits',
  'action',
  'fileViewerCheck',
  'fileViewer',
  'keywords',
  'mlname',
  'mlrole',
  'inputRegex',
  'runOnOpen',
  'runOnInput',
  'features',
  'toolbox',
  'gridChart',
  'virtual',
  'order',
  'autostartImmediate',
  'url',
  'propertyType',
  'semType',
  'queue',
  'server',
];

/** The options of `@grok.decorators.param({...})` (datagrok-api `Input`). */
export const PARAM_DECORATOR_OPTIONS: Record<string, string> = {
  name: "The input's name (the parameter's when left out).",
  type: 'The annotation type (else from the TypeScript type).',
  options: 'The options, `{semType, caption, choices, …}`.',
  ...Object.fromEntries(
    Object.entries(PACKAGE_PARAM_OPTIONS).filter(([k]) =>
      [
        'semType',
        'category',
        'optional',
        'editor',
        'nullable',
        'separators',
        'choices',
        'format',
        'min',
        'max',
        'caption',
        'description',
        'initialValue',
        'viewer',
        'units',
        'optionsType',
        'step',
        'meta.url',
      ].includes(k),
    ),
  ),
  metaUrl: PACKAGE_PARAM_OPTIONS['meta.url'],
};

/** Decorator options the generator writes as their own annotation keys (func-generation.js `nonMetaData`); the others become `meta.*`. */
export const NON_META_OPTIONS = ['sidebar', 'editor', 'friendlyName', 'helpUrl', 'help-url', 'condition', 'connection', 'top-menu', 'cache', 'cache.invalidateOn', 'test'];
/** Decorator option names and the annotation key each writes (`decoratorOptionToAnnotation`). */
export const OPTION_TO_ANNOTATION: Record<string, string> = {
  helpUrl: 'help-url',
  topMenu: 'top-menu',
  metaUrl: 'meta.url',
  optionsType: 'type',
  cacheInvalidateOn: 'cache.invalidateOn',
  scriptHandlerLanguage: 'scriptHandler.language',
  scriptHandlerExtensions: 'scriptHandler.extensions',
  scriptHandlerCommentStart: 'scriptHandler.commentStart',
  scriptHandlerTemplateScript: 'scriptHandler.templateScript',
  scriptHandlerCodeEditorMode: 'scriptHandler.codeEditorMode',
  scriptHandlerVectorizationFunction: 'scriptHandler.vectorizationFunction',
};

/** A role as the generator writes it in `meta.role` (migrate.js `toCamelCase`): `file-handler` → `fileHandler`. */
export function camelRole(role: string): string {
  return role.replace(/[-_ ]+(\w)/g, (_, c: string) => c.toUpperCase()).replace(/^[A-Z]/, (c) => c.toLowerCase());
}

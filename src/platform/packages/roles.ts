// The function roles `grok check` knows, with the signature each role asks for (datagrok-tools 6.7.5,
// bin/utils/const.js `functionRoles`; test/unit/packageRoles.test.ts holds the table to it), and the
// check of a function's annotation against them, as `grok check` does it (bin/commands/check.js
// `validateFunctionSignature`): each finding says which line of the annotation it is about. Pure.

/** [role, signature, description] as datagrok-tools lists them. */
export const FUNCTION_ROLES: readonly (readonly [string, string, string])[] = [
  ['app', 'app(): void | View', 'An application that gets shown in the app store.'],
  ['panel', 'panel(...args): Widget | Viewer | graphics | void', 'Context-specific widget that appears on the context panel.'],
  ['init', 'init(): void', 'Gets invoked when the containing package is initialized.'],
  ['autostart', 'autostart(): void', 'Gets invoked at platform startup. Use it wisely as the whole package will get initialized.'],
  [
    'semTypeDetector',
    'semTypeDetector(col: Column): string',
    'Semantic type detector for a column. Gets invoked when a new dataframe is imported into the platform. Implementation should either set column.semType directly, or return the semantic type that will get assigned.',
  ],
  [
    'fileViewer',
    'fileViewer(file: FileInfo): View',
    'Creates a viewer (or editor) for a file with the specified extension. The extension is derived from the `fileViewer-[extension]` tag. Used in the file system browser.',
  ],
  ['fileExporter', 'fileExporter(): void', 'Exports a file. Gets added to the "export" menu at startup.'],
  [
    'file-handler',
    'fileImporter(x: string | TypedArray): DataFrame[]',
    'Handles custom file formats. The `meta.ext` parameter should contain a comma-separated list of extensions',
  ],
  [
    'cellRenderer',
    'cellRenderer(): GridCellRenderer',
    'Creates a cell renderer that is used for rendering cells for specific semantic types. Semantic type is derived from the `cellRenderer-[semType]` tag.',
  ],
  ['packageSettingsEditor', 'packageSettingsEditor(): Widget', 'Edits package settings.'],
  ['dashboard', 'dashboard(): Widget', 'Makes a widget appear on the welcome screen.'],
  ['functionAnalysis', 'functionAnalysis(x: Function): View', 'Function analysis that gets added to the function view. Examples: sensitivity analysis, parameter editor'],
  ['converter', 'converter(x: any): any', 'Converts values. Has one input and one output'],
  ['widget', 'widget(...args): Widget', 'Creates a custom widget.'],
  ['widgets', 'widgets(...args): Widget', 'Creates a custom widget.'],
  ['editor', 'editor(call: FuncCall): Widget | View | void', 'Creates a custom editor for a function call'],
  ['Transform', 'transform(table: DataFrame, ...args): any', ''],
  ['filter', 'filter(): Filter', 'Creates a custom table filter'],
  ['viewer', 'viewer(): Viewer', 'Creates a custom viewer'],
  ['valueEditor', 'valueEditor(...args): any', 'Custom editor for specific input types'],
  ['cellEditor', 'cellEditor(cell: GridCell): void', 'CCustom editor for grid cells'],
  ['unitConverter', 'unitConverter(value: string, source: string, target: string): string', 'Converts between measurement units'],
  ['moleculeSketcher', 'moleculeSketcher(): Widget', 'Creates a molecule sketcher widget'],
  ['tooltip', 'tooltip(col: Column): Widget', 'Provides a custom tooltip for columns'],
  ['folderViewer', 'folderViewer(folder: File, files: list<file>): Widget', 'Provides a custom folder content preview.'],
  ['HitTriageFunction', 'hitTriageFunction(table: DataFrame, moleculeCol: Column): DataFrame', 'Compute function for Hit Triage campaigns.'],
  ['HitTriageDataSource', 'hitTriageDataSource(...args): DataFrame', 'Provides a datasource for Hit Triage campaigns. Must return a dataframe containing molecules.'],
  ['HitTriageSubmitFunction', 'hitTriageSubmitFunction(df: DG.DataFrame, moleculesCol: string): void', 'Processes or saves the computed dataset.'],
  ['HitDesignerFunction', 'hitDesignerFunction(molecule: string, ...args): DataFrame', 'Compute function for Hit Design campaigns.'],
  ['dim-red-preprocessing-function', 'preprocess(col: Column, metric: string, ...args): any', 'Preprocessing function for dimensionality reduction.'],
  ['dim-red-postprocessing-function', 'postprocess(xCol: Column, yCol: Column, ...args): void', 'Postprocessing function for dimensionality reduction.'],
  ['monomer-lib-provider', 'getMonomerLibProvider(): IMonomerLibProvider', 'Provides a monomer library provider.'],
  ['searchProvider', 'searchProvider(): SearchProvider', 'Marks a function to be used as a search provider in the global search.'],
  ['notationRefiner', 'notationRefiner(column: Column, stats: any, separator: string): bool', 'Refines the biological sequence notation based on company specific rules'],
];

/** What the role check reads of an annotation: as written, with the line (0-based) of each part. */
export interface RoleSubject {
  name: string;
  nameLine: number;
  description?: string;
  tags: string[];
  /** The line naming the role (`tags` or `meta.role`). */
  roleLine(role: string): number;
  inputs: readonly { type: string; name: string; line: number }[];
  outputs: readonly { type: string; name: string; line: number }[];
  /** The `meta.role` values (comma-separated in the annotation). */
  metaRoles: string[];
}

export interface RoleFinding {
  line: number;
  message: string;
}

const TYPE_ALIASES: Record<string, string[]> = { file: ['fileinfo'], dynamic: ['searchprovider'] };
const ROLES = new Map(FUNCTION_ROLES.map(([role, signature]) => [role, signature]));

/** The roles of a function that `grok check` has a signature for: its tags and `meta.role` values. */
export function knownRoles(subject: RoleSubject): string[] {
  return [...new Set([...subject.tags, ...subject.metaRoles])].filter((r) => ROLES.has(r));
}

function normalized(type: string): string {
  return type.toLowerCase().replace(/_/g, '');
}

function matches(actual: string | undefined, expected: string | undefined): boolean {
  if (!actual || !expected) return false;
  const a = normalized(actual.toLowerCase());
  return expected
    .split('|')
    .map((t) => t.trim().toLowerCase())
    .some((e) => e === 'any' || a === normalized(e) || (TYPE_ALIASES[a]?.includes(normalized(e)) ?? false));
}

function parseSignature(signature: string): { inputs: { name: string; type: string }[]; outputs: string[]; variadic: number } {
  const m = /^[^(]+\(([^)]*)\)\s*:\s*(.+)$/.exec(signature);
  if (!m) throw new Error(`Invalid signature format: ${signature}`);
  let variadic = -1;
  const inputs = m[1].trim()
    ? m[1].split(',').map((p, i) => {
        const trimmed = p.trim();
        if (trimmed.startsWith('...')) variadic = i;
        const [name, type] = (trimmed.startsWith('...') ? trimmed.slice(3) : trimmed).split(':').map((s) => s.trim());
        return { name, type: type || 'any' };
      })
    : [];
  return { inputs, outputs: m[2].split('|').map((t) => t.trim()), variadic };
}

/** Where `grok check` finds the function's annotation does not fit `role`, with its wording. */
export function roleFindings(subject: RoleSubject, role: string): RoleFinding[] {
  const signature = ROLES.get(role);
  if (!signature) return [];
  const found: RoleFinding[] = [];
  const at = subject.roleLine(role);
  if (role === 'app' && subject.name) {
    const name = subject.name.toLowerCase();
    if (name.startsWith('app')) found.push({ line: subject.nameLine, message: 'Prefix "App" is not needed. Consider removing it.' });
    if (name.endsWith('app')) found.push({ line: subject.nameLine, message: 'Postfix "App" is not needed. Consider removing it.' });
  }
  if (role === 'fileExporter' && !subject.description) found.push({ line: at, message: 'File exporters should have a description parameter' });
  if (role === 'fileViewer' && !(subject.tags.length === 1 && subject.tags[0] === 'fileViewer') && !subject.metaRoles.includes('fileViewer'))
    found.push({ line: at, message: 'File viewers must have only one tag: "fileViewer"' });
  const parsed = parseSignature(signature);
  const count = parsed.variadic >= 0 ? parsed.variadic : parsed.inputs.length;
  for (let i = 0; i < count; i++) {
    const expected = parsed.inputs[i];
    const actual = subject.inputs[i];
    if (!actual) found.push({ line: at, message: `Input ${i} missing: expected ${expected.name}: ${expected.type}` });
    else if (!matches(actual.type, expected.type))
      found.push({
        line: actual.line,
        message: `Input ${i} mismatch: expected ${expected.type
          .split('|')
          .map((t) => t.trim())
          .join(' | ')}, got ${actual.type}`,
      });
  }
  const expectedOutputs = parsed.outputs.join(' | ');
  if (subject.outputs.length === 0) {
    if (!parsed.outputs.includes('void')) found.push({ line: at, message: `Output missing: expected one of (${expectedOutputs})` });
  } else if (!subject.outputs.some((o) => parsed.outputs.some((e) => matches(o.type, e))))
    found.push({ line: subject.outputs[0].line, message: `Output mismatch: expected one of (${expectedOutputs}), got (${subject.outputs.map((o) => o.type).join(' | ')})` });
  [...subject.inputs, ...subject.outputs].forEach((p, i) => {
    if (!p.name || !p.type) found.push({ line: p.line, message: `Parameter ${i} is incomplete: name=${p.name || '<missing>'}, type=${p.type || '<missing>'}` });
  });
  return found;
}

// What a check of a package finds: `grok check`'s findings (datagrok-tools 6.7.5, bin/commands/check.js),
// each with a stable rule id, the file and line it is about, and grok's wording. Pure.

export type Severity = 'error' | 'warning';

export interface Finding {
  /** Relative to the package folder, '/'-separated. */
  file: string;
  /** 1-based. */
  line: number;
  /** The columns (0-based) the finding is about on its line, when it is about a part of it. */
  start?: number;
  end?: number;
  rule: RuleId;
  severity: Severity;
  message: string;
  /** The function the finding is about, by the name its annotation gives. */
  function?: string;
  /** The quick fix, when the fix is certain. */
  fix?: FindingFix;
}

/** Text edits that fix a finding: each replaces `start`..`end` of a 0-based `line` of the finding's file. */
export interface FindingFix {
  title: string;
  edits: { line: number; start: number; end: number; text: string }[];
}

/** The rules, by stable id, with what each checks (grok check's rule each mirrors, or the trap it names). */
export const RULES = {
  'datagrok-api-import': 'datagrok-api is imported only as datagrok-api/dg, /grok or /ui',
  'external-import': "an import of a webpack external names the external's own path",
  'heavy-import': 'no static import of heavy or test-only libraries',
  'source-map': 'tsconfig.json and webpack.config.js produce source maps',
  'dist-missing': 'dist/package.js and dist/package-test.js are built',
  'npmignore-missing': 'the package has an .npmignore',
  'npmignore-dist': '.npmignore does not ignore dist',
  'npmignore-src': '.npmignore does not ignore src (the package would publish with no functions)',
  'npmignore-webpack': '.npmignore does not ignore webpack.config.js (servers before 1.28 cannot load the package)',
  'file-name': 'source file names use letters, digits, ".", "_" and "-" only',
  'header-tag': "an annotation's tags are known header tags",
  'role-signature': "a function's inputs and outputs fit its role",
  'input-name': 'no input is named function, class or export',
  cache: 'meta.cache and meta.cache.invalidateOn have supported values',
  'package-description': 'package.json has a description',
  'package-properties': "package.json's properties are well formed",
  'package-repository': 'a public package names its repository and author, and is no beta',
  'api-version': 'datagrok-api is required with a version range',
  'platform-library': 'libraries the platform serves are required as "catalog:"',
  sources: "package.json's sources exist and are no files of src/",
  'release-candidate': 'a release candidate depends on a release candidate',
  'annotation-type': "an input's or output's type is one the platform knows",
  'input-parameter': 'each //input: names a parameter of the function below it',
  'parameter-input': 'each parameter of an annotated function has its //input:',
  'decorator-kind': 'a decorator is one of grok.decorators',
  'decorator-option': "a decorator's options are ones datagrok-api declares",
  'function-name': 'no two functions of a package share a name',
  changelog: 'CHANGELOG.md exists, its headings read "## <version> (<yyyy-mm-dd> | WIP)" or "## v.next", and it names the version',
} as const;

export type RuleId = keyof typeof RULES;

/** The rules of the annotation language that grok check does not have (shown with the source "Datagrok"). */
export const EDITOR_RULES: ReadonlySet<RuleId> = new Set<RuleId>(['annotation-type', 'input-parameter', 'parameter-input', 'decorator-kind', 'decorator-option', 'function-name']);

/** The 0-based line of `offset` in `text`. */
export function lineAt(text: string, offset: number): number {
  let line = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The count in one line: `grok check: 1 error, 2 warnings in Demo (see Problems).` */
export function findingsSummary(name: string, findings: readonly Finding[]): string {
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.length - errors;
  if (findings.length === 0) return `grok check: no problems in ${name}.`;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `grok check: ${[errors && plural(errors, 'error'), warnings && plural(warnings, 'warning')].filter(Boolean).join(', ')} in ${name} (see Problems).`;
}

// `grok check` without the CLI: every rule of datagrok-tools 6.7.5's check (bin/commands/check.js) run on
// a package folder, in grok's order, each finding on the line it is about. The texts of files open in an
// editor (`opened`, by path relative to the package) are read instead of the disk's, so findings follow
// unsaved edits. Pure (no vscode): the packages feature, `datagrok.packages.check` and the tests share it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { annotationFindings, duplicateFindings, type NamedFunction, namedFunctions } from './annotationRules';
import { functionFindings, hasAnnotations } from './checkFunctions';
import { changelogFindings, fileNameFindings, npmIgnoreFindings, sourceMapFindings } from './checkFiles';
import { isReleaseCandidate, manifestFindings, type PlatformDep } from './checkManifest';
import { datagrokApiImports, externalImports, heavyImports, webpackExternals } from './checkSources';
import type { Finding, RuleId } from './findings';
import { LineIndex } from './jsScan';
import { packageFunctions } from './packageFunctions';
import { PACKAGE_ENTRY_FILES } from './recognition';
import { walkPackage } from './walk';

export interface PackageCheck {
  folder: string;
  findings: Finding[];
  /** What could not be checked here, and why (shown beside the findings, not counted among them). */
  notes: Finding[];
  /** What a check of one source file needs again (checkSource), and the functions of each file. */
  sources: SourceContext;
  functions: Map<string, NamedFunction[]>;
  /** The source files the check read (those grok walks). */
  sourceFiles: Set<string>;
}

/** What the rules of one source file read of its package. */
export interface SourceContext {
  name: string;
  externals: Record<string, string> | null;
}

/** The rules whose findings on a source file come from that file's text alone (checkSource). */
export const SOURCE_RULES: ReadonlySet<RuleId> = new Set<RuleId>([
  'external-import',
  'datagrok-api-import',
  'heavy-import',
  'header-tag',
  'role-signature',
  'input-name',
  'cache',
  'annotation-type',
  'input-parameter',
  'parameter-input',
  'decorator-kind',
  'decorator-option',
]);

/** The findings of one source file of a package (its imports, its functions), and its functions' names. */
export function checkSource(file: string, text: string, context: SourceContext): { findings: Finding[]; functions: NamedFunction[] } {
  const findings: Finding[] = [];
  if (context.externals) findings.push(...externalImports(file, text, context.externals));
  findings.push(...datagrokApiImports(file, text), ...heavyImports(file, text, context.name));
  if (!hasAnnotations(file)) return { findings, functions: [] };
  findings.push(...functionFindings(file, text));
  const functions = packageFunctions(text);
  findings.push(...annotationFindings(file, functions, new LineIndex(text)));
  return { findings, functions: namedFunctions(file, functions) };
}

/** Folders grok's script-name rule leaves out (check.js `getAllFilesInDirectory`). */
const NAME_CHECK_EXCLUDED = ['node_modules', 'dist', 'files', 'fixtures', 'data', 'templates', 'test-data', 'scenarios', 'samples', 'demo', 'docs', 'documentation'];

function allFiles(root: string): string[] {
  const found: string[] = [];
  const visit = (dir: string, rel: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const entryRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isFile()) found.push(entryRel);
      else if (e.isDirectory() && e.name !== '.git' && !NAME_CHECK_EXCLUDED.includes(e.name.toLowerCase())) visit(path.join(dir, e.name), entryRel);
    }
  };
  visit(root, '');
  return found;
}

/** @datagrok/build-config/platform-deps.json as Node resolves it from the package; undefined when not installed. */
function platformDeps(folder: string): Record<string, PlatformDep> | undefined {
  for (let dir = folder; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'node_modules', '@datagrok', 'build-config', 'platform-deps.json');
    if (existsSync(file)) {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as Record<string, PlatformDep>;
      } catch {
        return {};
      }
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

export function checkPackage(folder: string, opened: ReadonlyMap<string, string> = new Map()): PackageCheck {
  const read = (rel: string): string | undefined => {
    const text = opened.get(rel);
    if (text !== undefined) return text;
    try {
      return readFileSync(path.join(folder, rel), 'utf8');
    } catch {
      return undefined;
    }
  };
  const exists = (rel: string) => opened.has(rel) || existsSync(path.join(folder, rel));
  const findings: Finding[] = [];
  const notes: Finding[] = [];
  const manifestText = read('package.json') ?? '{}';
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(manifestText) as Record<string, unknown>;
  } catch (e) {
    return {
      folder,
      findings: [{ file: 'package.json', line: 1, rule: 'package-description', severity: 'error', message: `package.json is not valid JSON: ${(e as Error).message}` }],
      notes,
      sources: { name: path.basename(folder), externals: null },
      functions: new Map(),
      sourceFiles: new Set(),
    };
  }
  const version = String(json.version ?? '0.0.0');
  const webpack = read('webpack.config.js');
  const isWebpack = webpack !== undefined;
  const externals = webpack !== undefined ? webpackExternals(webpack) : null;
  const context: SourceContext = { name: path.basename(folder), externals };
  const functions = new Map<string, NamedFunction[]>();
  const sourceFiles = new Set(walkPackage(folder).filter((f) => /\.(js|ts|sql|py)$/.test(f)));
  for (const file of sourceFiles) {
    const text = read(file);
    if (text === undefined) continue;
    const source = checkSource(file, text, context);
    findings.push(...source.findings);
    if (source.functions.length > 0) functions.set(file, source.functions);
  }
  findings.push(...duplicateFindings([...functions.values()].flat()));
  findings.push(...sourceMapFindings(read('tsconfig.json'), webpack, exists));
  findings.push(...npmIgnoreFindings(read('.npmignore'), isWebpack, PACKAGE_ENTRY_FILES.find(exists)));
  findings.push(...fileNameFindings(allFiles(folder)));
  const deps = platformDeps(folder);
  if (deps === undefined)
    notes.push({
      file: 'package.json',
      line: 1,
      rule: 'platform-library',
      severity: 'warning',
      message:
        'Not checked here: which libraries the platform serves (grok reads @datagrok/build-config/platform-deps.json, which is not installed for this package). Install the dependencies to check them.',
    });
  const isPublic = path.basename(path.dirname(folder)) === 'packages' && path.basename(path.dirname(path.dirname(folder))) === 'public';
  findings.push(...manifestFindings(manifestText, json, { isPublic, isWebpack, externals, platformDeps: deps, exists }));
  if (!isReleaseCandidate(version) && !version.startsWith('0.') && !json.servicePackage) findings.push(...changelogFindings(read('CHANGELOG.md'), version));
  return { folder, findings, notes, sources: context, functions, sourceFiles };
}

/** The check again after an edit of one source file (`text`, the editor's): that file's findings and the duplicate names. */
export function recheckSource(last: PackageCheck, file: string, text: string): PackageCheck {
  const source = checkSource(file, text, last.sources);
  const functions = new Map(last.functions);
  if (source.functions.length > 0) functions.set(file, source.functions);
  else functions.delete(file);
  const kept = last.findings.filter((f) => !(f.file === file && SOURCE_RULES.has(f.rule)) && f.rule !== 'function-name');
  return { ...last, findings: [...kept, ...source.findings, ...duplicateFindings([...functions.values()].flat())], functions };
}

/** Whether `rel` (relative to a package) is a file whose text the check reads: what to re-check when it changes. */
export function isCheckedFile(rel: string): boolean {
  return (
    ['package.json', '.npmignore', '.gitignore', 'CHANGELOG.md', 'webpack.config.js', 'tsconfig.json'].includes(rel) || /^(src|queries|scripts)\/.*\.(js|ts|sql|py)$/.test(rel)
  );
}

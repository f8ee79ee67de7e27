// `grok check`'s rules on package.json (datagrok-tools check.js `checkPackageFile`): description,
// properties, repository and author of a public package, the datagrok-api version range, libraries the
// platform serves (`catalog:`), `sources`, release candidates. Each finding on the line of the field it is
// about (line 1 when the field is missing). Pure: takes the texts; `platformDeps` is what
// @datagrok/build-config/platform-deps.json lists, or undefined when it is not installed.
import { jsoncParser } from '../lazyModules';
import { type Finding, lineAt, type RuleId, type Severity } from './findings';

const FILE = 'package.json';
const PROPERTY_TYPES = ['bool', 'int', 'double', 'string', 'datetime', 'object', 'column', 'dataframe', 'bitset', 'cell', 'string_list', 'map'];
const ABSOLUTE_URL = /^(?:[a-z+]+:)?\/\//i;
const RC = /\d+.\d+.\d+-rc(.[A-Za-z0-9]*.[A-Za-z0-9]*)?/;

export interface PlatformDep {
  version?: string;
  global?: string;
  source?: string;
  imports?: Record<string, string>;
}

export interface ManifestContext {
  /** The package sits at `public/packages/<name>` (Datagrok's public repository). */
  isPublic: boolean;
  isWebpack: boolean;
  externals: Record<string, string> | null;
  platformDeps: Record<string, PlatformDep> | undefined;
  exists(rel: string): boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: package.json is read field by field, as grok reads it
type Json = Record<string, any>;

export function isReleaseCandidate(version: string): boolean {
  return RC.test(version);
}

export function manifestFindings(text: string, json: Json, c: ManifestContext): Finding[] {
  const found: Finding[] = [];
  const tree = jsoncParser().parseTree(text);
  const lineOf = (...pathParts: (string | number)[]) => {
    const node = tree && jsoncParser().findNodeAtLocation(tree, pathParts);
    const at = node?.parent?.type === 'property' ? node.parent : node;
    return at ? lineAt(text, at.offset) + 1 : 1;
  };
  const add = (line: number, rule: RuleId, message: string, severity: Severity = 'error') => found.push({ file: FILE, line, rule, severity, message });
  const version = String(json.version ?? '');
  if (!json.description) add(lineOf('description'), 'package-description', '"description" field is empty. Provide a package description.');
  if (Array.isArray(json.properties))
    json.properties.forEach((p: unknown, i: number) => {
      const line = lineOf('properties', i);
      if (typeof p !== 'object' || p === null) add(line, 'package-properties', 'Invalid property annotation in the "properties" field.');
      else if (!(p as Json).name) add(line, 'package-properties', 'Add a property name for each property in the "properties" field.');
      else if (!PROPERTY_TYPES.includes((p as Json).propertyType)) add(line, 'package-properties', `Invalid property type for property ${(p as Json).name}.`);
    });
  if (c.isPublic) {
    if (json.repository == null) add(1, 'package-repository', 'add the "repository" field.');
    if (json.author == null) add(1, 'package-repository', 'add the "author" field.');
    if (version.includes('beta')) add(lineOf('version'), 'package-repository', 'public package cannot be beta version.');
  }
  const api = json.dependencies?.['datagrok-api'];
  if (typeof api === 'string' && api !== '../../js-api') {
    const line = lineOf('dependencies', 'datagrok-api');
    if (api === 'latest') add(line, 'api-version', 'you should specify Datagrok API version constraint (for example ^1.16.0, >=1.16.0).');
    else if (!isReleaseCandidate(version) && !/^(\^|>|<|~|workspace:|catalog:).+/.test(api))
      add(line, 'api-version', 'Datagrok API version should starts with > | >= | ~ | ^ | < | <=', 'warning');
  }
  for (const section of ['dependencies', 'devDependencies'])
    for (const [name, spec] of Object.entries((json[section] ?? {}) as Json)) {
      const served = c.platformDeps?.[name];
      if (served && typeof spec === 'string' && !spec.startsWith('catalog:'))
        add(
          lineOf(section, name),
          'platform-library',
          `"${name}" is served by the platform (${served.version}, see build-config/platform-deps.json); "${spec}" overrides it. Use "catalog:" unless the override is intended.`,
          'warning',
        );
    }
  if (Array.isArray(json.sources)) found.push(...sourceFindings(json.sources, c, (i) => lineOf('sources', i)));
  if (isReleaseCandidate(version)) {
    const deps = (json.dependencies ?? {}) as Json;
    const dev = (json.devDependencies ?? {}) as Json;
    if (!Object.keys(deps).some((d) => RC.test(String(deps[d])) || RC.test(String(dev[d] ?? ''))))
      add(lineOf('version'), 'release-candidate', 'Release candidate error: Current package doesnt have any dependencies from any release candidate package');
  }
  return found;
}

/** For each `common/*.js` source: the externals a bundled package must declare (check.js `sharedLibExternals`). */
function sharedExternals(deps: Record<string, PlatformDep>): Record<string, Record<string, string>> {
  const result: Record<string, Record<string, string>> = {};
  for (const [name, d] of Object.entries(deps)) if (d.source) result[d.source] = { [name]: d.global ?? '', ...d.imports };
  return result;
}

function sourceFindings(sources: unknown[], c: ManifestContext, lineOf: (i: number) => number): Finding[] {
  const shared = sharedExternals(c.platformDeps ?? {});
  return sources.flatMap((source, i) =>
    sourceMessages(source, c, shared).map((message): Finding => ({ file: FILE, line: lineOf(i), rule: 'sources', severity: 'error', message })),
  );
}

function sourceMessages(source: unknown, c: ManifestContext, shared: Record<string, Record<string, string>>): string[] {
  if (typeof source !== 'string') return [`Only file paths and URLs are allowed in sources. Modify the source ${String(source)}`];
  if (ABSOLUTE_URL.test(source)) return [];
  if (source.startsWith('common/')) {
    if (!c.isWebpack || !source.endsWith('.js')) return [];
    const expected = shared[source];
    const externals = c.externals;
    if (!externals) {
      const hint = expected ? `: '${Object.keys(expected)[0]}': '${Object.values(expected)[0]}'` : '';
      return [`Webpack config parsing: External modules not found. Consider adding source "${source}" to webpack externals${hint}`];
    }
    if (!expected) return [`source "${source}" not in the list of shared libraries`];
    if (Object.entries(expected).some(([lib, global]) => externals[lib] === global)) return [];
    const [lib, global] = Object.entries(expected)[0];
    return [`Webpack config parsing: Consider adding source "${source}" to webpack externals: '${lib}': '${global}'`];
  }
  const messages: string[] = [];
  if (source.startsWith('src/') && c.isWebpack) messages.push(`Sources cannot include files from the \`src/\` directory. Move file ${source} to another folder.`);
  if (!c.exists(source)) messages.push(`Source ${source} not found in the package.`);
  return messages;
}

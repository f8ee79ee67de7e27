// The functions a published package declares, read as a Datagrok server reads them: from the `//` comment
// block right above each exported function in the package's entry sources. A bundled package's
// `dist/package.js` is minified (its comments gone), which is why `grok publish` still sends `src/package*`
// for a bundled package (publish.js: only `src/package…` of `src/` when bundled) and why `src` in
// `.npmignore` publishes a package with no functions. The files read: `package.js` and `detectors.js` at
// the root, and under `src/` `package*.ts|js` (`package.ts`, the decorators' generated `package.g.ts`,
// `package-test.ts`) and `detectors.ts|js` (datagrok-tools check.js `packageFiles`, plus `package.g.ts`).
// Kept apart from the extension's own parser (src/platform/packages/annotations.ts) on purpose: the
// emulator stands for the server the extension is tested against.
import { type FuncParam, input, output, type PropertyType } from './func-catalog';

export interface PackageFunction {
  /** The function's name on the server (`//name:`, else the exported name). */
  name: string;
  /** The exported JavaScript name the bundle is called by. */
  exportName: string;
  description: string;
  tags: string[];
  role?: string;
  inputs: FuncParam[];
  outputs: FuncParam[];
}

/** Whether a file in the archive is one the server reads functions from. */
export function isEntrySource(file: string): boolean {
  if (file.endsWith('.d.ts')) return false;
  return /^(package|detectors)\.js$/.test(file) || /^src\/(package[\w.-]*|detectors)\.(ts|js)$/.test(file);
}

/** What starts a function declaration (datagrok-tools check.js `getFuncMetadata`). */
const FUNCTION_START = /^(?:export\s+)?(?:async\s+)?function\s*\*?\s*(\w+)\s*\(|^(?:export\s+)?(?:const|let)\s+(\w+)\s*=\s*(?:async\s*)?\(/;

const TYPES: Record<string, PropertyType> = {
  int: 'int',
  bigint: 'int',
  double: 'double',
  num: 'double',
  string: 'string',
  bool: 'bool',
  dataframe: 'dataframe',
  column: 'column',
  datetime: 'datetime',
  list: 'list',
};

/** `//input: type name [= value] [{options}] [description]` (and `//output:`) as a parameter. */
function parameter(kind: 'input' | 'output', spec: string): FuncParam | undefined {
  const m = /^(\w+)(?:<[^>]*>)?\s+(\w+)\s*(?:=\s*("[^"]*"|[^\s{[]+))?\s*(\{[^}]*\})?\s*(?:\[(.*)\])?/.exec(spec.trim());
  if (!m) return undefined;
  const type = TYPES[m[1].toLowerCase()] ?? 'dynamic';
  const description = m[5]?.trim() ?? '';
  if (kind === 'output') return output(m[2], type, description);
  const options = m[4] ?? '';
  const nullable = /\boptional\s*:\s*true|\bnullable\s*:\s*true/.test(options);
  const raw = m[3]?.replace(/^"(.*)"$/, '$1');
  const defaultValue = raw === undefined ? undefined : type === 'int' || type === 'double' ? Number(raw) : type === 'bool' ? raw === 'true' : raw;
  const choices = /\bchoices\s*:\s*\[([^\]]*)\]/.exec(options)?.[1];
  return input(m[2], type, description, {
    defaultValue,
    nullable: nullable || undefined,
    choices: choices ? choices.split(',').map((c) => c.trim().replace(/^["']|["']$/g, '')) : undefined,
  });
}

/** The functions one source file declares, in the order of its lines. */
export function functionsOf(text: string): PackageFunction[] {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const found: PackageFunction[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = FUNCTION_START.exec(lines[i]);
    if (!m) continue;
    let first = i;
    while (first > 0 && lines[first - 1].startsWith('//')) first--;
    if (first === i) continue; // no annotation: not a platform function
    const fn: PackageFunction = { name: '', exportName: m[1] ?? m[2], description: '', tags: [], inputs: [], outputs: [] };
    let annotated = false;
    for (const line of lines.slice(first, i)) {
      const a = /^\/\/\s*([\w.-]+)\s*:\s*(.*)$/.exec(line);
      if (!a) continue;
      const [key, value] = [a[1], a[2].trim()];
      annotated = true;
      if (key === 'name') fn.name = value;
      else if (key === 'description') fn.description = value;
      else if (key === 'tags')
        fn.tags.push(
          ...value
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        );
      else if (key === 'meta.role') fn.role = value;
      else if (key === 'input' || key === 'output') {
        const p = parameter(key, value);
        if (p) (key === 'input' ? fn.inputs : fn.outputs).push(p);
      } else annotated = annotated || key.startsWith('meta.');
    }
    if (!annotated) continue;
    fn.name ||= fn.exportName;
    found.push(fn);
  }
  return found;
}

/** Every function the package's entry sources declare; a name declared twice counts once (the first). */
export function packageFunctions(files: Map<string, Buffer>): PackageFunction[] {
  const all = [...files.keys()]
    .filter(isEntrySource)
    .sort()
    .flatMap((f) => functionsOf((files.get(f) as Buffer).toString('utf8')));
  const seen = new Set<string>();
  return all.filter((f) => !seen.has(f.name.toLowerCase()) && seen.add(f.name.toLowerCase()));
}

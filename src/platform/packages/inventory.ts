// What a package declares, as written: its name and version (package.json) and its functions — the
// annotated functions of its JS/TS files (the comment headers annotations.ts reads and the
// `@grok.decorators` packageFunctions.ts reads), its scripts
// (`scripts/*`, one header each) and its queries (`queries/*.sql`, a `--name:` block each) — with the file
// and line of each annotation, for the Packages view. The files are the ones grok reads (walk.ts). Pure
// (no vscode): the texts of files open in an editor can be given instead of the disk's.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseHeaderBlock, parseScriptHeader, type ScriptHeader } from '../scripts/header';
import { prefixOfFile } from '../scripts/vocabulary';
import { annotationBlocks, isAnnotation, roleSubject } from './annotations';
import { hasAnnotations } from './checkFunctions';
import { packageFunctions } from './packageFunctions';
import { knownRoles } from './roles';
import { walkPackage } from './walk';

export type PackageFunctionKind = 'function' | 'script' | 'query';

export interface PackageFunction {
  name: string;
  kind: PackageFunctionKind;
  /** The roles it declares (`meta.role`, or a role among its tags). */
  roles: string[];
  inputs: { type: string; name: string }[];
  outputs: { type: string; name: string }[];
  description?: string;
  /** The file, '/'-separated and relative to the package, and the 0-based line of its `name:` annotation. */
  file: string;
  line: number;
}

export interface LocalPackage {
  /** The package's folder (absolute). */
  folder: string;
  /** `name` of package.json (the folder's name when it has none). */
  name: string;
  /** `friendlyName` of package.json, when set. */
  friendlyName?: string;
  /** `version` of package.json ('' when it has none). */
  version: string;
  functions: PackageFunction[];
}

/** Reads the package in `folder`; `opened` holds the texts of files open in an editor, by path relative to it. */
export function readPackage(folder: string, opened: ReadonlyMap<string, string> = new Map()): LocalPackage {
  const read = (rel: string): string | undefined => {
    const text = opened.get(rel);
    if (text !== undefined) return text;
    try {
      return readFileSync(path.join(folder, ...rel.split('/')), 'utf8');
    } catch {
      return undefined;
    }
  };
  let json: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(read('package.json') ?? '{}') as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
  } catch {
    // A package.json being edited: the folder's name stands for it until it parses again.
  }
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const functions: PackageFunction[] = [];
  let files: string[] = [];
  try {
    files = walkPackage(folder);
  } catch {
    files = [];
  }
  for (const file of files) {
    const content = read(file);
    if (content === undefined) continue;
    functions.push(...functionsOfFile(file, content));
  }
  return { folder, name: text(json.name) ?? path.basename(folder), friendlyName: text(json.friendlyName), version: text(json.version) ?? '', functions };
}

/** The functions one file of a package declares (`file` relative to the package, '/'-separated). */
export function functionsOfFile(file: string, content: string): PackageFunction[] {
  if (file.startsWith('src/')) return hasAnnotations(file) ? sourceFunctions(file, content) : [];
  if (file.startsWith('queries/') && file.endsWith('.sql')) return queryFunctions(file, content);
  if (file.startsWith('scripts/')) {
    const prefix = prefixOfFile(file);
    const header = prefix ? parseScriptHeader(content, prefix) : undefined;
    const name = header?.value('name');
    return header && name ? [fromHeader(header, file, 'script', name)] : [];
  }
  return [];
}

function sourceFunctions(file: string, content: string): PackageFunction[] {
  const found: PackageFunction[] = [];
  for (const block of annotationBlocks(content)) {
    if (!isAnnotation(block)) continue;
    const name = block.header.value('name') ?? block.declared?.name;
    if (!name || (!block.declared && block.header.value('name') === undefined)) continue;
    found.push(fromHeader(block.header, file, 'function', name));
  }
  if (!content.includes('@grok.decorators.')) return found;
  // Decorated methods and classes: the role their decorator gives or their meta.role, the inputs as generated.
  for (const f of packageFunctions(content)) {
    if (f.form !== 'decorator') continue;
    const io = (params: typeof f.inputs) => params.map((p) => ({ type: p.type, name: p.name }));
    found.push({ name: f.name, kind: 'function', roles: f.roles, inputs: io(f.inputs), outputs: io(f.outputs), description: f.description, file, line: f.firstLine });
  }
  return found.sort((a, b) => a.line - b.line);
}

/** A `.sql` file holds one query per `--name:` block. */
function queryFunctions(file: string, content: string): PackageFunction[] {
  const lines = content.split(/\r?\n/);
  const found: PackageFunction[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trimStart().startsWith('--')) continue;
    const first = i;
    while (i + 1 < lines.length && lines[i + 1].trimStart().startsWith('--')) i++;
    const header = parseHeaderBlock(lines, first, i, '--');
    const name = header.value('name');
    if (name) found.push(fromHeader(header, file, 'query', name));
  }
  return found;
}

function fromHeader(header: ScriptHeader, file: string, kind: PackageFunctionKind, name: string): PackageFunction {
  const subject = roleSubject(header);
  return {
    name,
    kind,
    roles: kind === 'function' ? [...new Set([...subject.metaRoles, ...knownRoles(subject)])] : [],
    inputs: header.inputs.map((p) => ({ type: p.type, name: p.name })),
    outputs: header.outputs.map((p) => ({ type: p.type, name: p.name })),
    description: header.value('description'),
    file,
    line: header.entries.find((e) => e.key === 'name')?.line ?? header.firstLine,
  };
}

/** `inputs → outputs` as the view shows it: `(table: dataframe, n: int) → widget: widget`. */
export function signatureText(f: Pick<PackageFunction, 'inputs' | 'outputs'>): string {
  const params = (list: PackageFunction['inputs']) => list.map((p) => `${p.name}: ${p.type}`).join(', ');
  const out = f.outputs.length === 0 ? 'void' : f.outputs.length === 1 ? params(f.outputs) : `(${params(f.outputs)})`;
  return `(${params(f.inputs)}) → ${out}`;
}

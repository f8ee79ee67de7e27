// The function annotations of a package's JavaScript or TypeScript file, as `grok check` and the
// server's function-metadata generator find them: the `//` comment block directly above a function
// declaration (`function f(`, `export async function f(`, `export const f = (…) =>`), and the file's
// leading `//` block (a script's header). Each block is parsed by the script-header grammar
// (src/platform/scripts/header.ts `parseHeaderBlock`): one grammar for scripts, queries and package
// functions. Decorators (`@grok.decorators.func({...})`) are not read here yet. Pure: positions are 0-based.
import { parseHeaderBlock, type ScriptHeader } from '../scripts/header';
import type { RoleSubject } from './roles';

/** datagrok-tools bin/commands/check.js `getFuncMetadata`: what starts a function, on a trimmed line. */
const FUNCTION_START = /^\s*function\s+(\w+)\s*\(|^\s*(?:export\s+)?(?:async\s+)?function\s+(\w+)\s*\(|^\s*(?:export\s+)?(?:const|let)\s+(\w+)\s*=\s*\(.*\)\s*=>/;
/** Keys that make a block a function's annotation for `grok check` (its `hasContent`). */
const ANNOTATION_KEYS = new Set(['name', 'description', 'input', 'output', 'tags', 'meta.role', 'meta.cache', 'meta.cache.invalidateOn', 'meta.invalidateOn']);

export interface AnnotationBlock {
  header: ScriptHeader;
  /** The function declared right below the block, when one is (the file's leading block may have none). */
  declared?: { name: string; line: number };
}

/** The comment blocks `grok check` reads in a JS/TS file, in the order of their lines. */
export function annotationBlocks(text: string): AnnotationBlock[] {
  const lines = text.split(/\r?\n/);
  const blocks = new Map<number, AnnotationBlock>();
  const add = (first: number, last: number, declared?: AnnotationBlock['declared']) => {
    if (last < first) return;
    const known = blocks.get(first);
    if (known) known.declared ??= declared;
    else blocks.set(first, { header: parseHeaderBlock(lines, first, last, '//'), declared });
  };
  let leading = 0;
  while (leading < lines.length && lines[leading].trim().startsWith('//')) leading++;
  add(0, leading - 1);
  for (let i = leading; i < lines.length; i++) {
    const m = FUNCTION_START.exec(lines[i].trim());
    if (!m) continue;
    let first = i;
    while (first > 0 && lines[first - 1].trim().startsWith('//')) first--;
    add(first, i - 1, { name: m[1] ?? m[2] ?? m[3], line: i });
  }
  return [...blocks.values()].sort((a, b) => a.header.firstLine - b.header.firstLine);
}

/** Whether `grok check` reads the block as a function's annotation (rather than a plain comment). */
export function isAnnotation(block: AnnotationBlock): boolean {
  return block.header.entries.some((e) => ANNOTATION_KEYS.has(e.key));
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/** The annotation as the role check reads it. */
export function roleSubject(header: ScriptHeader): RoleSubject {
  const entry = (key: string) => header.entries.find((e) => e.key === key);
  const tags = list(header.value('tags'));
  const metaRoles = list(header.value('meta.role'));
  return {
    name: header.value('name') ?? '',
    nameLine: entry('name')?.line ?? header.firstLine,
    description: header.value('description'),
    tags,
    metaRoles,
    roleLine: (role) => (tags.includes(role) ? entry('tags')?.line : undefined) ?? entry('meta.role')?.line ?? entry('tags')?.line ?? header.firstLine,
    inputs: header.inputs.map((p) => ({ type: p.type, name: p.name, line: p.line })),
    outputs: header.outputs.map((p) => ({ type: p.type, name: p.name, line: p.line })),
  };
}

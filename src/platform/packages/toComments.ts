// Convert to comment annotations: a decorated static method becomes an `export function` after its class
// (the class goes when it is left empty), under the `//` annotation the generator (func-gen-plugin,
// func-generation.js `getFuncAnnotation`) would write for it: name, description, tags, the inputs (the
// parameters, with their `@grok.decorators.param`), the outputs, `meta.*` (the role a role decorator adds
// included), the other options. Pure.
import { camelRole, DECORATORS, NON_META_OPTIONS, OPTION_TO_ANNOTATION } from './annotationVocabulary';
import { type Conversion, codeOf, extendOverBlankLine, enclosingClass, indent, lineEnd, lineStart, paramTexts } from './conversion';
import { annotationText, option } from './decorators';
import type { PackageFunction } from './functionModel';
import { isObjectLiteral } from './jsScan';

const OWN_LINES = ['name', 'description', 'tags', 'meta', 'outputs', 'result'];

function optionsText(options: Record<string, string>): string {
  const entries = Object.entries(options);
  return entries.length > 0 ? ` {${entries.map(([k, v]) => `${k}: ${v}`).join('; ')}}` : '';
}

/** The `//` annotation the generator writes for a decorated function. */
export function generatedAnnotation(f: PackageFunction): string[] {
  const options = f.decorator?.options;
  const lines: string[] = [];
  const name = option(options, 'name');
  if (typeof name === 'string' && name) lines.push(`//name: ${name}`);
  const description = option(options, 'description');
  if (description !== undefined && description !== null) lines.push(`//description: ${annotationText(description)}`);
  if (f.tags.length > 0) lines.push(`//tags: ${f.tags.join(', ')}`);
  for (const p of f.inputs) lines.push(`//input: ${p.type} ${p.name}${p.initialText !== undefined ? ` = ${p.initialText}` : ''}${optionsText(p.options)}`);
  for (const p of f.outputs) lines.push(`//output: ${p.type} ${p.name}${optionsText(p.options)}`);
  const meta = option(options, 'meta');
  const metaEntries: [string, string][] = isObjectLiteral(meta) ? meta.entries.map((e) => [OPTION_TO_ANNOTATION[e.key] ?? e.key, annotationText(e.value)]) : [];
  const role = f.decorator && DECORATORS[f.decorator.kind]?.role;
  if (role) {
    const at = metaEntries.find(([k]) => k === 'role');
    if (at) at[1] = `${at[1]},${camelRole(role)}`;
    else metaEntries.push(['role', camelRole(role)]);
  }
  for (const [k, v] of metaEntries) lines.push(`//meta.${k}: ${v}`);
  for (const e of options?.entries ?? []) {
    if (OWN_LINES.includes(e.key)) continue;
    const key = OPTION_TO_ANNOTATION[e.key] ?? e.key;
    lines.push(NON_META_OPTIONS.includes(e.key) || NON_META_OPTIONS.includes(key) ? `//${key}: ${annotationText(e.value)}` : `//meta.${key}: ${annotationText(e.value)}`);
  }
  return lines;
}

export function toComments(text: string, f: PackageFunction): Conversion {
  const d = f.decorator;
  if (f.form !== 'decorator' || !d) return { refused: 'it is not decorated' };
  if (d.target === 'class') return { refused: 'a decorated class is registered through a function the generator writes; its decorator stays' };
  if (!DECORATORS[d.kind]) return { refused: `grok.decorators has no "${d.kind}"` };
  const code = codeOf(text, f);
  const cls = enclosingClass(text, d.at);
  if (!code || !cls) return { refused: 'its method and class could not be read' };
  if (/\bthis\b/.test(text.slice(code.bodyOpen, code.bodyClose))) return { refused: 'its body uses `this`, which a function outside the class would not have' };
  const removeStart = lineStart(text, d.at);
  const removeEnd = extendOverBlankLine(text, removeStart, lineEnd(text, code.bodyClose));
  const methodIndent = /^\s*/.exec(text.slice(lineStart(text, code.paramsOpen)))?.[0].length ?? 2;
  const classIndent = /^\s*/.exec(text.slice(lineStart(text, cls.start)))?.[0].length ?? 0;
  const async = /\basync\b/.test(d.modifiers) ? 'async ' : '';
  const fn = [
    ...generatedAnnotation(f),
    `export ${async}function ${f.declared.name}(${paramTexts(text, code.paramsOpen, code.paramsClose).join(', ')}${indent(text.slice(code.paramsClose, code.bodyClose + 1), classIndent - methodIndent)}`,
  ].join('\n');
  const left = (text.slice(cls.open + 1, removeStart) + text.slice(removeEnd, cls.close)).replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
  if (left.trim() === '') return { edits: [{ start: lineStart(text, cls.start), end: lineEnd(text, cls.close), text: `${fn}\n` }] };
  const after = lineEnd(text, cls.close);
  return {
    edits: [
      { start: removeStart, end: removeEnd, text: '' },
      { start: after, end: after, text: `\n${fn}\n` },
    ],
  };
}

// Convert to decorator: a comment-annotated `export function` becomes a static method of the file's
// `export class PackageFunctions` (made where the function was when the file has none) with
// `@grok.decorators.func({...})` saying what the comments said, so that the generator (func-gen-plugin)
// writes the same annotation back: inputs become the parameters (a `@grok.decorators.param` where the
// type, name or options are not what the TypeScript type gives), outputs the `outputs` option. What a
// decorator cannot say is refused with the reason. Pure.
import type { HeaderParam } from '../scripts/header';
import { annotationType, NON_META_OPTIONS } from './annotationVocabulary';
import { type Conversion, codeOf, extendOverBlankLine, indent, jsKey, jsObject, jsString, jsValue, lineEnd, lineStart, paramTexts, type TextEdit } from './conversion';
import type { PackageFunction } from './functionModel';
import { closingOf } from './jsScan';

const CLASS_NAME = 'PackageFunctions';
/** Keys that become an option of the same name (the rest of the header's keys: `meta.*`, inputs, outputs, tags). */
const SAME_KEYS = new Set(['name', 'description', 'friendlyName', ...NON_META_OPTIONS]);

function options(p: HeaderParam): [string, string][] {
  const entries: [string, string][] = Object.entries(p.options)
    .filter(([k]) => !(k === 'description' && p.description !== undefined))
    .map(([k, v]) => [k, jsValue(v)]);
  if (p.initialText !== undefined) entries.unshift(['initialValue', jsValue(p.initialText)]);
  if (p.description !== undefined) entries.push(['description', jsString(p.description)]);
  return entries;
}

/** The decorator's options object for the header's entries, or why one cannot say them. */
function decoratorOptions(f: PackageFunction, returnsValue: boolean): string | { refused: string } {
  const header = f.header;
  if (!header) return { refused: 'it has no comment annotation' };
  const lines: string[] = [];
  const meta: [string, string][] = [];
  for (const e of header.entries) {
    if (e.key === 'input' || e.key === 'output') continue;
    if (e.key === 'tags')
      lines.push(
        `tags: [${e.value
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
          .map(jsString)
          .join(', ')}],`,
      );
    else if (e.key.startsWith('meta.')) meta.push([e.key.slice(5), jsString(e.value)]);
    else if (SAME_KEYS.has(e.key)) lines.push(`${jsKey(e.key)}: ${jsString(e.value)},`);
    else return { refused: `a decorator has no option for "//${e.key}:" (the generator would write it as "meta.${e.key}")` };
  }
  if (meta.length > 0) lines.push(`meta: ${jsObject(meta)},`);
  if (f.outputs.length > 0)
    lines.push(
      `outputs: [${f.outputs
        .map((o) => {
          const opts = options(o);
          return jsObject([['name', jsString(o.name)], ['type', jsString(o.type)], ...(opts.length > 0 ? ([['options', jsObject(opts)]] as [string, string][]) : [])]);
        })
        .join(', ')}],`,
    );
  else if (returnsValue) lines.push('outputs: [],');
  return lines.length === 0 ? '{}' : `{\n${lines.map((l) => `    ${l}`).join('\n')}\n  }`;
}

export function toDecorator(text: string, f: PackageFunction): Conversion {
  if (f.form !== 'comment' || !f.header) return { refused: 'it is not annotated by comments' };
  const code = codeOf(text, f);
  const declStart = lineStart(text, code?.paramsOpen ?? 0);
  const decl = /^(\s*)export\s+(async\s+)?function\s*(\*?)\s*([A-Za-z_$][\w$]*)\s*(<[^>]*>)?\s*\($/.exec(text.slice(declStart, (code?.paramsOpen ?? 0) + 1));
  if (!code || !decl) return { refused: 'only an `export function` declaration can become a static method' };
  if (/\bthis\b/.test(text.slice(code.bodyOpen, code.bodyClose))) return { refused: 'its body uses `this`, which a static method would change' };
  const params = paramTexts(text, code.paramsOpen, code.paramsClose);
  if (f.inputs.length !== params.length)
    return { refused: `it has ${f.inputs.length} input(s) and ${params.length} parameter(s): a decorator's inputs are the method's parameters` };
  const written = params.map((p, i) => {
    const input = f.inputs[i];
    const param = f.params[i];
    const entries: [string, string][] = [];
    if (param && input.name !== param.name) entries.push(['name', jsString(input.name)]);
    if (input.type !== annotationType(param?.type)) entries.push(['type', jsString(input.type)]);
    const opts = options(input);
    if (opts.length > 0) entries.push(['options', jsObject(opts)]);
    return entries.length > 0 ? `@grok.decorators.param(${jsObject(entries)}) ${p}` : p;
  });
  // Decorated parameters one a line, as Datagrok's packages write them.
  const paramList = written.some((w, i) => w !== params[i]) ? `\n    ${written.join(',\n    ')},\n  ` : written.join(', ');
  const returnType = f.returnType;
  const returnsValue = returnType !== undefined && annotationType(returnType) !== 'void';
  const opts = decoratorOptions(f, returnsValue);
  if (typeof opts !== 'string') return opts;
  const tail = text.slice(code.paramsClose, code.bodyClose + 1);
  const method = `  @grok.decorators.func(${opts})\n  static ${decl[2] ?? ''}${decl[3]}${decl[4]}${decl[5] ?? ''}(${paramList}${indent(tail, 2)}`;
  const blockStart = offsetOfLine(text, f.firstLine);
  const remove: TextEdit = { start: blockStart, end: extendOverBlankLine(text, blockStart, lineEnd(text, code.bodyClose)), text: '' };
  const existing = new RegExp(`^export\\s+class\\s+${CLASS_NAME}\\b[^{]*\\{`, 'm').exec(text);
  if (existing) {
    const close = closingOf(text, existing.index + existing[0].length - 1);
    if (close > 0) {
      const at = lineStart(text, close);
      return { edits: [{ start: at, end: at, text: `\n${method}\n` }, remove].sort((a, b) => a.start - b.start) };
    }
  }
  return { edits: [{ ...remove, text: `export class ${CLASS_NAME} {\n${method}\n}\n` }] };
}

/** The offset where 0-based line `line` starts. */
export function offsetOfLine(text: string, line: number): number {
  let offset = 0;
  for (let i = 0; i < line && offset >= 0; i++) offset = text.indexOf('\n', offset) + 1;
  return offset;
}

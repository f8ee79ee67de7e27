// Hover in a package's function annotations: what a key, a type, a role, a decorator or an option means,
// and an input's summary with the parameter it is passed to.
import * as vscode from 'vscode';
import { DECORATOR_OPTIONS, DECORATORS, PACKAGE_KEYS, PACKAGE_PARAM_OPTIONS, PARAM_DECORATOR_OPTIONS, ROLES } from '../platform/packages/annotationVocabulary';
import type { PackageFunction } from '../platform/packages/functionModel';
import { isObjectLiteral, type LiteralEntry, type ObjectLiteral } from '../platform/packages/jsScan';
import { describeType } from '../platform/scripts/vocabulary';
import type { PackageSources } from './packageSources';

const md = (text: string) => new vscode.MarkdownString(text);

function commentHover(f: PackageFunction, position: vscode.Position): vscode.Hover | undefined {
  const header = f.header;
  const entry = header?.entries.find((e) => e.line === position.line);
  if (!header || !entry) return undefined;
  const c = position.character;
  if (c >= entry.keyStart && c <= entry.keyEnd) {
    const doc = PACKAGE_KEYS[entry.key] ?? (entry.key.startsWith('meta.') ? PACKAGE_KEYS['meta.'] : undefined);
    return doc ? new vscode.Hover(md(`**${entry.key}**: ${doc}`), new vscode.Range(entry.line, entry.keyStart, entry.line, entry.keyEnd)) : undefined;
  }
  if (entry.key === 'meta.role' || entry.key === 'tags') {
    for (const m of entry.value.matchAll(/[^,\s]+/g)) {
      const start = entry.valueStart + (m.index ?? 0);
      if (c >= start && c <= start + m[0].length && ROLES[m[0]])
        return new vscode.Hover(md(`role **${m[0]}**: ${ROLES[m[0]]}`), new vscode.Range(entry.line, start, entry.line, start + m[0].length));
    }
    return undefined;
  }
  const p = [...f.inputs, ...f.outputs].find((x) => x.line === position.line);
  if (!p) return undefined;
  if (c >= p.typeStart && c <= p.typeEnd) return new vscode.Hover(md(`**${p.type}**: ${describeType(p.baseType)}`), new vscode.Range(p.line, p.typeStart, p.line, p.typeEnd));
  const param = f.params.find((x) => x.name === p.name);
  const facts = [`${p.direction} **${p.name}**: \`${p.type}\``];
  if (p.direction === 'input')
    facts.push(param ? `passed to the parameter \`${param.name}${param.type ? `: ${param.type}` : ''}\`` : `no parameter of \`${f.declared.name}\` is named so`);
  if (p.description) facts.push(`\n\n${p.description}`);
  return new vscode.Hover(md(facts.join(', ')), new vscode.Range(p.line, p.nameStart, p.line, p.nameEnd));
}

/** The option entry at `offset`, with the options it is one of. */
function entryAt(
  options: ObjectLiteral | undefined,
  offset: number,
  docs: Record<string, string>,
  nested: Record<string, Record<string, string>>,
): { entry: LiteralEntry; doc?: string } | undefined {
  for (const entry of options?.entries ?? []) {
    if (offset >= entry.keyStart && offset <= entry.keyEnd) return { entry, doc: docs[entry.key] };
    if (isObjectLiteral(entry.value) && nested[entry.key] && offset > entry.valueStart && offset < entry.valueEnd) return entryAt(entry.value, offset, nested[entry.key], {});
  }
  return undefined;
}

function decoratorHover(document: vscode.TextDocument, f: PackageFunction, position: vscode.Position): vscode.Hover | undefined {
  const d = f.decorator;
  if (!d) return undefined;
  if (position.line === d.line && position.character >= d.start && position.character <= d.end) {
    const known = DECORATORS[d.kind];
    const text = known
      ? `**grok.decorators.${d.kind}**: ${known.doc}${known.role ? ` Adds the role \`${known.role}\`: ${ROLES[known.role] ?? ''}` : ''}`
      : `grok.decorators has no \`${d.kind}\`.`;
    return new vscode.Hover(md(text), new vscode.Range(d.line, d.start, d.line, d.end));
  }
  const offset = document.offsetAt(position);
  const found =
    entryAt(d.options, offset, DECORATOR_OPTIONS, { meta: { role: PACKAGE_KEYS['meta.role'] } }) ??
    f.params.map((p) => entryAt(p.decorator, offset, PARAM_DECORATOR_OPTIONS, { options: PACKAGE_PARAM_OPTIONS })).find((x) => x);
  if (!found) return undefined;
  const range = new vscode.Range(document.positionAt(found.entry.keyStart), document.positionAt(found.entry.keyEnd));
  return new vscode.Hover(md(`**${found.entry.key}**: ${found.doc ?? 'Not an option datagrok-api declares: the generator writes it as `meta.' + found.entry.key + '`.'}`), range);
}

export class AnnotationHoverProvider implements vscode.HoverProvider {
  constructor(private readonly sources: PackageSources) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    for (const f of this.sources.functions(document)) {
      if (position.line < f.firstLine) break;
      const hover = f.form === 'comment' ? position.line <= f.lastLine && commentHover(f, position) : decoratorHover(document, f, position);
      if (hover) return hover;
    }
    return undefined;
  }
}

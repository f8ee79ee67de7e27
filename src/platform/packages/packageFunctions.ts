// The functions of one JS/TS file of a package, in the one model of functionModel.ts: the comment-
// annotated ones (annotations.ts) and the decorated ones (decorators.ts). Pure.
import { annotationBlocks, isAnnotation } from './annotations';
import { camelRole, DECORATORS } from './annotationVocabulary';
import { decoratedFunctions } from './decorators';
import { type DecoratorCall, jsSignature, list, type PackageFunction } from './functionModel';
import { LineIndex } from './jsScan';

function commentFunctions(text: string, index: LineIndex): PackageFunction[] {
  const found: PackageFunction[] = [];
  for (const block of annotationBlocks(text)) {
    if (!block.declared || !isAnnotation(block)) continue;
    const { header } = block;
    const lineStart = index.offset(block.declared.line);
    const lineText = text.slice(lineStart, text.indexOf('\n', lineStart) < 0 ? text.length : text.indexOf('\n', lineStart));
    const nameAt = new RegExp(`\\b${block.declared.name.replace(/\$/g, '\\$')}\\b`).exec(lineText)?.index ?? 0;
    const open = text.indexOf('(', lineStart + nameAt);
    const signature = open >= 0 ? jsSignature(text, open, index) : { params: [], returnType: undefined };
    const tags = list(header.value('tags'));
    found.push({
      form: 'comment',
      name: header.value('name') ?? block.declared.name,
      declared: { name: block.declared.name, line: block.declared.line, start: nameAt, end: nameAt + block.declared.name.length },
      firstLine: header.firstLine,
      lastLine: header.lastLine,
      tags,
      roles: list(header.entries.find((e) => e.key === 'meta.role')?.value),
      description: header.value('description'),
      inputs: header.inputs,
      outputs: header.outputs,
      params: signature.params,
      returnType: signature.returnType,
      paramsOpen: open >= 0 ? open : undefined,
      header,
    });
  }
  return found;
}

/** The functions of a JS/TS file of a package, comment-annotated and decorated, in the order of their lines. */
export function packageFunctions(text: string): PackageFunction[] {
  const index = new LineIndex(text);
  const decorated = text.includes('@grok.decorators.') ? decoratedFunctions(text, index) : [];
  return [...commentFunctions(text, index), ...decorated].sort((a, b) => a.firstLine - b.firstLine);
}

/** The role a decorator gives (as its generator writes it in `meta.role`), when it gives one. */
export function decoratorRole(decorator: DecoratorCall): string | undefined {
  const role = DECORATORS[decorator.kind]?.role;
  return role ? camelRole(role) : undefined;
}

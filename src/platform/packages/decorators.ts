// Decorated package functions: `@grok.decorators.<kind>({...})` on a class's method or on a class, read as
// datagrok-tools' func-gen-plugin reads them to generate package.g.ts: the options object (plain values),
// the method's parameters (each with its `@grok.decorators.param({...})`) as the inputs, the `outputs` /
// `result` option or else the return type as the output, the role a role decorator adds to `meta.role`.
// Pure; lines 0-based.
import type { HeaderParam } from '../scripts/header';
import { annotationType, camelRole, DECORATORS } from './annotationVocabulary';
import { type DecoratorCall, type JsParam, jsSignature, type PackageFunction } from './functionModel';
import { closingOf, isObjectLiteral, type LineIndex, type ObjectLiteral, objectLiteral, type PlainValue } from './jsScan';

const DECORATOR = /@grok\.decorators\.(\w+)\s*\(/g;
const CLASS = /^(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/;
const METHOD = /^((?:(?:public|private|protected|static|async|override)\s+)*)([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\(/;

/** The option's value, when the options object has it. */
export function option(options: ObjectLiteral | undefined, key: string): PlainValue | undefined {
  return options?.entries.find((e) => e.key === key)?.value;
}

/** A plain value as an annotation writes it: lists as JSON, objects as `{k: v}`. */
export function annotationText(value: PlainValue | undefined): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return JSON.stringify(value.map((v) => (isObjectLiteral(v) ? annotationText(v) : v)));
  if (isObjectLiteral(value)) return `{${value.entries.map((e) => `${e.key}: ${annotationText(e.value)}`).join('; ')}}`;
  return String(value);
}

function stringOptions(value: PlainValue | undefined): Record<string, string> {
  if (!isObjectLiteral(value)) return {};
  return Object.fromEntries(value.entries.filter((e) => e.key !== 'initialValue').map((e) => [e.key, annotationText(e.value)]));
}

/** The offset after whitespace, comments and other decorators from `from`. */
function skipToMember(text: string, from: number): number {
  let i = from;
  for (;;) {
    const ws = /^\s*/.exec(text.slice(i, i + 200))?.[0].length ?? 0;
    i += ws;
    if (text.startsWith('//', i)) i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if (text.startsWith('/*', i)) i = text.indexOf('*/', i) < 0 ? text.length : text.indexOf('*/', i) + 2;
    else if (text[i] === '@') {
      const m = /^@[\w$.]+\s*/.exec(text.slice(i, i + 200));
      if (!m) return i;
      i += m[0].length;
      if (text[i] === '(') {
        const close = closingOf(text, i);
        if (close < 0) return i;
        i = close + 1;
      }
    } else return i;
  }
}

function param(p: JsParam): HeaderParam {
  const deco = p.decorator;
  const nested = option(deco, 'options');
  const declaredType = option(deco, 'type') ?? (isObjectLiteral(nested) ? option(nested, 'type') : undefined);
  const type = typeof declaredType === 'string' && declaredType ? declaredType : annotationType(p.type);
  const name = option(deco, 'name');
  const options = stringOptions(nested);
  const initial = isObjectLiteral(nested) ? option(nested, 'initialValue') : undefined;
  return {
    direction: 'input',
    type,
    baseType: type.replace(/<.*$/, '').toLowerCase(),
    name: typeof name === 'string' && name ? name : p.name,
    options,
    ...(initial !== undefined && initial !== null ? { initialText: annotationText(initial) } : {}),
    ...(options.description !== undefined ? { description: options.description } : {}),
    line: p.line,
    typeStart: p.start,
    typeEnd: p.end,
    nameStart: p.start,
    nameEnd: p.end,
  };
}

function output(value: PlainValue, line: number, start: number, end: number): HeaderParam | undefined {
  if (!isObjectLiteral(value)) return undefined;
  const type = String(option(value, 'type') ?? 'dynamic');
  return {
    direction: 'output',
    type,
    baseType: type.replace(/<.*$/, '').toLowerCase(),
    name: String(option(value, 'name') ?? ''),
    options: stringOptions(option(value, 'options')),
    line,
    typeStart: start,
    typeEnd: end,
    nameStart: start,
    nameEnd: end,
  };
}

/** What the class decorators give as the output (func-generation.js `reservedDecorators`). */
const CLASS_OUTPUTS: Record<string, string> = { viewer: 'viewer', filter: 'filter', cellRenderer: 'grid_cell_renderer' };

export type { DecoratorCall };

export function decoratedFunctions(text: string, index: LineIndex): PackageFunction[] {
  const found: PackageFunction[] = [];
  for (const m of text.matchAll(DECORATOR)) {
    const kind = m[1];
    const at = m.index ?? 0;
    if (kind === 'param') continue;
    const pos = index.at(at);
    const lineText = text.slice(index.offset(pos.line), at);
    if (/^\s*(\/\/|\*|\/\*)/.test(lineText)) continue;
    const paren = at + m[0].length - 1;
    const close = closingOf(text, paren);
    if (close < 0) continue;
    const first = paren + 1 + (/^\s*/.exec(text.slice(paren + 1, paren + 200))?.[0].length ?? 0);
    const options = text[first] === '{' ? objectLiteral(text, first) : undefined;
    const memberAt = skipToMember(text, close + 1);
    const head = text.slice(memberAt, memberAt + 300);
    const asClass = CLASS.exec(head);
    const asMethod = asClass ? null : METHOD.exec(head);
    if (!asClass && !asMethod) continue;
    const declaredName = (asClass?.[1] ?? asMethod?.[2]) as string;
    const nameOffset = memberAt + (asClass ? head.indexOf(declaredName, asClass[0].length - declaredName.length) : (asMethod?.[1].length ?? 0));
    const namePos = index.at(nameOffset);
    const decorator: DecoratorCall = {
      kind,
      line: pos.line,
      start: pos.character + m[0].indexOf(kind),
      end: pos.character + m[0].indexOf(kind) + kind.length,
      at,
      close,
      options,
      target: asClass ? 'class' : 'method',
      modifiers: asMethod?.[1] ?? '',
    };
    const signature = asMethod ? jsSignature(text, memberAt + asMethod[0].length - 1, index) : { params: [], returnType: undefined };
    const explicitName = option(options, 'name');
    const tags = option(options, 'tags');
    const meta = option(options, 'meta');
    const metaRole = isObjectLiteral(meta) ? option(meta, 'role') : undefined;
    const role = DECORATORS[kind]?.role;
    const description = option(options, 'description');
    const endPos = index.at(close);
    const outputsOption = options?.entries.find((e) => e.key === 'outputs' || e.key === 'result');
    let outputs: HeaderParam[];
    if (outputsOption) {
      const p = index.at(outputsOption.keyStart);
      const values = Array.isArray(outputsOption.value) ? outputsOption.value : [outputsOption.value];
      outputs = values.map((v) => output(v, p.line, p.character, p.character + outputsOption.key.length)).filter((o): o is HeaderParam => !!o);
    } else {
      const type = asClass ? CLASS_OUTPUTS[kind] : signature.returnType ? annotationType(signature.returnType) : 'void';
      const fake = { type, name: 'result' };
      outputs =
        type && type !== 'void'
          ? [
              {
                direction: 'output',
                ...fake,
                baseType: type.replace(/<.*$/, ''),
                options: {},
                line: namePos.line,
                typeStart: namePos.character,
                typeEnd: namePos.character + declaredName.length,
                nameStart: namePos.character,
                nameEnd: namePos.character + declaredName.length,
              },
            ]
          : [];
    }
    found.push({
      form: 'decorator',
      name: typeof explicitName === 'string' && explicitName ? explicitName : asClass ? `_${declaredName}` : declaredName,
      declared: { name: declaredName, line: namePos.line, start: namePos.character, end: namePos.character + declaredName.length },
      firstLine: pos.line,
      lastLine: endPos.line,
      tags: Array.isArray(tags) ? tags.map(String) : [],
      roles: [...(typeof metaRole === 'string' ? metaRole.split(',').map((r) => r.trim()) : []), ...(role ? [camelRole(role)] : [])].filter(Boolean),
      description: typeof description === 'string' ? description : undefined,
      inputs: signature.params.map(param),
      outputs,
      params: signature.params,
      returnType: signature.returnType,
      paramsOpen: asMethod ? memberAt + asMethod[0].length - 1 : undefined,
      decorator,
    });
  }
  return found;
}

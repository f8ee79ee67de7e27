// The rules of the annotation language, beyond grok check's (checkFunctions.ts): a type the platform does
// not know, an input naming no parameter of the function below and a parameter with no input, a decorator
// or decorator option datagrok-api does not have, a decorated function's signature against its role, and
// two functions of one name in a package. Each finding carries its quick fix when the fix is certain. Pure.
import type { HeaderParam } from '../scripts/header';
import { closest } from '../scripts/signature';
import { annotationType, DECORATOR_OPTIONS, DECORATORS, PACKAGE_PARAM_OPTIONS, PACKAGE_TYPES, PARAM_DECORATOR_OPTIONS } from './annotationVocabulary';
import type { Finding, FindingFix } from './findings';
import type { PackageFunction } from './functionModel';
import { isObjectLiteral, type LineIndex, type ObjectLiteral } from './jsScan';
import { knownRoles, roleFindings } from './roles';

/** Where a function is named, for the duplicate-name rule. */
export interface NamedFunction {
  name: string;
  file: string;
  line: number;
  start: number;
  end: number;
}

/** Generated from the decorators (func-gen-plugin): its functions are the decorated ones again. */
export const GENERATED_FILE = /(^|\/)package\.g\.ts$/;

const rename = (title: string, line: number, start: number, end: number, text: string): FindingFix => ({ title, edits: [{ line, start, end, text }] });

function typeFinding(file: string, p: HeaderParam, fn: string): Finding | undefined {
  const inner = /^list<(.+)>$/i.exec(p.type)?.[1];
  const base = (inner ?? p.baseType).toLowerCase();
  if (PACKAGE_TYPES.has(base)) return undefined;
  const fix = closest(base, PACKAGE_TYPES);
  const start = p.typeStart + (inner ? p.type.indexOf(inner) : 0);
  const end = inner ? start + inner.length : p.typeEnd;
  return {
    file,
    line: p.line + 1,
    start,
    end,
    rule: 'annotation-type',
    severity: 'error',
    function: fn,
    message: `Unknown type "${inner ?? p.type}"${fix ? `: did you mean "${fix}"?` : '.'} Types: int, double, bool, string, datetime, dataframe, column, column_list, list, file, blob, widget, view, viewer, dynamic…`,
    ...(fix ? { fix: rename(`Change to "${fix}"`, p.line, start, end, fix) } : {}),
  };
}

/** `//input:` lines against the JS parameters of the function below. */
function inputFindings(file: string, f: PackageFunction): Finding[] {
  const found: Finding[] = [];
  if (f.paramsOpen === undefined || f.params.some((p) => p.rest)) return found;
  const params = f.params.map((p) => p.name);
  const inputs = f.inputs.map((i) => i.name).filter(Boolean);
  const unmatchedParams = f.params.filter((p) => !inputs.includes(p.name));
  for (const input of f.inputs) {
    if (!input.name || params.includes(input.name)) continue;
    const fix = closest(
      input.name,
      unmatchedParams.map((p) => p.name),
    );
    found.push({
      file,
      line: input.line + 1,
      start: input.nameStart,
      end: input.nameEnd,
      rule: 'input-parameter',
      severity: 'warning',
      function: f.name,
      message: `Input "${input.name}" names no parameter of ${f.declared.name}(${params.join(', ')})${fix ? `: did you mean "${fix}"?` : ': the platform passes it to none.'}`,
      ...(fix ? { fix: rename(`Rename the input to "${fix}"`, input.line, input.nameStart, input.nameEnd, fix) } : {}),
    });
  }
  const header = f.header;
  if (!header) return found;
  const after = f.inputs.length > 0 ? f.inputs[f.inputs.length - 1].line + 1 : (f.outputs[0]?.line ?? header.lastLine + 1);
  for (const p of unmatchedParams) {
    if (f.inputs.some((i) => !params.includes(i.name) && closest(i.name, [p.name]))) continue;
    const type = annotationType(p.type);
    found.push({
      file,
      line: p.line + 1,
      start: p.start,
      end: p.end,
      rule: 'parameter-input',
      severity: 'warning',
      function: f.name,
      message: `Parameter "${p.name}" of ${f.declared.name} has no "//input:": the platform passes it nothing. Add "//input: ${type} ${p.name}".`,
      fix: { title: `Add "//input: ${type} ${p.name}"`, edits: [{ line: after, start: 0, end: 0, text: `//input: ${type} ${p.name}${p.optional ? ' {optional: true}' : ''}\n` }] },
    });
  }
  return found;
}

function optionFindings(file: string, f: PackageFunction, options: ObjectLiteral | undefined, known: Record<string, string>, what: string, index: LineIndex): Finding[] {
  const found: Finding[] = [];
  for (const e of options?.entries ?? []) {
    if (e.key in known) continue;
    const at = index.at(e.keyStart);
    const end = at.character + (e.keyEnd - e.keyStart);
    const fix = closest(e.key, Object.keys(known));
    found.push({
      file,
      line: at.line + 1,
      start: at.character,
      end,
      rule: 'decorator-option',
      severity: 'warning',
      function: f.name,
      message: `${what} has no option "${e.key}"${fix ? `: did you mean "${fix}"?` : '.'}${what.startsWith('@grok.decorators.param') ? '' : ` The generator writes it as "meta.${e.key}".`}`,
      ...(fix ? { fix: rename(`Change to "${fix}"`, at.line, at.character, end, /^[A-Za-z_$][\w$]*$/.test(fix) ? fix : `'${fix}'`) } : {}),
    });
  }
  return found;
}

function decoratorFindings(file: string, f: PackageFunction, index: LineIndex): Finding[] {
  const d = f.decorator;
  if (!d) return [];
  const at = (line: number, rule: Finding['rule'], severity: Finding['severity'], message: string, start?: number, end?: number, fix?: FindingFix): Finding => ({
    file,
    line: line + 1,
    start,
    end,
    rule,
    severity,
    message,
    function: f.name,
    ...(fix ? { fix } : {}),
  });
  if (!DECORATORS[d.kind]) {
    const fix = d.kind === 'packageSettingsEditor' ? 'settingsEditor' : closest(d.kind, Object.keys(DECORATORS));
    return [
      at(
        d.line,
        'decorator-kind',
        'error',
        d.kind === 'packageSettingsEditor'
          ? 'datagrok-tools 6.7.5 does not know grok.decorators.packageSettingsEditor (its function generator stops the build on it): use settingsEditor, which gives the same role.'
          : `grok.decorators has no "${d.kind}"${fix ? `: did you mean "${fix}"?` : '.'} datagrok-tools' function generator stops the build on it.`,
        d.start,
        d.end,
        fix ? rename(`Change to "${fix}"`, d.line, d.start, d.end, fix) : undefined,
      ),
    ];
  }
  const found = optionFindings(file, f, d.target === 'method' ? d.options : undefined, DECORATOR_OPTIONS, `@grok.decorators.${d.kind}`, index);
  for (const p of f.params) {
    if (!p.decorator) continue;
    found.push(...optionFindings(file, f, p.decorator, PARAM_DECORATOR_OPTIONS, '@grok.decorators.param', index));
    // func-gen-plugin writes a parameter's name, type and `options`; an option beside them is dropped.
    for (const e of p.decorator.entries) {
      if (!(e.key in PARAM_DECORATOR_OPTIONS) || ['name', 'type', 'options'].includes(e.key)) continue;
      const pos = index.at(e.keyStart);
      found.push(
        at(
          pos.line,
          'decorator-option',
          'warning',
          `"${e.key}" beside "options" is not written by the generator (it reads a parameter's options from "options"): move it into options: {${e.key}: …}.`,
          pos.character,
          pos.character + (e.keyEnd - e.keyStart),
        ),
      );
    }
    const nested = p.decorator.entries.find((e) => e.key === 'options')?.value;
    if (isObjectLiteral(nested)) found.push(...optionFindings(file, f, nested, PACKAGE_PARAM_OPTIONS, "@grok.decorators.param's options", index));
  }
  const subject = {
    name: f.name,
    nameLine: d.line,
    description: f.description,
    tags: f.tags,
    metaRoles: f.roles,
    roleLine: () => d.line,
    inputs: f.inputs.map((p) => ({ type: p.type, name: p.name, line: p.line })),
    outputs: f.outputs.map((p) => ({ type: p.type, name: p.name, line: p.line })),
  };
  for (const role of knownRoles(subject))
    for (const r of roleFindings(subject, role)) found.push(at(r.line, 'role-signature', 'warning', `Function ${f.name} (role ${role}): ${r.message}`));
  return found;
}

/** The annotation language's findings of one file's functions (none for the generated package.g.ts). */
export function annotationFindings(file: string, functions: readonly PackageFunction[], index: LineIndex): Finding[] {
  if (GENERATED_FILE.test(file)) return [];
  const found: Finding[] = [];
  for (const f of functions) {
    for (const p of [...f.inputs, ...f.outputs]) {
      const t = typeFinding(file, p, f.name);
      if (t) found.push(t);
    }
    if (f.form === 'comment') found.push(...inputFindings(file, f));
    else found.push(...decoratorFindings(file, f, index));
  }
  return found;
}

/** The functions of a file by the name the platform knows them by. */
export function namedFunctions(file: string, functions: readonly PackageFunction[]): NamedFunction[] {
  if (GENERATED_FILE.test(file)) return [];
  return functions.map((f) => ({ name: f.name, file, line: f.declared.line, start: f.declared.start, end: f.declared.end }));
}

/** Two functions of one name in a package (names compared as the platform does, ignoring case). */
export function duplicateFindings(named: Iterable<NamedFunction>): Finding[] {
  const byName = new Map<string, NamedFunction[]>();
  for (const n of named) {
    const key = n.name.toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), n]);
  }
  const found: Finding[] = [];
  for (const group of byName.values()) {
    if (group.length < 2) continue;
    for (const n of group) {
      const others = group.filter((o) => o !== n).map((o) => `${o.file}:${o.line + 1}`);
      found.push({
        file: n.file,
        line: n.line + 1,
        start: n.start,
        end: n.end,
        rule: 'function-name',
        severity: 'error',
        function: n.name,
        message: `Two functions are named "${n.name}" (also ${others.join(', ')}): the package keeps only one of them. Rename one.`,
      });
    }
  }
  return found;
}

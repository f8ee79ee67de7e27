// The annotation language of package functions, the pure parts: one model of comment-annotated and
// decorated functions, the vocabulary held to datagrok-tools 6.7.5, the rules with their fixes, where the
// cursor is in a decorator, and the conversions both ways (a round trip keeps the metadata).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { annotationFindings } from '../../src/platform/packages/annotationRules';
import { DECORATORS, OPTION_TO_ANNOTATION, PARAM_DECORATOR_OPTIONS, TS_TO_ANNOTATION } from '../../src/platform/packages/annotationVocabulary';
import { checkPackage } from '../../src/platform/packages/check';
import { functionFindings } from '../../src/platform/packages/checkFunctions';
import type { TextEdit } from '../../src/platform/packages/conversion';
import { decoratorSpot } from '../../src/platform/packages/decoratorSpot';
import { EDITOR_RULES } from '../../src/platform/packages/findings';
import type { PackageFunction } from '../../src/platform/packages/functionModel';
import { LineIndex, objectLiteral } from '../../src/platform/packages/jsScan';
import { packageFunctions } from '../../src/platform/packages/packageFunctions';
import { generatedAnnotation, toComments } from '../../src/platform/packages/toComments';
import { toDecorator } from '../../src/platform/packages/toDecorator';
import { edit, makePackage } from '../fixtures/packages/faults';

const lines = (...l: string[]) => l.join('\n');
const apply = (text: string, edits: TextEdit[]) => [...edits].sort((a, b) => b.start - a.start).reduce((t, e) => t.slice(0, e.start) + e.text + t.slice(e.end), text);
const findings = (text: string) => annotationFindings('src/package.ts', packageFunctions(text), new LineIndex(text));

const COMMENTED = lines(
  "import * as DG from 'datagrok-api/dg';",
  '',
  '//name: greet',
  '//description: Says hello',
  '//tags: panel, demo',
  '//input: string name = World {caption: Name; choices: ["a", "b"]} [Whom to greet]',
  '//input: column col {semType: Molecule}',
  '//input: int count = 3',
  '//output: widget result',
  '//meta.role: widgets',
  '//top-menu: Demo | Greet',
  'export async function greet(name: string, col: DG.Column, count: number): Promise<DG.Widget> {',
  '  const x = {a: 1};',
  '  return new DG.Widget(ui.div([name, String(x.a)]));',
  '}',
  '',
  '//name: plain',
  'export function plain() {',
  "  grok.shell.info('hi');",
  '}',
  '',
);

/** What a function declares, as the platform reads it: order of keys aside, option values without spaces. */
function metadata(f: PackageFunction) {
  const norm = (v: string) => v.replace(/\s+/g, '').replace(/'/g, '"');
  const param = (p: PackageFunction['inputs'][number]) => ({
    type: p.type,
    name: p.name,
    initial: p.initialText === undefined ? undefined : norm(p.initialText).replace(/^"(.*)"$/, '$1'),
    options: Object.fromEntries(
      Object.entries(p.options)
        .filter(([k]) => k !== 'description')
        .map(([k, v]) => [k, norm(v)]),
    ),
    description: p.description,
  });
  const entries = (f.header?.entries ?? []).filter((e) => e.key !== 'input' && e.key !== 'output').map((e) => `${e.key}=${e.value}`);
  return { name: f.name, entries: entries.sort(), inputs: f.inputs.map(param), outputs: f.outputs.map(param) };
}

describe('packages: the annotation language', () => {
  it('holds its tables to datagrok-tools 6.7.5 (func-generation.js)', () => {
    const gen = require('datagrok-tools/bin/utils/func-generation.js') as {
      typesToAnnotation: Record<string, string>;
      decoratorOptionToAnnotation: Map<string, string>;
      reservedDecorators: Record<string, { metadata: { role?: string } }>;
      inputOptionsNames: string[];
    };
    assert.deepEqual(TS_TO_ANNOTATION, gen.typesToAnnotation);
    assert.deepEqual(OPTION_TO_ANNOTATION, Object.fromEntries(gen.decoratorOptionToAnnotation));
    for (const [kind, d] of Object.entries(gen.reservedDecorators)) assert.equal(DECORATORS[kind]?.role, d.metadata.role, kind);
    assert.deepEqual(Object.keys(DECORATORS).sort(), Object.keys(gen.reservedDecorators).sort());
    for (const name of gen.inputOptionsNames) assert.ok(name in PARAM_DECORATOR_OPTIONS || name === 'type', name);
  });

  it('reads object literals as func-gen-plugin evaluates them', () => {
    const text = `({'top-menu': 'A | B', name: "x", tags: ['a', 'b'], meta: {role: 'panel', n: 2}, ok: true, f: DG.TYPE.INT})`;
    const o = objectLiteral(text, 1);
    assert.deepEqual(
      o.entries.map((e) => [e.key, typeof e.value === 'object' && e.value && !Array.isArray(e.value) ? 'object' : e.value, text.slice(e.keyStart, e.keyEnd)]),
      [
        ['top-menu', 'A | B', "'top-menu'"],
        ['name', 'x', 'name'],
        ['tags', ['a', 'b'], 'tags'],
        ['meta', 'object', 'meta'],
        ['ok', true, 'ok'],
        ['f', 'DG.TYPE.INT', 'f'],
      ],
    );
  });

  it('reads comment-annotated and decorated functions into one model, with their JS parameters', () => {
    const text = lines(
      COMMENTED,
      'export class PackageFunctions {',
      "  @grok.decorators.panel({name: 'Props', meta: {role: 'widgets'}})",
      '  static async props(',
      "    @grok.decorators.param({type: 'column', options: {type: 'numerical'}}) xCol: DG.Column,",
      '    n?: number,',
      '  ): Promise<DG.Widget> {',
      '    return null;',
      '  }',
      '',
      "  @grok.decorators.viewer({name: 'My viewer'})",
      '  // a comment between',
      '}',
      '@grok.decorators.cellRenderer({cellType: "x"})',
      'export class Renderer {}',
    );
    const fns = packageFunctions(text);
    assert.deepEqual(
      fns.map((f) => [f.form, f.name, f.declared.name, f.roles, f.inputs.map((i) => `${i.type} ${i.name}`), f.outputs.map((o) => `${o.type} ${o.name}`)]),
      [
        ['comment', 'greet', 'greet', ['widgets'], ['string name', 'column col', 'int count'], ['widget result']],
        ['comment', 'plain', 'plain', [], [], []],
        ['decorator', 'Props', 'props', ['widgets', 'panel'], ['column xCol', 'double n'], ['widget result']],
        ['decorator', '_Renderer', 'Renderer', ['cellRenderer'], [], ['grid_cell_renderer result']],
      ],
    );
    assert.deepEqual(
      fns[2].params.map((p) => [p.name, p.type, p.optional, p.line]),
      [
        ['xCol', 'DG.Column', false, 24],
        ['n', 'number', true, 25],
      ],
    );
    assert.deepEqual(fns[2].inputs[0].options, { type: 'numerical' });
  });

  it('finds unknown types, inputs naming no parameter, parameters with no input: each with its certain fix', () => {
    const text = lines(
      '//name: f',
      '//input: strin nme',
      '//input: int count',
      '//output: dataframe result',
      'export function f(name: string, count: number, extra?: DG.Column[]) {}',
    );
    const found = findings(text);
    assert.deepEqual(
      found.map((f) => [f.rule, f.line, f.start, f.end, f.fix?.edits[0].text]),
      [
        ['annotation-type', 2, 9, 14, 'string'],
        ['input-parameter', 2, 15, 18, 'name'],
        ['parameter-input', 5, 47, 52, '//input: list<column> extra {optional: true}\n'],
      ],
    );
    assert.equal(found[1].message, 'Input "nme" names no parameter of f(name, count, extra): did you mean "name"?');
    assert.deepEqual(found[2].fix?.edits[0], { line: 3, start: 0, end: 0, text: '//input: list<column> extra {optional: true}\n' });
    // grok's own unknown tag gets its fix too.
    const tag = functionFindings('src/package.ts', lines('//name: h', '//sidbar: x', 'export function h() {}')).find((f) => f.rule === 'header-tag');
    assert.deepEqual(tag?.fix, { title: 'Change to "sidebar"', edits: [{ line: 1, start: 2, end: 8, text: 'sidebar' }] });
    // A rest parameter takes any inputs; list<T> and the platform's own types are known.
    assert.deepEqual(findings(lines('//name: g', '//input: list<string> a', '//input: tableview b', 'export function g(...args: any[]) {}')), []);
  });

  it('finds unknown decorators and options, and holds a decorated function to its role', () => {
    const text = lines(
      'export class PackageFunctions {',
      "  @grok.decorators.func({descripton: 'x', 'top-menu': 'A | B'})",
      "  static a(@grok.decorators.param({options: {semTyp: 'Molecule'}}) s: string, @grok.decorators.param({nullable: true}) t: string) {}",
      '  @grok.decorators.fileViwer({})',
      '  static b(file: DG.FileInfo): DG.View { return null; }',
      '  @grok.decorators.packageSettingsEditor()',
      '  static s(): DG.Widget { return null; }',
      '  @grok.decorators.semTypeDetector()',
      '  static c(): string { return null; }',
      '}',
    );
    assert.deepEqual(
      findings(text).map((f) => [f.rule, f.line, f.message, f.fix?.edits[0].text]),
      [
        ['decorator-option', 2, '@grok.decorators.func has no option "descripton": did you mean "description"? The generator writes it as "meta.descripton".', 'description'],
        ['decorator-option', 3, '@grok.decorators.param\'s options has no option "semTyp": did you mean "semType"?', 'semType'],
        [
          'decorator-option',
          3,
          '"nullable" beside "options" is not written by the generator (it reads a parameter\'s options from "options"): move it into options: {nullable: …}.',
          undefined,
        ],
        ['decorator-kind', 4, 'grok.decorators has no "fileViwer": did you mean "fileViewer"? datagrok-tools\' function generator stops the build on it.', 'fileViewer'],
        [
          'decorator-kind',
          6,
          'datagrok-tools 6.7.5 does not know grok.decorators.packageSettingsEditor (its function generator stops the build on it): use settingsEditor, which gives the same role.',
          'settingsEditor',
        ],
        ['role-signature', 8, 'Function c (role semTypeDetector): Input 0 missing: expected col: Column', undefined],
      ],
    );
  });

  it('checks a package: two functions of one name across files; a clean template has no annotation findings', () => {
    const dir = makePackage(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lang-')), 'Demo'));
    assert.deepEqual(
      checkPackage(dir).findings.filter((f) => EDITOR_RULES.has(f.rule)),
      [],
    );
    edit(dir, 'src/more.ts', () => lines('//name: Info', 'export function other() {}', ''));
    const dup = checkPackage(dir).findings.filter((f) => f.rule === 'function-name');
    assert.deepEqual(
      dup.map((f) => [f.file, f.line, f.severity]),
      [
        ['src/more.ts', 2, 'error'],
        ['src/package.ts', 10, 'error'],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    assert.match(dup[0].message, /Two functions are named "Info" \(also src\/package\.ts:10\)/);
  });

  it('knows where the cursor is in a decorator', () => {
    const text = "  @grok.decorators.func({name: 'x', meta: {role: 'pan', ca}, na})\n  static f(@grok.decorators.param({options: {sem}}) a: string) {}\n  @grok.decorators.pa";
    const at = (marker: string, shift = marker.length) => decoratorSpot(text, text.indexOf(marker) + shift);
    assert.deepEqual(at("'pan'", 4), { kind: 'role', typed: 'pan', start: text.indexOf("'pan'") + 1 });
    assert.deepEqual(at('ca}', 2), { kind: 'key', object: 'meta', typed: 'ca', start: text.indexOf('ca}'), quoted: false });
    assert.deepEqual(at('na}', 2), { kind: 'key', object: 'function', typed: 'na', start: text.indexOf('na}'), quoted: false });
    assert.deepEqual(at('sem}', 3), { kind: 'key', object: 'paramOptions', typed: 'sem', start: text.indexOf('sem}'), quoted: false });
    assert.deepEqual(decoratorSpot(text, text.length), { kind: 'decorator', typed: 'pa', start: text.length - 2 });
    assert.deepEqual(at(') a', 2), { kind: 'none' });
  });

  it('converts comments → decorator → comments, keeping what each function declares', () => {
    const before = packageFunctions(COMMENTED);
    let text = COMMENTED;
    for (const name of ['greet', 'plain']) {
      const c = toDecorator(text, packageFunctions(text).find((f) => f.name === name && f.form === 'comment') as PackageFunction);
      assert.ok('edits' in c, JSON.stringify(c));
      text = apply(text, c.edits);
    }
    assert.match(text, /export class PackageFunctions \{\n {2}@grok\.decorators\.func\(\{\n {4}name: 'greet',/);
    assert.match(text, /\n {4}@grok\.decorators\.param\(\{type: 'int', options: \{initialValue: 3\}\}\) count: number,\n {2}\): Promise<DG\.Widget> \{/);
    const decorated = packageFunctions(text);
    assert.deepEqual(
      decorated.map((f) => [f.form, f.name]),
      [
        ['decorator', 'greet'],
        ['decorator', 'plain'],
      ],
    );
    // What the generator writes for the decorated functions is what the comments said.
    for (const f of decorated) {
      const written = generatedAnnotation(f);
      const reparsed = packageFunctions(`${written.join('\n')}\nexport function ${f.declared.name}() {}\n`)[0];
      assert.deepEqual(metadata(reparsed), metadata(before.find((b) => b.name === f.name) as PackageFunction));
    }
    for (const name of ['greet', 'plain']) {
      const c = toComments(text, packageFunctions(text).find((f) => f.name === name && f.form === 'decorator') as PackageFunction);
      assert.ok('edits' in c, JSON.stringify(c));
      text = apply(text, c.edits);
    }
    assert.doesNotMatch(text, /class PackageFunctions/);
    const after = packageFunctions(text);
    for (const f of before) assert.deepEqual(metadata(after.find((a) => a.name === f.name) as PackageFunction), metadata(f));
    assert.match(text, /export async function greet\(name: string, col: DG\.Column, count: number\): Promise<DG\.Widget> \{\n {2}const x = \{a: 1\};/);
  });

  it('refuses a conversion that would change what the function declares, saying why', () => {
    const text = lines('//name: f', '//sample: data.csv', 'export function f() {}', '//name: g', '//input: int a', 'export function g(a: number, b: number) {}');
    const [f, g] = packageFunctions(text);
    assert.deepEqual(toDecorator(text, f), { refused: 'a decorator has no option for "//sample:" (the generator would write it as "meta.sample")' });
    assert.deepEqual(toDecorator(text, g), { refused: "it has 1 input(s) and 2 parameter(s): a decorator's inputs are the method's parameters" });
    const cls = lines('export class PackageFunctions {', '  @grok.decorators.func()', '  static h() { return this.x; }', '}');
    assert.deepEqual(toComments(cls, packageFunctions(cls)[0]), { refused: 'its body uses `this`, which a function outside the class would not have' });
  });
});

// The Packages view's pure parts: what a package declares as written (functions of its sources, scripts and
// queries, with their roles, signatures and annotation lines) and which version the server has of it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { functionsOfFile, readPackage, signatureText } from '../../src/platform/packages/inventory';
import { packageKey, serverPackageOf, serverPackagesOf, serverVersionOf, serverVersionText } from '../../src/platform/packages/serverPackages';
import { edit, makePackage } from '../fixtures/packages/faults';

const lines = (...l: string[]) => l.join('\n');

describe('packages view: what a package declares', () => {
  it("lists the template's functions with their signatures and the line of each //name:", () => {
    const dir = makePackage(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'inventory-')), 'Demo'));
    edit(dir, 'package.json', (t) => t.replace('"version": "0.0.1"', '"version": "1.3.0"'));
    const pkg = readPackage(dir);
    assert.deepEqual([pkg.name, pkg.friendlyName, pkg.version], ['demo', 'Demo', '1.3.0']);
    assert.deepEqual(
      pkg.functions.map((f) => [f.file, f.line, f.name, signatureText(f)]),
      [
        ['src/package-test.ts', 6, 'test', '(category: string, test: string, testContext: object, excludeNodeTests: bool) → result: dataframe'],
        ['src/package-test.ts', 24, 'initAutoTests', '() → void'],
        ['src/package.ts', 8, 'info', '() → void'],
      ],
    );
    fs.rmSync(path.dirname(dir), { recursive: true });
  });

  it('reads roles (meta.role, or a role among the tags), scripts and every query of a .sql file', () => {
    const source = lines(
      '//name: Molecule',
      '//tags: panel, widgets',
      '//input: string smiles {semType: Molecule}',
      '//output: widget result',
      'export function molecule(smiles: string) {}',
      '',
      '//name: viewer1',
      '//meta.role: viewer',
      '//output: viewer v',
      'export const viewer1 = () => new V();',
      '',
      '// just a comment',
      'export function helper() {}',
    );
    assert.deepEqual(
      functionsOfFile('src/widgets.ts', source).map((f) => [f.name, f.roles, f.line, f.kind]),
      [
        ['Molecule', ['panel', 'widgets'], 0, 'function'],
        ['viewer1', ['viewer'], 6, 'function'],
      ],
    );
    const script = functionsOfFile('scripts/hello.py', lines('#name: Hello', '#language: python', '#input: int n', '#output: string s', 's = "x" * n'));
    assert.deepEqual(
      script.map((f) => [f.name, f.kind, signatureText(f)]),
      [['Hello', 'script', '(n: int) → s: string']],
    );
    const queries = functionsOfFile('queries/q.sql', lines('--name: First', '--connection: Db', 'select 1', '', '--name: Second', '--input: int id', 'select 2'));
    assert.deepEqual(
      queries.map((f) => [f.name, f.kind, f.line]),
      [
        ['First', 'query', 0],
        ['Second', 'query', 4],
      ],
    );
    assert.deepEqual(functionsOfFile('src/x.min.js', '//name: f\nfunction f() {}'), []);
    assert.equal(
      signatureText({
        inputs: [],
        outputs: [
          { name: 'a', type: 'int' },
          { name: 'b', type: 'int' },
        ],
      }),
      '() → (a: int, b: int)',
    );
  });

  it('lists decorated functions beside the commented ones, with the role their decorator gives, in the order of their lines', () => {
    const source = lines(
      "import * as grok from 'datagrok-api/grok';",
      '//name: first',
      '//output: int n',
      'export function first(): number { return 1; }',
      'export class PackageFunctions {',
      "  @grok.decorators.panel({ name: 'Molecule Panel' })",
      "  static moleculePanel(@grok.decorators.param({ options: { semType: 'Molecule' } }) smiles: string): any { return null; }",
      '}',
    );
    assert.deepEqual(
      functionsOfFile('src/package.ts', source).map((f) => [f.name, f.roles, f.line, signatureText(f)]),
      [
        ['first', [], 1, '() → n: int'],
        ['Molecule Panel', ['panel'], 5, '(smiles: string) → result: dynamic'],
      ],
    );
  });

  it('a package.json being edited (not JSON yet) leaves the folder name and no version', () => {
    const dir = makePackage(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'inventory-')), 'Broken'));
    const pkg = readPackage(dir, new Map([['package.json', '{ "name": ']]));
    assert.deepEqual([pkg.name, pkg.version, pkg.functions.length], ['Broken', '', 3]);
    fs.rmSync(path.dirname(dir), { recursive: true });
  });
});

describe("packages view: the server's version", () => {
  const answer = serverPackagesOf([
    {
      id: '1',
      name: 'PowerPack',
      friendlyName: 'Power Pack',
      publishedVersions: [
        { version: '1.1.0', isCurrent: false, isLatest: true, debug: false },
        { version: '1.0.2', isCurrent: true, isLatest: false, debug: false },
      ],
    },
    { id: '2', name: 'Chem', publishedVersions: [{ version: 'demo', debug: true, isCurrent: false, isLatest: false }] },
    { id: '3', name: 'Kept', publishedVersions: [] },
    { id: '4', name: 'Old', version: '0.9.0', publishedVersions: [] },
  ]);

  it('matches a local package by its npm name without scope or by its friendly name, whatever the case and dashes', () => {
    assert.equal(packageKey('@datagrok/power-pack'), 'powerpack');
    assert.equal(serverPackageOf(answer, { name: '@datagrok/power-pack' })?.name, 'PowerPack');
    assert.equal(serverPackageOf(answer, { name: 'chem' })?.name, 'Chem');
    assert.equal(serverPackageOf(answer, { name: 'x', friendlyName: 'Power Pack' })?.name, 'PowerPack');
    assert.equal(serverPackageOf(answer, { name: 'bio' }), undefined);
  });

  it('says the current release version, the user\'s debug version, or "not published"', () => {
    const text = (name: string) => serverVersionText(serverVersionOf(serverPackageOf(answer, { name })));
    assert.equal(text('power-pack'), 'server 1.0.2');
    assert.equal(text('Chem'), 'your debug version');
    assert.equal(text('Kept'), 'not published', 'listed without a published version');
    assert.equal(text('Old'), 'server 0.9.0', 'an entity that names its version alone');
    assert.equal(text('Bio'), 'not published');
    assert.equal(serverVersionText({ release: '2.0.0', debug: true }), 'server 2.0.0 · your debug version');
  });
});

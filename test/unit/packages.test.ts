// Datagrok packages, the pure parts: what a package is, the files grok check reads, function annotations
// on the script-header grammar, and grok check's rules (src/platform/packages/), held to datagrok-tools
// 6.7.5's own tables where it has them (bin/utils/const.js, bin/utils/utils.js).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { mayBePackageFile } from '../../src/core/packageFileNames';
import { annotationBlocks, isAnnotation, roleSubject } from '../../src/platform/packages/annotations';
import { changelogFindings, npmIgnoreFindings } from '../../src/platform/packages/checkFiles';
import { functionFindings, HEADER_TAGS } from '../../src/platform/packages/checkFunctions';
import { type Finding, findingsSummary } from '../../src/platform/packages/findings';
import { manifestFindings } from '../../src/platform/packages/checkManifest';
import { datagrokApiImports, heavyImports, webpackExternals } from '../../src/platform/packages/checkSources';
import { findPackageFolders, isPackageFolder, packageFolderOf } from '../../src/platform/packages/recognition';
import { FUNCTION_ROLES, roleFindings } from '../../src/platform/packages/roles';
import { walkPackage } from '../../src/platform/packages/walk';
import { edit, makePackage } from '../fixtures/packages/faults';

const lines = (...l: string[]) => l.join('\n');
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'packages-'));

describe('packages: recognition and the files grok reads', () => {
  it('holds the role table and the header tags to datagrok-tools 6.7.5', () => {
    const { functionRoles } = require('datagrok-tools/bin/utils/const.js') as { functionRoles: { role: string; signature: string }[] };
    assert.deepEqual(
      FUNCTION_ROLES.map(([role, signature]) => [role, signature]),
      functionRoles.map((r) => [r.role, r.signature]),
    );
    assert.deepEqual(HEADER_TAGS, (require('datagrok-tools/bin/utils/utils.js') as { headerTags: string[] }).headerTags);
  });

  it('finds the packages of a monorepo (packages/*), not node_modules, not a folder without datagrok-api', () => {
    const root = tmp();
    makePackage(path.join(root, 'packages', 'Chem'), 'Chem');
    makePackage(path.join(root, 'packages', 'Bio'), 'Bio');
    makePackage(path.join(root, 'node_modules', 'Dep'), 'Dep');
    edit(root, 'packages/Tool/package.json', () => '{ "name": "tool", "dependencies": { "rxjs": "^6" } }');
    edit(root, 'packages/Tool/src/package.ts', () => '');
    assert.deepEqual(findPackageFolders(root), [path.join(root, 'packages', 'Bio'), path.join(root, 'packages', 'Chem')]);
    assert.equal(packageFolderOf(path.join(root, 'packages', 'Chem', 'src', 'package.ts')), path.join(root, 'packages', 'Chem'));
    assert.equal(packageFolderOf(path.join(root, 'packages', 'Tool', 'src', 'package.ts')), undefined);
    assert.equal(isPackageFolder(path.join(root, 'node_modules', 'Dep')), false);
    fs.rmSync(root, { recursive: true });
  });

  it("walks what grok walks: .gitignore's emitted src/**/*.js and .npmignore's lines left out", () => {
    const dir = makePackage(path.join(tmp(), 'Demo'));
    edit(dir, 'src/package.js', () => '// emitted');
    edit(dir, 'src/widgets/chart.ts', () => '');
    edit(dir, 'scripts/hello.py', () => '#name: hello');
    edit(dir, 'other/ignored.ts', () => '');
    assert.deepEqual(walkPackage(dir), ['scripts/hello.py', 'src/package-test.ts', 'src/package.g.ts', 'src/package.ts', 'src/widgets/chart.ts']);
    edit(dir, '.npmignore', (t) => `${t}\nsrc\n`);
    assert.deepEqual(walkPackage(dir), ['scripts/hello.py']);
  });

  it('tells a package file cheaply (the entry loads the features for it)', () => {
    assert.equal(
      mayBePackageFile('/w/src/package.ts', () => "import * as DG from 'datagrok-api/dg';"),
      true,
    );
    assert.equal(
      mayBePackageFile('/w/package.json', () => '{"dependencies": {"datagrok-api": "^1.27.0"}}'),
      true,
    );
    assert.equal(
      mayBePackageFile('/w/src/app.ts', () => "import * as fs from 'fs';"),
      false,
    );
    assert.equal(
      mayBePackageFile('/w/notes.md', () => 'datagrok-api'),
      false,
    );
  });
});

describe('packages: function annotations (the script-header grammar)', () => {
  const text = lines(
    "import * as DG from 'datagrok-api/dg';",
    '',
    '//name: Panel',
    '//tags: panel, widgets',
    '//input: column col {semType: Molecule}',
    '//output: widget result',
    'export function panel(col: DG.Column) {}',
    '',
    '// just a comment',
    'export const helper = (x: number) => x;',
    '',
    '//name: Detect',
    '//meta.role: semTypeDetector',
    '//output: string semType',
    'export async function detect() {}',
  );

  it('reads each block above a function, parsed as a header with inputs, options and the function below', () => {
    const blocks = annotationBlocks(text);
    assert.deepEqual(
      blocks.map((b) => [b.header.firstLine, b.header.lastLine, b.declared?.name, isAnnotation(b)]),
      [
        [2, 5, 'panel', true],
        [8, 8, 'helper', false],
        [11, 13, 'detect', true],
      ],
    );
    const [panel] = blocks;
    assert.equal(panel.header.value('name'), 'Panel');
    assert.deepEqual(panel.header.inputs[0].options, { semType: 'Molecule' });
    const subject = roleSubject(panel.header);
    assert.deepEqual(subject.tags, ['panel', 'widgets']);
    assert.equal(subject.roleLine('panel'), 3);
    assert.deepEqual(roleSubject(blocks[2].header).metaRoles, ['semTypeDetector']);
  });

  it("checks roles as grok does: the detector's missing input on its role line, outputs, the app's prefix", () => {
    const detect = roleSubject(annotationBlocks(text)[2].header);
    assert.deepEqual(roleFindings(detect, 'semTypeDetector'), [{ line: 12, message: 'Input 0 missing: expected col: Column' }]);
    const panel = roleSubject(annotationBlocks(text)[0].header);
    assert.deepEqual(roleFindings(panel, 'panel'), []);
    assert.deepEqual(roleFindings(panel, 'widgets'), []);
    const app = roleSubject(annotationBlocks(lines('//name: AppLauncher', '//tags: app', '//output: string x', 'export function a() {}'))[0].header);
    assert.deepEqual(
      roleFindings(app, 'app').map((f) => f.message),
      ['Prefix "App" is not needed. Consider removing it.', 'Output mismatch: expected one of (void | View), got (string)'],
    );
  });

  it('puts the unknown tag, the wrong input name and the cache value on their own lines and columns', () => {
    const found = functionFindings('src/package.ts', lines('//name: f', '//bogus: 1', '//input: string export', '//meta.cache: maybe', 'export function f(e: string) {}'));
    assert.deepEqual(
      found.map((f) => [f.rule, f.line, f.start, f.end, f.function]),
      [
        ['header-tag', 2, 2, 7, 'f'],
        ['input-name', 3, 16, 22, 'f'],
        ['cache', 4, 14, 19, 'f'],
      ],
    );
  });
});

describe("packages: grok check's rules on the other files", () => {
  it('reads datagrok-api imports and heavy imports line by line, and webpack externals as grok does', () => {
    const imports = lines("import * as DG from 'datagrok-api/dg';", "import { Func } from 'datagrok-api/src/functions';", "import { EditorView } from 'codemirror';");
    assert.deepEqual(
      datagrokApiImports('src/a.ts', imports).map((f) => [f.line, f.start, f.end]),
      [[2, 22, 48]],
    );
    assert.deepEqual(
      heavyImports('src/a.ts', imports, 'Demo').map((f) => f.line),
      [3],
    );
    assert.deepEqual(heavyImports('src/tests/a.ts', imports, 'Demo'), []);
    assert.deepEqual(webpackExternals("module.exports = { externals: { 'datagrok-api/dg': 'DG', 'rxjs': 'rxjs', } };"), { 'datagrok-api/dg': 'DG', rxjs: 'rxjs' });
  });

  it('flags the .npmignore traps: src (no functions published), webpack.config.js (older servers), dist', () => {
    const found = (text: string, webpack = true) => npmIgnoreFindings(text, webpack).map((f) => [f.rule, f.line]);
    assert.deepEqual(found('node_modules/\nsrc\n'), [['npmignore-src', 2]]);
    assert.deepEqual(found('/src/\n'), [['npmignore-src', 1]]);
    assert.deepEqual(found('src/**\n'), [['npmignore-src', 1]]);
    assert.deepEqual(found('**/*.d.ts\n!src/package-api.d.ts\n'), []);
    // Emitted JavaScript of a TypeScript package is no trap; a JavaScript package's entry is.
    assert.deepEqual(found('src/**/*.js\n'), []);
    assert.deepEqual(
      npmIgnoreFindings('src/**/*.js\n', false, 'src/package.js').map((f) => f.rule),
      ['npmignore-src'],
    );
    assert.deepEqual(found('webpack.config.js\ndist/\n'), [
      ['npmignore-dist', 2],
      ['npmignore-webpack', 1],
    ]);
    assert.deepEqual(found('webpack.config.js\n', false), []);
    assert.deepEqual(
      npmIgnoreFindings(undefined, false).map((f) => [f.file, f.rule]),
      [['package.json', 'npmignore-missing']],
    );
  });

  it('reads CHANGELOG headings as grok does: a version with a date or WIP, or v.next', () => {
    assert.deepEqual(changelogFindings('# Demo\n\n## v.next\n\n## 1.2.0 (2026-11-28)\n', '1.2.0'), []);
    assert.deepEqual(changelogFindings('## 1.2.0 (WIP)\n', '1.2.0'), []);
    assert.deepEqual(
      changelogFindings('# Demo\n\n## 1.2.0 - 2026-11-28\n', '1.2.0').map((f) => [f.line, f.message.slice(0, 40)]),
      [[3, "CHANGELOG: '## 1.2.0 - 2026-11-28' does "]],
    );
    assert.deepEqual(
      changelogFindings('## 1.1.0 (2026-11-01)\n', '1.2.0').map((f) => [f.line, f.message.slice(0, 40)]),
      [[1, 'Latest package version (1.2.0) is not in']],
    );
  });

  it("puts package.json's findings on their field's line, and line 1 for a missing field", () => {
    const text = '{\n  "name": "demo",\n  "version": "1.0.0",\n  "dependencies": {\n    "datagrok-api": "latest",\n    "rxjs": "^6.5.5"\n  }\n}\n';
    const found = manifestFindings(text, JSON.parse(text), {
      isPublic: false,
      isWebpack: false,
      externals: null,
      platformDeps: { rxjs: { version: '6.5.5' } },
      exists: () => true,
    });
    assert.deepEqual(
      found.map((f) => [f.rule, f.line, f.severity]),
      [
        ['package-description', 1, 'error'],
        ['api-version', 5, 'error'],
        ['platform-library', 6, 'warning'],
      ],
    );
  });
});

describe('packages: the palette says the count', () => {
  it('counts errors and warnings, or says there are none', () => {
    const f = (severity: 'error' | 'warning'): Finding => ({ file: 'package.json', line: 1, rule: 'package-description', severity, message: '' });
    assert.equal(findingsSummary('Demo', []), 'grok check: no problems in Demo.');
    assert.equal(findingsSummary('Demo', [f('error'), f('warning'), f('warning')]), 'grok check: 1 error, 2 warnings in Demo (see Problems).');
    assert.equal(findingsSummary('Demo', [f('warning')]), 'grok check: 1 warning in Demo (see Problems).');
  });
});

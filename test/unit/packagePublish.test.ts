// The pure parts of publishing a package: the server's name of a package, connection placeholders, the
// bundle marker's server versions, the package manager a lockfile names, the functions annotations declare.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { predatesBundleDetection } from '../../src/platform/packages/publish/archive';
import { packageManagerOf } from '../../src/platform/packages/publish/build';
import { serverName } from '../../src/platform/packages/publish/manifest';
import { fillPlaceholders } from '../../src/platform/packages/publish/packFiles';
import { declaredFunctions, isEntrySource } from '../../src/platform/packages/publish/verify';

describe('packages: publish (pure parts)', () => {
  it('names a package as the server does (datagrok-tools kebabToCamelCase(removeScope(name)))', () => {
    assert.equal(serverName('hello'), 'Hello');
    assert.equal(serverName('@datagrok/power-pack'), 'PowerPack');
    assert.equal(serverName('api-tests'), 'ApiTests');
  });

  it('fills placeholders from the environment and names what is missing', () => {
    const ph = (name: string) => `$\{${name}}`;
    const text = `{"a": "${ph('HOST')}", "b": "${ph('USER')}", "c": "${ph('HOST')}"}`;
    assert.deepEqual(fillPlaceholders(text, { HOST: 'db' }), { text: `{"a": "db", "b": "${ph('USER')}", "c": "db"}`, missing: ['USER'] });
    assert.deepEqual(fillPlaceholders(text, { HOST: 'h', USER: '' }).missing, ['USER'], 'an empty variable is missing, as grok reads it');
  });

  it('adds the webpack.config.js marker for servers before 1.28 and unknown versions only', () => {
    assert.equal(predatesBundleDetection('1.26.0-emulator'), true);
    assert.equal(predatesBundleDetection('1.27.9'), true);
    assert.equal(predatesBundleDetection('1.28.0'), false);
    assert.equal(predatesBundleDetection('2.0.1'), false);
    assert.equal(predatesBundleDetection(undefined), true);
    assert.equal(predatesBundleDetection('bleeding-edge'), true);
  });

  it('runs the build with the package manager of the nearest lockfile (a workspace root counts)', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'pm-'));
    try {
      const pkg = path.join(root, 'packages', 'p');
      mkdirSync(pkg, { recursive: true });
      writeFileSync(path.join(root, 'pnpm-workspace.yaml'), 'packages: ["packages/*"]\n');
      assert.equal(packageManagerOf(pkg), 'pnpm');
      writeFileSync(path.join(pkg, 'yarn.lock'), '');
      assert.equal(packageManagerOf(pkg), 'yarn');
      rmSync(path.join(pkg, 'yarn.lock'));
      writeFileSync(path.join(pkg, 'package-lock.json'), '{}');
      assert.equal(packageManagerOf(pkg), 'npm');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('reads declared functions from the entry sources only, by their annotated name', () => {
    assert.deepEqual(
      ['src/package.ts', 'src/package.g.ts', 'src/package-test.ts', 'package.js', 'detectors.js', 'src/widgets.ts', 'src/package-api.d.ts', 'dist/package.js'].filter(
        isEntrySource,
      ),
      ['src/package.ts', 'src/package.g.ts', 'src/package-test.ts', 'package.js', 'detectors.js'],
    );
    const source =
      '//name: Add Numbers\n//input: int a\n//output: int s\nexport function add(a: number) {\n  return a;\n}\n\n// a plain comment\nexport function helper() {}\n\n//input: string x\nexport const shout = (x: string) => x;\n';
    const entries = [
      { name: 'src/package.ts', file: '', mtime: '', content: Buffer.from(source) },
      { name: 'src/other.ts', file: '', mtime: '', content: Buffer.from(source) },
    ];
    assert.deepEqual(declaredFunctions(entries).sort(), ['Add Numbers', 'shout']);
  });
});

// A light start, checked on the built files: dist/extension.js (what activation loads) holds no feature's
// code and neither the HTTP stack (the proxy agents), papaparse nor jsonc-parser: it loads dist/features.js on first use, which loads
// dist/api.js, dist/papaparse.js and dist/jsonc-parser.js on theirs (these load in plain Node). That activation loads nothing else from dist/ is checked in the real host
// (test/integration/activation.test.ts); that the first request works, by every integration suite.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './paths';

const dist = path.join(repoRoot, 'dist');
const read = (file: string) => fs.readFileSync(path.join(dist, file), 'utf8');

describe('Light start (the built bundles)', function () {
  this.timeout(120_000);

  before(() => {
    if (
      ['extension.js', 'features.js', 'api.js', 'network.js', 'papaparse.js', 'jsonc-parser.js', 'yaml.js', 'yazl.js', 'ignore-walk.js'].every((file) =>
        fs.existsSync(path.join(dist, file)),
      )
    )
      return;
    const build = spawnSync(process.execPath, [path.join(repoRoot, 'esbuild.mjs')], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
    assert.equal(build.status, 0, `node esbuild.mjs failed:\n${build.stdout}${build.stderr}`);
  });

  it('dist/extension.js holds neither the HTTP stack, papaparse nor jsonc-parser, and requires their bundles lazily', () => {
    const extension = read('extension.js');
    // undici's HTTP parser (llhttp) and its user agent name (neither belongs in any bundle now); the proxy
    // agents' debug names; papaparse's table of bad delimiters; jsonc-parser's error code names.
    for (const marker of ['llhttp', 'undici', 'https-proxy-agent', 'BAD_DELIMITERS', 'InvalidCommentToken'])
      assert.ok(!extension.includes(marker), `dist/extension.js contains "${marker}"`);
    assert.match(extension, /require\("\.\/api\.js"\)/);
    assert.match(extension, /require\("\.\/network\.js"\)/);
    assert.match(extension, /require\("\.\/features\.js"\)/);
    const features = read('features.js');
    for (const marker of ['llhttp', 'undici', 'https-proxy-agent', 'BAD_DELIMITERS', 'InvalidCommentToken'])
      assert.ok(!features.includes(marker), `dist/features.js contains "${marker}"`);
    assert.match(features, /require\("\.\/papaparse\.js"\)/);
    assert.match(features, /require\("\.\/jsonc-parser\.js"\)/);
    // grok's config and a publish's packages: each in its own file, loaded when first used.
    for (const lazy of ['yaml', 'yazl', 'ignore-walk']) assert.match(features, new RegExp(`require\\("\\./${lazy}\\.js"\\)`), `dist/features.js requires ${lazy}`);
    // yaml's error codes, yazl's zip signature check, ignore-walk's class: in their own bundles only.
    for (const marker of ['BAD_INDENT', 'end of central directory record signature', 'WalkerSync']) assert.ok(!features.includes(marker), `dist/features.js contains "${marker}"`);
  });

  it('dist/extension.js holds no feature: its commands, views and providers are stand-ins (the features are in dist/features.js)', () => {
    const extension = read('extension.js');
    // A command handler's message, a tree's label, a parameter file CodeLens title, a tool's method:
    // each in dist/features.js only.
    for (const marker of ['Copied ', 'Show more', 'Run Function', 'Agent tool ']) {
      assert.ok(!extension.includes(marker), `dist/extension.js contains "${marker}"`);
      assert.ok(read('features.js').includes(marker), `dist/features.js lacks "${marker}"`);
    }
  });

  for (const bundle of ['extension.js', 'features.js']) {
    it(`dist/${bundle} uses the vscode API object itself, not a copy per module (esbuild.mjs, one-vscode-namespace)`, () => {
      const text = read(bundle);
      const shared = text.match(/\(__dgVscode\?\?=require\("vscode"\)\)/g) ?? [];
      assert.ok(shared.length > 1, `no shared vscode namespace in dist/${bundle}`);
      assert.equal(text.match(/require\("vscode"\)/g)?.length, shared.length, 'a require("vscode") outside the shared namespace');
    });
  }

  it('dist/api.js holds the client with its proxy agents (no HTTP parser of its own); the lazy bundles load in plain Node without vscode', () => {
    const api = read('api.js');
    assert.ok(api.includes('https-proxy-agent'), 'dist/api.js lacks the proxy agents');
    assert.ok(!api.includes('llhttp') && !api.includes('undici'), 'dist/api.js holds undici');
    const script = `const api = require(${JSON.stringify(path.join(dist, 'api.js'))});
const papa = require(${JSON.stringify(path.join(dist, 'papaparse.js'))});
const jsonc = require(${JSON.stringify(path.join(dist, 'jsonc-parser.js'))});
const yaml = require(${JSON.stringify(path.join(dist, 'yaml.js'))});
const yazl = require(${JSON.stringify(path.join(dist, 'yazl.js'))});
const walk = require(${JSON.stringify(path.join(dist, 'ignore-walk.js'))});
if (typeof api.createClient !== 'function') throw new Error('no createClient');
if (papa.parse('a,b').data[0][1] !== 'b') throw new Error('papaparse does not parse');
if (jsonc.parse('{ // c\\n "a": 1, }', [], { allowTrailingComma: true }).a !== 1) throw new Error('jsonc-parser does not parse');
if (yaml.parseDocument('servers:\\n  a: {url: x}').getIn(['servers', 'a', 'url']) !== 'x') throw new Error('yaml does not parse');
if (typeof yazl.ZipFile !== 'function') throw new Error('no yazl.ZipFile');
if (typeof walk !== 'function' || walk.sync({ path: ${JSON.stringify(dist)} }).length === 0) throw new Error('ignore-walk does not walk');`;
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
  });
});

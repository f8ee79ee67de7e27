// What the .vsix ships (`vsce ls`, as `npm run package` would pack it): exactly the bundles (the extension, and
// the API client and papaparse it loads on first use), the manifest,
// the docs and media/. A file that slips in (sources, out/, a source map, test fixtures) or drops out
// (the bundle, the parameter-file schema) fails here rather than in a user's VS Code.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './paths';
import { listVsixFiles } from './vsix';

/** Every file below media/, as `media/…` with forward slashes. */
function mediaFiles(): string[] {
  return (fs.readdirSync(path.join(repoRoot, 'media'), { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

describe('Packaged extension (.vsix file list)', function () {
  this.timeout(120_000);

  before(() => {
    // `npm test` builds before test:api; run on its own, the bundle may not exist yet.
    if (fs.existsSync(path.join(repoRoot, 'dist', 'extension.js'))) return;
    const build = spawnSync(process.execPath, [path.join(repoRoot, 'esbuild.mjs')], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
    assert.equal(build.status, 0, `node esbuild.mjs failed:\n${build.stdout}${build.stderr}`);
  });

  it('vsce ls lists exactly the bundles, manifest, docs and media/', () => {
    const expected = [
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'package.json',
      'dist/boot.js',
      'dist/extension.js',
      'dist/features.js',
      'dist/api.js',
      'dist/network.js',
      'dist/dataViewWebview.css',
      'dist/dataViewWebview.js',
      'dist/dataViewWorker.js',
      'dist/notebookRenderer.js',
      'dist/papaparse.js',
      'dist/jsonc-parser.js',
      'dist/yaml.js',
      'dist/yazl.js',
      'dist/ignore-walk.js',
      'dist/mcp.js',
      ...mediaFiles(),
    ].sort();
    assert.ok(
      ['media/datagrok.svg', 'media/icon.png', 'media/parameter-file.schema.json'].every((file) => expected.includes(file)),
      `media/ lacks what package.json names: ${expected}`,
    );
    assert.deepEqual(listVsixFiles().sort(), expected);
  });
});

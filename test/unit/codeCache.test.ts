// The bundles' loader through V8's code cache (src/start/codeCache.ts), in plain Node on small modules:
// it loads as require does, writes the cache after the load, uses it the next time, and compiles as usual
// when the cache is refused (corrupt) or belongs to another version of the file. A load that should use
// the cache runs in a fresh Node: within one process V8 reuses its own compilation of the same source and
// never reads the cache.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { codeCacheDir, loadBundle } from '../../src/start/codeCache';

let dir = '';
let storage = '';
let file = '';

const forget = () => {
  for (const name of ['a.js', 'b.js']) delete require.cache[path.join(dir, name)];
};
const cacheFiles = () => (fs.existsSync(codeCacheDir(storage)) ? fs.readdirSync(codeCacheDir(storage)) : []);
/** How a fresh Node loads the file: what became of the cache, and the module's value. */
function loadFresh(writeAfterMs?: number): { cache: string; value: number } {
  const script = `const { loadBundle } = require(${JSON.stringify(require.resolve('../../src/start/codeCache'))});
const loaded = loadBundle(${JSON.stringify(file)}, ${JSON.stringify(storage)}, { writeAfterMs: ${writeAfterMs ?? 0} });
process.stdout.write(JSON.stringify({ cache: loaded.cache, value: loaded.exports.value }));
setTimeout(() => undefined, ${(writeAfterMs ?? 0) + 300}); // alive while the (unref'd) write is due, as an extension host is`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as { cache: string; value: number };
}

async function written(): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const found = cacheFiles().find((f) => f.endsWith('.bin'));
    if (found) return path.join(codeCacheDir(storage), found);
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no cache written');
}

describe('Code cache of the bundles', () => {
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-code-cache-'));
    storage = path.join(dir, 'storage');
    file = path.join(dir, 'a.js');
    fs.writeFileSync(path.join(dir, 'b.js'), 'module.exports = 41;\n');
    fs.writeFileSync(
      file,
      "const b = require('./b.js');\nmodule.exports = { value: b + 1, dir: __dirname, self: require.cache[__filename] === module, fn() { return 'ran'; } };\n",
    );
  });

  afterEach(() => {
    forget();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads as require does (relative requires, require.cache, __dirname), writes the cache after, and uses it next time', async () => {
    const first = loadBundle(file, storage, { writeAfterMs: 0 });
    assert.equal(first.cache, 'written later');
    const exports = first.exports as { value: number; dir: string; self: boolean; fn(): string };
    assert.deepEqual([exports.value, exports.dir, exports.self, exports.fn()], [42, dir, true, 'ran']);
    assert.equal(require.cache[file]?.exports, exports, 'in Node’s module cache, as require puts it');
    assert.equal(loadBundle(file, storage).exports, exports, 'loaded once');
    await written();
    assert.deepEqual(loadFresh(), { cache: 'used', value: 42 });
  });

  it('a corrupt cache is refused and the file compiled as usual, then written again; a changed file gets its own cache', async () => {
    loadBundle(file, storage, { writeAfterMs: 0 });
    const cacheFile = await written();
    fs.writeFileSync(cacheFile, Buffer.from('not a code cache'));
    // The fresh process writes it again right after its load, before it exits.
    assert.deepEqual(loadFresh(0), { cache: 'refused', value: 42 });
    assert.deepEqual(loadFresh(), { cache: 'used', value: 42 }, 'written again after the refusal');
    fs.writeFileSync(file, 'module.exports = { value: 7 };\n');
    assert.deepEqual(loadFresh(), { cache: 'written later', value: 7 }, "the old file's cache does not fit the new one");
    assert.deepEqual(cacheFiles().length, 1, `the old version's cache goes: ${cacheFiles()}`);
    assert.deepEqual(loadFresh(), { cache: 'used', value: 7 });
  });

  it('a module that throws is not kept; without a storage folder it is a plain require', () => {
    fs.writeFileSync(file, "throw new Error('broken bundle');\n");
    assert.throws(() => loadBundle(file, storage), /broken bundle/);
    assert.equal(require.cache[file], undefined);
    fs.writeFileSync(file, 'module.exports = 5;\n');
    assert.deepEqual(loadBundle(file, undefined), { exports: 5, cache: 'off' });
  });
});

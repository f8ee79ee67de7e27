// No import cycles under src/, type-only imports included: the modules form layers (in src/api: types and
// errors at the bottom, the transport above them, the endpoints and the client's interface on top), so each
// can be read, tested and changed from the bottom up. Imports are read with TypeScript's own scanner; the
// cycles are the strongly connected components of the graph (Tarjan), each printed as the files it holds.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const src = path.join(repoRoot, 'src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

/**
 * The files under src/ that `file` imports or re-exports from (relative specifiers), `import type` included
 * (TypeScript's pre-processing scanner: no full parse). A `require()` — how the light start loads the
 * features and the API on first use, not when the module loads — does not count.
 */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, false);
  const targets: string[] = [];
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const base = path.resolve(path.dirname(file), fileName);
    const found = [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate));
    if (found) targets.push(found);
  }
  return targets;
}

/** Groups of two or more files that import each other in a circle. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.map((f) => path.relative(repoRoot, f)).sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import cycles', () => {
  it('src/ has none: every module sits on the ones below it', () => {
    const graph = new Map(sourceFiles(src).map((f) => [f, importsOf(f)]));
    assert.ok(graph.size > 100, `read ${graph.size} files under src/`);
    const found = cycles(graph);
    assert.deepEqual(found, [], `files that import each other in a circle (break each by moving what both need below them):\n${found.map((c) => `  ${c.join(' → ')}`).join('\n')}`);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['/r/a.ts', ['/r/b.ts']],
      ['/r/b.ts', ['/r/c.ts']],
      ['/r/c.ts', ['/r/a.ts']],
      ['/r/d.ts', ['/r/a.ts']],
    ]);
    assert.equal(cycles(graph).length, 1);
    assert.equal(cycles(graph)[0].length, 3);
  });
});

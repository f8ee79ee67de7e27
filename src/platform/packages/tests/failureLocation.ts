// Where a failed package test failed, in the package's own source: the frames of the failure's stack that
// point into the package's bundle (`…/dist/package-test.js:L:C`, wherever the server served it from)
// mapped back through the bundle's source map (`dist/package-test.js.map`, read by the caller) with
// @jridgewell/trace-mapping. The first frame that lands in the package's own files (not node_modules, not
// a library outside the package) is the place. Pure: the caller reads the maps.
import * as path from 'node:path';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';

export interface SourceLocation {
  /** The source file, relative to the package folder, with `/`. */
  file: string;
  /** 0-based, as VS Code's positions. */
  line: number;
  character: number;
}

const FRAME = /(dist\/[\w.@-]+\.js):(\d+):(\d+)/;

/** The bundle files a stack's frames point into (`dist/package-test.js`…), in order, each once. */
export function bundlesInStack(stack: string): string[] {
  const found: string[] = [];
  for (const line of stack.split('\n')) {
    const m = FRAME.exec(line);
    if (m && !found.includes(m[1])) found.push(m[1]);
  }
  return found;
}

/**
 * The first frame of `stack` that maps to one of the package's own source files. `maps` gives each
 * bundle's source map text (keyed as `bundlesInStack` names them); a bundle without one is skipped.
 */
export function failureLocation(stack: string, maps: ReadonlyMap<string, string>): SourceLocation | undefined {
  const traces = new Map<string, TraceMap | undefined>();
  for (const line of stack.split('\n')) {
    const m = FRAME.exec(line);
    if (!m) continue;
    const bundle = m[1];
    if (!traces.has(bundle)) {
      const text = maps.get(bundle);
      let trace: TraceMap | undefined;
      try {
        trace = text ? new TraceMap(text) : undefined;
      } catch {
        trace = undefined;
      }
      traces.set(bundle, trace);
    }
    const trace = traces.get(bundle);
    if (!trace) continue;
    const original = originalPositionFor(trace, { line: Number(m[2]), column: Math.max(0, Number(m[3]) - 1) });
    if (!original.source || original.line === null) continue;
    const file = ownFile(bundle, original.source);
    if (file) return { file, line: original.line - 1, character: original.column ?? 0 };
  }
  return undefined;
}

/** A map's source as a path inside the package, or undefined for anything outside it. */
function ownFile(bundle: string, source: string): string | undefined {
  const withoutScheme = source.replace(/^webpack:\/\/[^/]*\//, '');
  if (/^[a-z][\w+.-]*:/i.test(withoutScheme) && !withoutScheme.startsWith('file:')) return undefined;
  const relative = source.startsWith('webpack://')
    ? path.posix.normalize(withoutScheme)
    : path.posix.normalize(path.posix.join(path.posix.dirname(bundle), withoutScheme.replace(/^file:\/\//, '')));
  if (relative.startsWith('../') || relative.startsWith('/') || relative.split('/').includes('node_modules')) return undefined;
  return relative.replace(/^\.\//, '');
}

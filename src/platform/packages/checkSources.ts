// `grok check`'s rules on a package's source files (datagrok-tools check.js `checkDatagrokApiImports`,
// `checkImportStatements`, `checkHeavyImports`), line by line: grok reads each statement on one line, and
// so do these. Pure: each takes a file's text.
import type { Finding } from './findings';

const ALLOWED_API = /^datagrok-api\/(dg|grok|ui|datagrok)$/;
const IMPORT_LINE = /^\s*(?:import|export)\s+.*['"]([^'"]+)['"]/;
const STATIC_IMPORT = /^\s*import\s+(?!type\s).*['"]([^'"]+)['"]/;

const HEAVY: { pattern: string; reason: string; suggestion: string }[] = [
  {
    pattern: '@datagrok-libraries/test',
    reason: 'test-only library imported in production code',
    suggestion: 'replace delay() with DG.delay(), testEvent() with alternatives from utils',
  },
  { pattern: 'codemirror', reason: 'heavy text editor (~870 KB) statically bundled', suggestion: 'use dynamic import() inside the function that opens the editor' },
  { pattern: 'konva', reason: 'heavy canvas library (~410 KB) statically bundled', suggestion: 'use dynamic import() to load on demand' },
  {
    pattern: 'exceljs',
    reason: 'heavy Excel library (~940 KB) statically bundled',
    suggestion: 'offload to a web worker (see PowerPack/src/workers/exceljs-worker.ts)',
  },
];

function specifierAt(line: string, specifier: string): { start: number; end: number } {
  const start = line.lastIndexOf(specifier);
  return { start, end: start + specifier.length };
}

/** `datagrok-api` only as `datagrok-api/dg`, `/grok`, `/ui` (error). */
export function datagrokApiImports(file: string, text: string): Finding[] {
  const found: Finding[] = [];
  text.split('\n').forEach((line, i) => {
    const specifier = IMPORT_LINE.exec(line)?.[1];
    if (!specifier?.startsWith('datagrok-api/') || ALLOWED_API.test(specifier)) return;
    found.push({
      file,
      line: i + 1,
      ...specifierAt(line, specifier),
      rule: 'datagrok-api-import',
      severity: 'error',
      message: `Invalid datagrok-api import. Only these paths are allowed: 'datagrok-api/dg', 'datagrok-api/grok', 'datagrok-api/ui'. Deep imports like '${specifier}' are not permitted.`,
    });
  });
  return found;
}

/** The externals of a webpack config, read as grok reads them (check.js `extractExternals`); null when it finds none. */
export function webpackExternals(config: string): Record<string, string> | null {
  const match = /(?<=externals)\s*:\s*(\{[\S\s]*?\})/.exec(config);
  if (!match) return null;
  const json = match[1]
    .replace(/'/g, '"')
    .replace(/\/\/.*(\r\n|\r|\n)/, '')
    .replace(/(?<=[\S\s]),(?=\s*\})/, '');
  try {
    return JSON.parse(json) as Record<string, string>;
  } catch {
    return null;
  }
}

/** An import of a library the webpack config makes external, by another path than the external's (error). */
export function externalImports(file: string, text: string, externals: Record<string, string>): Finding[] {
  const keys = Object.keys(externals);
  const modules = keys.flatMap((k) => (k.includes('/') ? [k, k.split('/', 1)[0]] : [k]));
  if (modules.length === 0) return [];
  const found: Finding[] = [];
  text.split('\n').forEach((line, i) => {
    if (/^\s*\/\//.test(line)) return;
    const specifier = /^\s*import\s+.*['"]([^'"]+)['"]/.exec(line)?.[1];
    if (!specifier || !modules.some((m) => specifier.includes(m)) || keys.some((k) => specifier.endsWith(k))) return;
    found.push({
      file,
      line: i + 1,
      ...specifierAt(line, specifier),
      rule: 'external-import',
      severity: 'error',
      message: `Pay attention to file ${file}: import statement \`${line.trim()}\` differs from the path given in the webpack config as an external module. It can increase the bundle size.`,
    });
  });
  return found;
}

/** Whether grok leaves a file out of the heavy-import rule: tests, workers, vendored libraries. */
function exemptFromHeavy(file: string, packageName: string): boolean {
  const base = file.slice(file.lastIndexOf('/') + 1);
  return (
    /tests?$/i.test(packageName) ||
    file.includes('/tests/') ||
    file.includes('/test/') ||
    base.includes('-test.') ||
    base.includes('-testing.') ||
    file.includes('/workers/') ||
    file.includes('/libs/')
  );
}

/** A static import of a heavy or test-only library (warning). */
export function heavyImports(file: string, text: string, packageName: string): Finding[] {
  if (exemptFromHeavy(file, packageName)) return [];
  const found: Finding[] = [];
  text.split('\n').forEach((line, i) => {
    const specifier = STATIC_IMPORT.exec(line)?.[1];
    if (!specifier) return;
    for (const rule of HEAVY)
      if (specifier.includes(rule.pattern))
        found.push({ file, line: i + 1, ...specifierAt(line, specifier), rule: 'heavy-import', severity: 'warning', message: `${rule.reason}. Hint: ${rule.suggestion}` });
  });
  return found;
}

// `grok check`'s rules on a package's other files (datagrok-tools check.js `checkNpmIgnore`,
// `checkSourceMap`, `checkChangelog`, `checkScriptNames`), and the two `.npmignore` traps grok does not
// check (Datagrok's own package-development rules): `src` ignored publishes a package with no functions,
// `webpack.config.js` ignored keeps servers before 1.28 from loading it. Pure: each takes texts.
import { Minimatch } from 'minimatch';
import type { Finding } from './findings';

/**
 * `.npmignore`'s findings; `text` undefined when the package has none (reported on package.json). `entry`:
 * the package's entry file (src/package.ts, src/package.js or package.js), which an ignored `src` loses.
 */
export function npmIgnoreFindings(text: string | undefined, isWebpack: boolean, entry = 'src/package.ts'): Finding[] {
  if (text === undefined) return [{ file: 'package.json', line: 1, rule: 'npmignore-missing', severity: 'error', message: '.npmignore doesnt exists' }];
  const found: Finding[] = [];
  const rows = text.split('\n');
  const distAt = rows.findIndex((row) => /\s*dist\/?\s*$/.test(row));
  if (distAt >= 0) found.push({ file: '.npmignore', line: distAt + 1, rule: 'npmignore-dist', severity: 'error', message: 'there is dist directory in .npmignore' });
  rows.forEach((row, i) => {
    const rule = row.trim();
    if (!rule || rule.startsWith('#') || rule.startsWith('!')) return;
    const m = new Minimatch(rule, { matchBase: true, dot: true, nocase: true });
    const ignores = (p: string) => m.match(p) || m.match(`/${p}`) || m.match(`${p}/`) || m.match(`/${p}/`);
    if ((entry.startsWith('src/') && ignores('src')) || ignores(entry))
      found.push({
        file: '.npmignore',
        line: i + 1,
        rule: 'npmignore-src',
        severity: 'error',
        message: `"${rule}" ignores src/: grok publish leaves the package's sources out, and the package is published with no functions. Remove the line.`,
      });
    if (isWebpack && ignores('webpack.config.js'))
      found.push({
        file: '.npmignore',
        line: i + 1,
        rule: 'npmignore-webpack',
        severity: 'warning',
        message: `"${rule}" ignores webpack.config.js: servers before 1.28 build the package from it and cannot load the package without it. Remove the line.`,
      });
  });
  return found;
}

/** Source maps in tsconfig.json and webpack.config.js, and the built dist files (only for webpack packages, as grok). */
export function sourceMapFindings(tsconfig: string | undefined, webpack: string | undefined, exists: (rel: string) => boolean): Finding[] {
  if (tsconfig === undefined || webpack === undefined) return [];
  const found: Finding[] = [];
  const lineOf = (text: string, pattern: RegExp) => {
    const i = text.split('\n').findIndex((l) => pattern.test(l));
    return i >= 0 ? i + 1 : 1;
  };
  if (!/"sourceMap"\s*:\s*true/.test(tsconfig))
    found.push({
      file: 'tsconfig.json',
      line: lineOf(tsconfig, /"sourceMap"|"compilerOptions"/),
      rule: 'source-map',
      severity: 'error',
      message: 'ts config doesnt contain source map',
    });
  if (!/devtool\s*:\s*(([^\n]*?[^\n]*source-map[^\n]*:[^\n]*source-map[^\n]*)|('(inline-)?source-map'))\s*/.test(webpack))
    found.push({ file: 'webpack.config.js', line: lineOf(webpack, /devtool/), rule: 'source-map', severity: 'error', message: 'webpack config doesnt contain source map' });
  for (const dist of ['dist/package.js', 'dist/package-test.js'])
    if (!exists(dist))
      found.push({ file: 'webpack.config.js', line: 1, rule: 'dist-missing', severity: 'error', message: `${dist} file doesnt exist. Run 'npm run build' first.` });
  return found;
}

const GUIDELINE = 'Changelog guideline: https://datagrok.ai/help/develop/dev-process/changelog-policy#changelog-guideline';

/** CHANGELOG.md's headings and whether it names the package's version; `text` undefined when there is none. */
export function changelogFindings(text: string | undefined, version: string): Finding[] {
  if (text === undefined) return [{ file: 'package.json', line: 1, rule: 'changelog', severity: 'warning', message: 'CHANGELOG.md file does not exist' }];
  const headings = text
    .split('\n')
    .map((line, i) => ({ line: i + 1, text: line }))
    .filter((h) => /^##[^#].*$/.test(h.text));
  const at = (line: number, message: string): Finding => ({ file: 'CHANGELOG.md', line, rule: 'changelog', severity: 'warning', message });
  if (headings.length === 0) return [at(1, `No versions found in CHANGELOG.md. ${GUIDELINE}`)];
  const found: Finding[] = [];
  for (const h of headings)
    if (!/^## (v\.next|\d+\.\d+\.\d+ \((\d{4}-\d{2}-\d{2}|WIP)\))$/.test(h.text))
      found.push(at(h.line, `CHANGELOG: '${h.text}' does not match the h2 format, expected: ## <version> (<yyyy-mm-dd> | WIP) or ## v.next. ${GUIDELINE}`));
  const versionOf = (h?: { text: string }) => h && /^## (\d+\.\d+\.\d+)/.exec(h.text)?.[1];
  if (versionOf(headings[0]) !== version && versionOf(headings[1]) !== version)
    found.push(at(headings[0].line, `Latest package version (${version}) is not in CHANGELOG. ${GUIDELINE}`));
  return found;
}

const SOURCE_EXTENSIONS = ['.ts', '.js', '.py', '.r', '.jl', '.m', '.sql'];

/** A source file whose name has other characters than letters, digits, `.`, `_`, `-` (grok's script names). */
export function fileNameFindings(files: readonly string[]): Finding[] {
  const found: Finding[] = [];
  for (const file of files) {
    const name = file.slice(file.lastIndexOf('/') + 1);
    const dot = name.lastIndexOf('.');
    if (dot <= 0 || !SOURCE_EXTENSIONS.includes(name.slice(dot).toLowerCase())) continue;
    if (!/^[A-Za-z0-9._-]*$/.test(name)) found.push({ file, line: 1, rule: 'file-name', severity: 'warning', message: `${name}: file name contains inappropriate symbols` });
  }
  return found;
}

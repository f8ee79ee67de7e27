// Contract: `grok check` (datagrok-tools 6.7.5, pinned in devDependencies) and the extension's check
// (src/platform/packages/check.ts) on the same packages: datagrok-tools' template, clean, then with one
// planted fault per rule. Every finding grok prints must be one of the extension's (same rule, same file
// or function) with a line; a clean template has none from either. Offline: the CLI only reads files.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { checkPackage } from '../../src/platform/packages/check';
import type { Finding, RuleId } from '../../src/platform/packages/findings';
import { FAULTS, makePackage } from '../fixtures/packages/faults';

const run = promisify(execFile);
const GROK = require.resolve('datagrok-tools/bin/grok.js');
/** A message grok prints in color: ESC[31m (error) or ESC[33m (warning) … ESC[0m. */
const COLORED = new RegExp(`${String.fromCharCode(27)}\\[3[13]m([\\s\\S]*?)${String.fromCharCode(27)}\\[0m`, 'g');

/** One finding as grok prints it, read back into what it is about. */
interface GrokFinding {
  text: string;
  rule: RuleId;
  file?: string;
  function?: string;
  /** Words the extension's message must contain too (the tag, the file name, the role's complaint). */
  mentions?: string;
}

/** grok check's printed findings: each colored (yellow warnings, red errors), a role's complaints one per line. */
async function grokCheck(dir: string): Promise<string[]> {
  let stdout: string;
  try {
    ({ stdout } = await run(process.execPath, [GROK, 'check'], { cwd: dir, env: { ...process.env, HOME: dir } }));
  } catch (e) {
    stdout = (e as { stdout: string }).stdout;
  }
  return [...stdout.matchAll(COLORED)].map((m) => m[1].trim());
}

type Reading = [RegExp, (m: RegExpExecArray, text: string) => GrokFinding[]];
const one =
  (rule: RuleId, extra: (m: RegExpExecArray) => Partial<GrokFinding> = () => ({})) =>
  (m: RegExpExecArray, text: string): GrokFinding[] => [{ text, rule, ...extra(m) }];

/** grok's wordings (bin/commands/check.js), each read as what it is about. */
const READINGS: Reading[] = [
  [/^Changelog guideline:/, () => []],
  [/^File "([^"]+)": Invalid datagrok-api import/, one('datagrok-api-import', (m) => ({ file: m[1] }))],
  [/^Pay attention to file (\S+): import statement/, one('external-import', (m) => ({ file: m[1] }))],
  [/^File "([^"]+)": (test-only library|heavy)/, one('heavy-import', (m) => ({ file: m[1] }))],
  [/^ts config doesnt contain source map$/, one('source-map', () => ({ file: 'tsconfig.json' }))],
  [/^webpack config doesnt contain source map$/, one('source-map', () => ({ file: 'webpack.config.js' }))],
  [/^(dist\/\S+) file doesnt exist/, one('dist-missing', (m) => ({ mentions: m[1] }))],
  [/^\.npmignore doesnt exists$/, one('npmignore-missing')],
  [/^there is dist directory in \.npmignore$/, one('npmignore-dist', () => ({ file: '.npmignore' }))],
  [/^(.+): file name contains inappropriate symbols$/, one('file-name', (m) => ({ mentions: m[1] }))],
  [/^Unknown header tag: (.+) In the file: (.+)\.$/, one('header-tag', (m) => ({ file: m[2], mentions: m[1] }))],
  [/^File (\S+), function (\S*): Wrong input names/, one('input-name', (m) => ({ file: m[1], function: m[2] }))],
  [/^File (\S+), function (\S*): (Can't use invalidateOn|unsupported)/, one('cache', (m) => ({ file: m[1], function: m[2] }))],
  [
    /^File (\S+), function (\S*):\n([\s\S]*)$/,
    ([, file, fn, body]) =>
      body.split(/\n(?=\S)/).map((complaint) => ({ text: complaint, rule: 'role-signature', file, function: fn, mentions: complaint.replace(/\s+/g, ' ').split(':')[0] })),
  ],
  [/^File "package.json": "description"/, one('package-description', () => ({ file: 'package.json' }))],
  [/^File "package.json": .*propert/i, one('package-properties', () => ({ file: 'package.json' }))],
  [/^File "package.json": .*(repository|author|beta)/, one('package-repository', () => ({ file: 'package.json' }))],
  [/^File "package.json": .*Datagrok API version/, one('api-version', () => ({ file: 'package.json' }))],
  [/^File "package.json": .*served by the platform/, one('platform-library', () => ({ file: 'package.json' }))],
  [/^File "package.json": .*[Ss]ource|^Source .* not found in the package\.$|^Webpack config parsing/, one('sources', () => ({ file: 'package.json' }))],
  [/^Release candidate error/, one('release-candidate', () => ({ file: 'package.json' }))],
  [/^CHANGELOG: |^Latest package version|^No versions found in CHANGELOG/, one('changelog', () => ({ file: 'CHANGELOG.md' }))],
  [/^CHANGELOG\.md file does not exist/, one('changelog')],
];

/** What a printed finding is about; a wording the test does not know fails it. */
function classify(printed: string): GrokFinding[] {
  for (const [pattern, read] of READINGS) {
    const m = pattern.exec(printed);
    if (m) return read(m, printed);
  }
  assert.fail(`grok check printed a finding this test does not know: ${JSON.stringify(printed)}`);
}

function isOurs(g: GrokFinding, f: Finding): boolean {
  return (
    f.rule === g.rule &&
    (g.file === undefined || f.file === g.file) &&
    (g.function === undefined || (f.function ?? '').toLowerCase() === g.function) &&
    (g.mentions === undefined || f.message.replace(/\s+/g, ' ').includes(g.mentions.replace(/\s+/g, ' ')))
  );
}

describe('contract: grok check (datagrok-tools 6.7.5) and the extension check the same packages', function () {
  this.timeout(60_000);
  let work: string;
  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'grok-check-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it("finds nothing in datagrok-tools' template, as grok check finds nothing", async () => {
    const dir = makePackage(path.join(work, 'clean', 'Demo'));
    assert.deepEqual(await grokCheck(dir), []);
    assert.deepEqual(checkPackage(dir).findings, []);
  });

  for (const [name, fault] of Object.entries(FAULTS)) {
    it(`${name}: every finding of grok check is one of ours, with a line`, async () => {
      const dir = makePackage(path.join(work, name.replace(/\W+/g, '-'), fault.at ?? 'Demo'));
      fault.plant(dir);
      const ours = checkPackage(dir).findings;
      const printed = await grokCheck(dir);
      const theirs = printed.flatMap(classify);
      if (fault.grokReports) assert.ok(theirs.length > 0, `grok check found nothing in "${name}": the fixture plants no fault`);
      for (const g of theirs) {
        const match = ours.find((f) => isOurs(g, f));
        assert.ok(match, `grok check's ${JSON.stringify(g.text)} (${g.rule}) is none of ours:\n${ours.map((f) => `  ${f.file}:${f.line} ${f.rule} ${f.message}`).join('\n')}`);
        assert.ok(match.line >= 1, `${g.rule} has no line`);
      }
      for (const rule of fault.rules)
        assert.ok(
          ours.some((f) => f.rule === rule),
          `ours miss ${rule}: ${ours.map((f) => f.rule).join(', ')}`,
        );
    });
  }
});

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
  return [...stdout.matchAll(/\x1b\[3[13]m([\s\S]*?)\x1b\[0m/g)].map((m) => m[1].trim());
}

/** What each printed finding is about, by grok's wording (bin/commands/check.js); unknown wording fails. */
function classify(printed: string): GrokFinding[] {
  const t = printed;
  const one = (rule: RuleId, extra: Partial<GrokFinding> = {}): GrokFinding[] => [{ text: t, rule, ...extra }];
  let m: RegExpExecArray | null;
  if (t.startsWith('Changelog guideline:')) return [];
  if ((m = /^File "([^"]+)": Invalid datagrok-api import/.exec(t))) return one('datagrok-api-import', { file: m[1] });
  if ((m = /^Pay attention to file (\S+): import statement/.exec(t))) return one('external-import', { file: m[1] });
  if ((m = /^File "([^"]+)": (test-only library|heavy)/.exec(t))) return one('heavy-import', { file: m[1] });
  if (t === 'ts config doesnt contain source map') return one('source-map', { file: 'tsconfig.json' });
  if (t === 'webpack config doesnt contain source map') return one('source-map', { file: 'webpack.config.js' });
  if ((m = /^(dist\/\S+) file doesnt exist/.exec(t))) return one('dist-missing', { mentions: m[1] });
  if (t === '.npmignore doesnt exists') return one('npmignore-missing');
  if (t === 'there is dist directory in .npmignore') return one('npmignore-dist', { file: '.npmignore' });
  if ((m = /^(.+): file name contains inappropriate symbols$/.exec(t))) return one('file-name', { mentions: m[1] });
  if ((m = /^Unknown header tag: (.+) In the file: (.+)\.$/.exec(t))) return one('header-tag', { file: m[2], mentions: m[1] });
  if ((m = /^File (\S+), function (\S*): (Wrong input names|Can't use invalidateOn|unsupported)/.exec(t)))
    return one(m[3] === 'Wrong input names' ? 'input-name' : 'cache', { file: m[1], function: m[2] });
  if ((m = /^File (\S+), function (\S*):\n([\s\S]*)$/.exec(t))) {
    const [, file, fn, body] = m;
    return body
      .split(/\n(?=\S)/)
      .map((complaint) => ({ text: complaint, rule: 'role-signature' as const, file, function: fn, mentions: complaint.replace(/\s+/g, ' ').split(':')[0] }));
  }
  if ((m = /^File "package.json": (.*)$/s.exec(t))) {
    const rest = m[1];
    const rule: RuleId | undefined = rest.startsWith('"description"')
      ? 'package-description'
      : /propert/i.test(rest)
        ? 'package-properties'
        : /repository|author|beta/.test(rest)
          ? 'package-repository'
          : /Datagrok API version/.test(rest)
            ? 'api-version'
            : /served by the platform/.test(rest)
              ? 'platform-library'
              : /source/i.test(rest)
                ? 'sources'
                : undefined;
    if (rule) return one(rule, { file: 'package.json' });
  }
  if (/^Source .* not found in the package\.$|^Webpack config parsing/.test(t)) return one('sources', { file: 'package.json' });
  if (t.startsWith('Release candidate error')) return one('release-candidate', { file: 'package.json' });
  if (/^CHANGELOG: |^Latest package version|^No versions found in CHANGELOG/.test(t)) return one('changelog', { file: 'CHANGELOG.md' });
  if (t.startsWith('CHANGELOG.md file does not exist')) return one('changelog');
  assert.fail(`grok check printed a finding this test does not know: ${JSON.stringify(t)}`);
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

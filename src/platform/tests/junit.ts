// Test results as JUnit XML (the format CI systems read): one <testsuite> of <testcase>s, a failed case
// with <failure>, an errored one with <error>, a skipped one with <skipped>. Pure: no vscode here.

export type CaseOutcome = 'passed' | 'failed' | 'skipped' | 'errored';

export interface CaseResult {
  id: string;
  name: string;
  outcome: CaseOutcome;
  message?: string;
  /** Milliseconds, when the case ran. */
  durationMs?: number;
}

/** Text and attribute values escaped for XML 1.0 (characters XML cannot hold are dropped). */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const seconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(3);

/** The cases as one JUnit test suite; `classname` is the file (the id before `#`). */
export function junitXml(suite: string, cases: readonly CaseResult[], timestamp = new Date()): string {
  const count = (o: CaseOutcome) => cases.filter((c) => c.outcome === o).length;
  const total = cases.reduce((sum, c) => sum + (c.durationMs ?? 0), 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlEscape(suite)}" tests="${cases.length}" failures="${count('failed')}" errors="${count('errored')}" skipped="${count('skipped')}" time="${seconds(total)}">`,
    `  <testsuite name="${xmlEscape(suite)}" tests="${cases.length}" failures="${count('failed')}" errors="${count('errored')}" skipped="${count('skipped')}" time="${seconds(total)}" timestamp="${timestamp.toISOString()}">`,
  ];
  for (const c of cases) {
    const file = c.id.split('#')[0];
    const open = `    <testcase classname="${xmlEscape(file)}" name="${xmlEscape(c.name)}" time="${seconds(c.durationMs)}"`;
    const message = xmlEscape(c.message ?? '');
    if (c.outcome === 'passed') lines.push(`${open}/>`);
    else if (c.outcome === 'skipped') lines.push(`${open}>`, `      <skipped message="${message}"/>`, '    </testcase>');
    else {
      const tag = c.outcome === 'failed' ? 'failure' : 'error';
      lines.push(`${open}>`, `      <${tag} message="${message}">${message}</${tag}>`, '    </testcase>');
    }
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

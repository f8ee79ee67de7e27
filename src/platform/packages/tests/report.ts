// `grok test --csv`'s report (test-report.csv; datagrok-tools 6.7.5 writes it with papaparse, columns
// `date, category, name, success, result, ms, skipped, logs, owner, package, widgetsDifference, flaking`
// and, from the CLI, `stress_test, benchmark`): one row per test that ran or was skipped, with its
// duration and, for a failure, the whole result (the error and its stack). Pure: takes the file's text.
import { papaparse } from '../../lazyModules';

export type Outcome = 'passed' | 'failed' | 'skipped' | 'errored';

export interface ReportRow {
  category: string;
  name: string;
  outcome: Exclude<Outcome, 'errored'>;
  ms?: number;
  /** A failure's result (message and stack), a skip's reason. */
  result: string;
}

function truthy(value: unknown): boolean {
  return value === true || String(value).toLowerCase() === 'true';
}

export function parseReport(text: string): ReportRow[] {
  const parsed = papaparse().parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
  const rows: ReportRow[] = [];
  for (const r of parsed.data) {
    if (typeof r.category !== 'string' || typeof r.name !== 'string') continue;
    const ms = Number(r.ms);
    const outcome = truthy(r.skipped) ? 'skipped' : truthy(r.success) ? 'passed' : 'failed';
    rows.push({ category: r.category, name: r.name, outcome, ms: r.ms !== '' && Number.isFinite(ms) ? ms : undefined, result: r.result ?? '' });
  }
  return rows;
}

/** A failure's first line (the error), without the stack that follows. */
export function failureMessage(result: string): string {
  const lines = result.split('\n');
  const firstFrame = lines.findIndex((l) => /^\s+at /.test(l));
  const head = (firstFrame < 0 ? lines : lines.slice(0, firstFrame)).filter((l) => l.trim() !== '');
  // The runner writes the error, then the stack that starts with the error again.
  const unique = head.filter((l, i) => head.indexOf(l) === i);
  return unique.join('\n');
}

// What `grok test` prints while it runs, read as it arrives (datagrok-tools 6.7.5): the test runner's
// line protocol (@datagrok-libraries/test: `Package testing: Started {{Cat}} {{Test}}`, `… Finished
// {{Cat}} {{Test}} with {{success|error}} for N ms`, `… Result for {{Cat}} {{Test}}: message`, `…
// Skipped {{Cat}} {{Test}}`, a category's before()/after() failing) where it reaches the output, and the
// CLI's own rendering of it (bin/utils/test-utils.js TestProgressReporter, which is what the terminal
// shows in both passes): `Cat: Test...` when a test starts, erased (`\r\x1b[K`) when it ends, then per
// category `✅ Cat (N passed, M skipped)` or `❌ Cat (…)` followed by `  ⊘ skipped`, `  ❌ failed` and
// the failure's message. A test started and not listed as failed in its category's summary passed.
// Pure: fed text chunks, it calls back with events.

export type StreamEvent =
  | { kind: 'started'; category: string; test: string }
  | { kind: 'passed'; category: string; test: string; ms?: number }
  | { kind: 'failed'; category: string; test: string; message?: string; ms?: number }
  | { kind: 'skipped'; category: string; test: string; reason?: string }
  /** A category's before() or after() failed: its tests did not run (before) or their state is unsure (after). */
  | { kind: 'categoryFailed'; category: string; phase: 'before' | 'after'; message?: string }
  /** `grok test` built and published the package before running it. */
  | { kind: 'published' };

// biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's escape sequences are what is stripped
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
/** Text without the terminal's colour and cursor escapes. */
export const plainText = (text: string) => text.replace(ANSI, '');
const TOKEN = /\{\{([^}]+)\}\}/g;
const SUMMARY = /^(✅|❌) (.+) \((\d+) passed(?:, (\d+) skipped)?\)$/;

/** Splits `Category: Test` where the category itself may hold `: ` (the known categories decide). */
export type NameSplitter = (full: string) => { category: string; test: string } | undefined;

/** The longest known category that `full` starts with, then `: `; else the text before the last `: `. */
export function splitterFor(categories: Iterable<string>): NameSplitter {
  const known = [...categories].sort((a, b) => b.length - a.length);
  return (full) => {
    const category = known.find((c) => full.startsWith(`${c}: `));
    if (category) return { category, test: full.slice(category.length + 2) };
    const at = full.lastIndexOf(': ');
    return at > 0 ? { category: full.slice(0, at), test: full.slice(at + 2) } : undefined;
  };
}

export class TestStream {
  private pending = '';
  /** Tests started in each category not yet settled (the CLI's summary settles them). */
  private readonly running = new Map<string, string[]>();
  private readonly settled = new Set<string>();
  /** The summary being read: its category and the failure whose message comes next. */
  private summary: { category: string; lastFailed?: string } | undefined;
  /** A failure of the line protocol, held until its `Result for` line brings the message. */
  private failedAwaitingMessage: (StreamEvent & { kind: 'failed' }) | undefined;

  constructor(
    private readonly emit: (event: StreamEvent) => void,
    private readonly split: NameSplitter,
  ) {}

  /** Feeds output as it arrives; a line is complete at `\n` or `\r`. */
  write(chunk: string): void {
    const text = this.pending + chunk;
    const parts = text.split(/\r\n|\r|\n/);
    this.pending = parts.pop() ?? '';
    for (const part of parts) this.line(part);
    // "Cat: Test..." is written without an end of line: it is complete when it ends with the dots
    // ("Building and publishing X..." waits for its " success!").
    const plain = this.pending.replace(ANSI, '');
    if (plain.endsWith('...') && !plain.startsWith('Building and publishing ')) {
      this.line(this.pending);
      this.pending = '';
    }
  }

  /** The output ended: what is left is read. */
  end(): void {
    if (this.pending) this.line(this.pending);
    this.pending = '';
  }

  private key(category: string, test: string): string {
    return `${category}\u0000${test}`;
  }

  private settle(event: Extract<StreamEvent, { test: string }>): void {
    const key = this.key(event.category, event.test);
    if (this.settled.has(key)) return;
    this.settled.add(key);
    const list = this.running.get(event.category);
    if (list)
      this.running.set(
        event.category,
        list.filter((t) => t !== event.test),
      );
    this.emit(event);
  }

  private start(category: string, test: string): void {
    if (this.settled.has(this.key(category, test))) this.settled.delete(this.key(category, test));
    const list = this.running.get(category) ?? [];
    if (!list.includes(test)) list.push(test);
    this.running.set(category, list);
    this.emit({ kind: 'started', category, test });
  }

  private line(raw: string): void {
    const text = raw.replace(ANSI, '');
    if (text.startsWith('Package testing: ')) {
      this.protocol(text);
      return;
    }
    if (/^Building and publishing .*\.\.\. ?success!/.test(text)) {
      this.emit({ kind: 'published' });
      return;
    }
    const summary = SUMMARY.exec(text);
    if (summary) {
      this.startSummary(summary[2], summary[1] === '✅');
      return;
    }
    if (this.summary && this.inSummary(text)) return;
    this.summary = undefined;
    const started = /^(.+)\.\.\.$/.exec(text);
    if (started) {
      const name = this.split(started[1]);
      if (name) this.start(name.category, name.test);
    }
  }

  private protocol(text: string): void {
    const tokens = [...text.matchAll(TOKEN)].map((m) => m[1]);
    const [category, test] = tokens;
    if (/^Package testing: Started /.test(text) && tokens.length === 2 && !/ skipped \{\{/.test(text)) {
      this.start(category, test);
      return;
    }
    if (/^Package testing: Finished /.test(text) && tokens.length === 3) {
      const ms = Number(/ for (\d+) ms/.exec(text)?.[1]);
      const known = Number.isFinite(ms) ? ms : undefined;
      if (tokens[2] === 'success') {
        this.settle({ kind: 'passed', category, test, ms: known });
        return;
      }
      // The message follows on its own line (`Result for`): the failure is held until then.
      this.failedAwaitingMessage = { kind: 'failed', category, test, ms: known };
      return;
    }
    if (/^Package testing: Result for /.test(text) && tokens.length === 2) {
      const message = text.slice(text.indexOf(`{{${test}}}: `) + test.length + 6);
      const held = this.failedAwaitingMessage;
      this.failedAwaitingMessage = undefined;
      this.settle({ kind: 'failed', category, test, ms: held?.category === category && held.test === test ? held.ms : undefined, message });
      return;
    }
    if (/^Package testing: Skipped /.test(text) && tokens.length === 2) {
      this.settle({ kind: 'skipped', category, test });
      return;
    }
    const phase = /^Package testing: Category (before|after)\(\) /.exec(text)?.[1] as 'before' | 'after' | undefined;
    if (phase && category) {
      this.emit({ kind: 'categoryFailed', category, phase });
      return;
    }
    const result = /^Package testing: Result for \{\{(.+?)\}\} (before|after): (.*)$/.exec(text);
    if (result) this.emit({ kind: 'categoryFailed', category: result[1], phase: result[2] as 'before' | 'after', message: result[3] });
  }

  private startSummary(category: string, allPassed: boolean): void {
    this.flushHeld();
    this.summary = { category };
    if (allPassed) this.passRemaining(category);
  }

  /** A line under a category's summary: a skipped or failed test, a message, the hint to run it alone. */
  private inSummary(text: string): boolean {
    const summary = this.summary;
    if (!summary) return false;
    const item = /^ {2}(⊘|❌) (.+)$/.exec(text);
    if (item) {
      const [, mark, name] = item;
      summary.lastFailed = undefined;
      if (mark === '⊘') this.settle({ kind: 'skipped', category: summary.category, test: name });
      else if (name === 'before' || name === 'after') this.emit({ kind: 'categoryFailed', category: summary.category, phase: name });
      else summary.lastFailed = name;
      return true;
    }
    const detail = /^ {4}(.*)$/.exec(text);
    if (!detail) {
      this.closeSummary();
      return false;
    }
    if (detail[1].startsWith('To run this ')) {
      if (summary.lastFailed) this.settle({ kind: 'failed', category: summary.category, test: summary.lastFailed });
      summary.lastFailed = undefined;
    } else if (summary.lastFailed) {
      this.settle({ kind: 'failed', category: summary.category, test: summary.lastFailed, message: detail[1] });
      summary.lastFailed = undefined;
    }
    return true;
  }

  /** The summary ended: a failed test's item without a message still failed; the others started passed. */
  private closeSummary(): void {
    const summary = this.summary;
    if (!summary) return;
    if (summary.lastFailed) this.settle({ kind: 'failed', category: summary.category, test: summary.lastFailed });
    this.passRemaining(summary.category);
    this.summary = undefined;
  }

  private passRemaining(category: string): void {
    for (const test of [...(this.running.get(category) ?? [])]) this.settle({ kind: 'passed', category, test });
  }

  private flushHeld(): void {
    this.closeSummary();
    const held = this.failedAwaitingMessage;
    this.failedAwaitingMessage = undefined;
    if (held) this.settle(held);
  }

  /** The run ended: a summary still open closes, a held failure is reported without its message. */
  finish(): void {
    this.end();
    this.flushHeld();
  }
}

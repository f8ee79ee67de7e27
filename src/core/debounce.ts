// One pending call per key (a document's URI), run once the calls for that key pause: what the header and
// parameter-file diagnostics use to check a document after its edits, not on every keystroke.
export class KeyedDebounce {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly delayMs: number) {}

  /** Runs `work` after `delayMs` unless the key is scheduled again (or cancelled) before then. */
  schedule(key: string, work: () => void): void {
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        work();
      }, this.delayMs),
    );
  }

  cancel(key: string): void {
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}

// Results of server requests kept for a few seconds, with one request in flight per key. VS Code asks
// a file system for a file's stat and its content at the same moment when it opens a file: both are
// answered by one download this way.

export class RecentResults<T> {
  private readonly inFlight = new Map<string, Promise<T>>();
  private readonly results = new Map<string, { value: T; expires: number }>();

  constructor(private readonly ttlMs: number) {}

  /** A result no older than the time to live, without a request. */
  peek(key: string): T | undefined {
    const hit = this.results.get(key);
    if (!hit) return undefined;
    if (hit.expires < Date.now()) {
      this.results.delete(key);
      return undefined;
    }
    return hit.value;
  }

  /** The recent result, the request already in flight, or a new request. Failures are not kept. */
  get(key: string, fetch: () => Promise<T>): Promise<T> {
    const hit = this.peek(key);
    if (hit !== undefined) return Promise.resolve(hit);
    return this.fresh(key, fetch);
  }

  /** The request already in flight, or a new one: never an older result. */
  fresh(key: string, fetch: () => Promise<T>): Promise<T> {
    let pending = this.inFlight.get(key);
    if (!pending) {
      const started = fetch();
      pending = started;
      this.inFlight.set(key, started);
      started.then(
        (value) => {
          if (this.inFlight.get(key) === started) {
            this.inFlight.delete(key);
            this.set(key, value);
          }
        },
        () => {
          if (this.inFlight.get(key) === started) this.inFlight.delete(key);
        },
      );
    }
    return pending;
  }

  /**
   * Keeps a value known to be current (e.g. the content just saved). It supersedes a request in flight
   * for that key: that request started before the value was known and may answer older data, so when
   * it finishes it is not kept (its own callers still get its answer). Without this, a download that
   * started before a save and finished after it would put the pre-save content back in the cache.
   */
  set(key: string, value: T): void {
    this.inFlight.delete(key);
    this.prune();
    this.results.set(key, { value, expires: Date.now() + this.ttlMs });
    // Contents can be large: let them go soon after they expire even when nothing else is asked.
    setTimeout(() => this.prune(), this.ttlMs + 50).unref?.();
  }

  /** Forgets a key (and lets a request in flight finish without being kept). */
  delete(key: string): void {
    this.results.delete(key);
    this.inFlight.delete(key);
  }

  clear(): void {
    this.results.clear();
    this.inFlight.clear();
  }

  private prune(): void {
    const now = Date.now();
    for (const [key, hit] of this.results) {
      if (hit.expires < now) this.results.delete(key);
    }
  }
}

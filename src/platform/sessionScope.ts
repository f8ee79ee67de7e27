// A session of the active server (see session.ts): ended by the connection, which the entry loads at
// activation, so this file imports nothing.
/**
 * One signed-in session of the active server. Ended by the connection; what was kept for it is dropped,
 * and loads it started that finish after a sign-out answer the sign-in error rather than what they read.
 */
export class SessionScope {
  private endedWith: Error | undefined;
  private over = false;
  /** The guards still waiting: a sign-out answers them at once, not when the server does. */
  private readonly waiting = new Set<(reason: Error) => void>();

  get ended(): boolean {
    return this.over;
  }

  /** Ends the session; with a reason (a sign-out), loads still running reject with it, now. */
  end(reason?: Error): void {
    this.over = true;
    this.endedWith ??= reason;
    if (!this.endedWith) return;
    for (const stop of this.waiting) stop(this.endedWith);
    this.waiting.clear();
  }

  /** `work`'s answer, unless this session ends with a reason meanwhile: then that reason, at once. */
  async guard<T>(work: Promise<T>): Promise<T> {
    if (this.endedWith) {
      work.then(undefined, () => undefined);
      throw this.endedWith;
    }
    let stop: ((reason: Error) => void) | undefined;
    const ended = new Promise<never>((_, reject) => {
      stop = reject;
    });
    if (stop) this.waiting.add(stop);
    let value: T;
    try {
      // The race holds on to `work`: its late failure is handled, not left unhandled.
      value = await Promise.race([work, ended]);
    } catch (error) {
      throw this.endedWith ?? error;
    } finally {
      if (stop) this.waiting.delete(stop);
    }
    if (this.endedWith) throw this.endedWith;
    return value;
  }
}

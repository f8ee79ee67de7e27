// A session of the active server (see session.ts): ended by the connection, which the entry loads at
// activation, so this file imports nothing.
/**
 * One signed-in session of the active server. Ended by the connection; what was kept for it is dropped,
 * and loads it started that finish after a sign-out answer the sign-in error rather than what they read.
 */
export class SessionScope {
  private endedWith: Error | undefined;
  private over = false;

  get ended(): boolean {
    return this.over;
  }

  /** Ends the session; with a reason (a sign-out), loads still running reject with it. */
  end(reason?: Error): void {
    this.over = true;
    this.endedWith ??= reason;
  }

  /** `work`'s answer, unless this session ended with a reason meanwhile: then that reason. */
  async guard<T>(work: Promise<T>): Promise<T> {
    let value: T;
    try {
      value = await work;
    } catch (error) {
      throw this.endedWith ?? error;
    }
    if (this.endedWith) throw this.endedWith;
    return value;
  }
}

// The connection's sessions (platform/session.ts): one per server and key. A new one starts at every
// sign-in, and whenever the active server, its key or its signed-in state is found to have changed (a
// switch, the setting edited, a sign-out here or in another window); the one before ends with it.
import { createHash } from 'node:crypto';
import { SessionScope } from '../platform/sessionScope';

export class Sessions {
  private session = new SessionScope();
  /** What the session is for: the server and its key (hashed), or the server signed out of. */
  private of: string | undefined;

  get current(): SessionScope {
    return this.session;
  }

  /** What a session is for: the server with its key (hashed, never kept as such) or without one. */
  static of(baseUrl: string, key: string | undefined): string {
    return key === undefined ? `signed out of ${baseUrl}` : `${baseUrl}\n${createHash('sha256').update(key).digest('hex')}`;
  }

  /** Ends the session (with a reason, the loads still running answer it) and starts the next one. */
  begin(of: string | undefined, reason?: Error): void {
    this.session.end(reason);
    this.session = new SessionScope();
    this.of = of;
  }

  /** Begins a session when the server, the key or the signed-in state differs from the current one's. */
  follow(of: string | undefined, reason?: Error): void {
    if (of !== this.of) this.begin(of, reason);
  }
}

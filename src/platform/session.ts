// What the platform's models need from the connection: a client for the active server, its user, the
// session now, and a key-value store kept with the workspace. The connection (and VS Code's Memento)
// provide them; the unit and API tests provide plain ones, so the models run without an editor.
//
// What a model learns from the server is kept for one session only (PerSession): a session is one server
// and one key, and it ends at sign-out, at a switch of server or when the key changes. A model never holds
// a cache of its own, so none can outlive a sign-out, however it is written.
import type { Group } from '../api/types';
import type { DatagrokApi } from '../api/datagrokApi';
import { SessionScope } from './sessionScope';

export { SessionScope };

export interface ServerSession {
  /** A client for the active server; rejects with kind 'unauthorized' when not signed in. */
  client(): Promise<DatagrokApi>;
  /** The signed-in user's group on the active server. */
  currentUser(): Promise<Group>;
  /**
   * The session now: a new one after every sign-in, sign-out, switch of server or change of key. Without
   * it (a process given one key for its life, a test) the session never ends.
   */
  scope?(): SessionScope;
}

const LASTING = new SessionScope();

/** The session now, for a model. */
export function scopeOf(session: ServerSession): SessionScope {
  return session.scope?.() ?? LASTING;
}

/**
 * What a model keeps for the session it was loaded in: made afresh on first use in each session, so an
 * answer of an ended session is never given again. Loads write into the value they were started with.
 */
export class PerSession<T> {
  private scope: SessionScope | undefined;
  private value: T | undefined;

  constructor(
    private readonly session: ServerSession,
    private readonly make: () => T,
  ) {}

  /** The value of the session now (a new one once the session has changed). */
  get(): T {
    const now = scopeOf(this.session);
    if (now !== this.scope || this.value === undefined) {
      this.scope = now;
      this.value = this.make();
    }
    return this.value;
  }

  /** Forgets the value now (a Refresh): the next `get` makes a new one. */
  reset(): void {
    this.value = undefined;
  }
}

/** The part of VS Code's Memento the models use (workspace state). */
export interface KeyValueStore {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

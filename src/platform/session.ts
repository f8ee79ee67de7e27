// What the platform's models need from the connection: a client for the active server, its user, and
// a key-value store kept with the workspace. The connection (and VS Code's Memento) provide them; the
// unit and API tests provide plain ones, so the models run without an editor.
import type { DatagrokApi, Group } from '../api/types';

export interface ServerSession {
  /** A client for the active server; rejects with kind 'unauthorized' when not signed in. */
  client(): Promise<DatagrokApi>;
  /** The signed-in user's group on the active server. */
  currentUser(): Promise<Group>;
}

/** The part of VS Code's Memento the models use (workspace state). */
export interface KeyValueStore {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

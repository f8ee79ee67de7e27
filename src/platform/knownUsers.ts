// Who is signed in on each server, remembered across sessions (VS Code's global state), so the status
// bar can name the user right after a window reload without a request: activation sends none. Written at
// sign-in and whenever the user is loaded; forgotten at sign-out. Only what the status bar shows is kept.
import type { Group } from '../api/types';
import type { KeyValueStore } from './session';

const KEY = 'datagrok.knownUsers';

type Stored = Record<string, Pick<Group, 'id' | 'name' | 'friendlyName'>>;

export class KnownUsers {
  constructor(private readonly store: KeyValueStore) {}

  private all(): Stored {
    const value = this.store.get<unknown>(KEY, {});
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Stored) : {};
  }

  /** The user last seen on that server (its normalised base URL), if any. */
  get(baseUrl: string): Group | undefined {
    const u = this.all()[baseUrl];
    return u && typeof u.id === 'string' && typeof u.name === 'string' ? { id: u.id, name: u.name, friendlyName: u.friendlyName, personal: true } : undefined;
  }

  /** Remembers the user; writes only when something changed. */
  async set(baseUrl: string, user: Group): Promise<void> {
    const all = this.all();
    const known = all[baseUrl];
    if (known && known.id === user.id && known.name === user.name && known.friendlyName === user.friendlyName) return;
    await this.store.update(KEY, { ...all, [baseUrl]: { id: user.id, name: user.name, friendlyName: user.friendlyName } });
  }

  async delete(baseUrl: string): Promise<void> {
    const all = this.all();
    if (!(baseUrl in all)) return;
    const { [baseUrl]: _gone, ...rest } = all;
    await this.store.update(KEY, rest);
  }
}

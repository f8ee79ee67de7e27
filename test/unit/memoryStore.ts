// A KeyValueStore in memory (what VS Code's workspace state is to the platform's models), which also
// counts writes so tests can tell when a model skipped a needless one.
import type { KeyValueStore } from '../../src/platform/session';

export class MemoryStore implements KeyValueStore {
  readonly values = new Map<string, unknown>();
  writes = 0;

  get<T>(key: string, defaultValue: T): T {
    return this.values.has(key) ? (structuredClone(this.values.get(key)) as T) : defaultValue;
  }

  async update(key: string, value: unknown): Promise<void> {
    this.writes++;
    this.values.set(key, structuredClone(value));
  }
}

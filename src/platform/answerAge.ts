// When a cached answer was loaded from the server: the models mark each value as they load it (by
// identity), so whoever gets the same value back later can say it came from a cache and how old it is.
// No vscode here.
const loaded = new WeakMap<object, number>();

/** Marks a value just loaded from the server (values that are not objects cannot be told apart: ignored). */
export function markLoaded<T>(value: T, at = Date.now()): T {
  if (value !== null && typeof value === 'object' && !loaded.has(value)) loaded.set(value, at);
  return value;
}

/** When the value was loaded, if it was marked. */
export function loadedAt(value: unknown): number | undefined {
  return value !== null && typeof value === 'object' ? loaded.get(value) : undefined;
}

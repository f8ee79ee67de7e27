// Answers say when they come from a cache and how old it is: a model (and the user through it) must not
// take a list loaded minutes ago, perhaps from a server that is gone now, for the server's answer now.
import { loadedAt } from '../../platform/answerAge';

export interface CacheNote {
  cached?: { ageSeconds: number; note: string };
}

/** For a value a model is given: `cached` when it was loaded before this call started. */
export function cacheNote(value: unknown, callStarted: number): CacheNote {
  const at = loadedAt(value);
  if (at === undefined || at >= callStarted) return {};
  const ageSeconds = Math.max(0, Math.round((Date.now() - at) / 1000));
  return { cached: { ageSeconds, note: `From a cache loaded ${ageSeconds} s ago, not asked of the server now.` } };
}

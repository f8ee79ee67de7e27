// Reading the creation result of a table upload or dashboard creation, whatever the key spelling.
import { DatagrokError } from './errors';
import type { CreationResult } from './types';

/** Keys compared without case, spaces, '_' or '-': `ID`/`id`, `name`/`Grok name`, `Markup`, `URL`. */
const ALIASES: Record<keyof CreationResult, string[]> = {
  ID: ['id'],
  name: ['name', 'grokname'],
  Markup: ['markup'],
  URL: ['url'],
};

function squash(key: string): string {
  return key.toLowerCase().replace(/[\s_-]/g, '');
}

export function readCreationResult(value: unknown, what: string): CreationResult {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new DatagrokError('server', `${what} failed: the server's answer did not describe the created entity.`);
  }
  const byKey = new Map<string, unknown>();
  for (const [k, v] of Object.entries(value)) if (!byKey.has(squash(k))) byKey.set(squash(k), v);
  const pick = (field: keyof CreationResult): string => {
    for (const alias of ALIASES[field]) {
      const v = byKey.get(alias);
      if (typeof v === 'string') return v;
      if (typeof v === 'number') return String(v);
    }
    return '';
  };
  const result: CreationResult = { ID: pick('ID'), name: pick('name'), Markup: pick('Markup'), URL: pick('URL') };
  if (result.ID === '') {
    throw new DatagrokError('server', `${what} failed: the server's answer did not include the ID of the created entity.`);
  }
  return result;
}

// Ids inside an entity's JSON: the ones it refers to (bare, or as `<Type>:<uuid>`), and the ids of its own nested
// rows (relations, parameters), which are not references. And a small pool for bounded parallel reads.
import type { Json } from './registry';

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TYPED_RE = /^.+:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

const isRef = (o: Json) => Object.keys(o).every((k) => k === 'id' || k === '#type');

/** Every UUID the JSON mentions that is not the id of one of its own nested rows (nor its own id). */
export function uuidsIn(json: Json): Set<string> {
  const found = new Set<string>();
  const own = new Set<string>([String(json.id)]);
  const walk = (v: unknown, top: boolean) => {
    if (typeof v === 'string') {
      const id = UUID_RE.test(v) ? v : TYPED_RE.exec(v)?.[1];
      if (id) found.add(id.toLowerCase());
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) walk(x, false);
      return;
    }
    if (v === null || typeof v !== 'object') return;
    const o = v as Json;
    if (!top && typeof o.id === 'string' && !isRef(o)) own.add(o.id);
    for (const k of Object.keys(o)) {
      walk(k, false);
      walk(o[k], false);
    }
  };
  walk(json, true);
  for (const id of own) found.delete(id.toLowerCase());
  return found;
}

/** Runs `work` over `items`, at most `concurrency` at a time. */
export async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = items.slice();
  const workers = Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
    while (queue.length) await work(queue.shift() as T);
  });
  await Promise.all(workers);
}

/** A deep copy with every mapped UUID replaced, in values and in keys, bare or as `<Type>:<uuid>`. */
export function rewrite<T>(json: T, idmap: Record<string, string>): T {
  const map = (s: string): string => {
    if (UUID_RE.test(s)) return idmap[s] ?? s;
    const typed = TYPED_RE.exec(s);
    return typed && idmap[typed[1]] ? `${s.slice(0, s.length - typed[1].length)}${idmap[typed[1]]}` : s;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return map(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const out: Json = {};
    for (const k of Object.keys(v as Json)) out[map(k)] = walk((v as Json)[k]);
    return out;
  };
  return walk(json) as T;
}

/** Ids of the JSON's own nested rows (relations, parameters, tag rows): an adoption gives them fresh ones. */
export function nestedIds(json: Json): string[] {
  const ids: string[] = [];
  const walk = (v: unknown, top: boolean) => {
    if (Array.isArray(v)) {
      for (const x of v) walk(x, false);
      return;
    }
    if (v === null || typeof v !== 'object') return;
    const o = v as Json;
    if (!top && typeof o.id === 'string' && UUID_RE.test(o.id) && !isRef(o)) ids.push(o.id);
    for (const k of Object.keys(o)) walk(o[k], false);
  };
  walk(json, true);
  return ids;
}

// What each entity was on a server when this bundle last met it (a pull wrote it, a push saved it): the hash of
// its normalised JSON, per server, in `.datagrok-base.json` beside manifest.json. `grok s` reads only the
// manifest, the files it lists, `idmap.json`, `tables/` and `shares/`, so the file does not disturb it (the
// contract test holds that). With it a push tells a colleague's change on the server from one made here; a
// bundle without it (written by `grok s pull`) is compared as grok compares it, and the plan says so.
import { readFile, writeFile } from 'node:fs/promises';
import { writeTarget } from '../confinement';
import type { Manifest } from './manifest';

export const BASE_FILE = '.datagrok-base.json';

/** What a push does with an entity changed both here and on the server since the base. */
export type OnChanged = 'refuse' | 'mine' | 'theirs';
export const ON_CHANGED: OnChanged[] = ['refuse', 'mine', 'theirs'];

export interface BaseRecord {
  about: string;
  /** How many of manifest.json's pulls this record knows: later ones were made by another tool. */
  pulls: number;
  /** Server URL (without trailing slash) → bundle id → hash of the entity there. */
  servers: Record<string, Record<string, string>>;
}

const ABOUT =
  'Datagrok for VS Code: what each entity was on each server when this bundle was last pulled or pushed (a hash of its normalised JSON), so a push never overwrites a change made on the server since. grok s ignores this file.';
const HASH = /^[0-9a-f]{64}$/;

export const serverKey = (url: string) => url.replace(/\/+$/, '').toLowerCase();

/** The record, or an empty one (none, unreadable, or not ours: a hostile file only loses the base). */
export async function readBase(dir: string): Promise<BaseRecord> {
  const empty: BaseRecord = { about: ABOUT, pulls: 0, servers: {} };
  const where = await writeTarget(dir, BASE_FILE, { create: false });
  if (!where.full) return empty;
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(where.full, 'utf8'));
  } catch {
    return empty;
  }
  const r = raw as Partial<BaseRecord> | null;
  if (!r || typeof r !== 'object' || typeof r.servers !== 'object' || r.servers === null) return empty;
  const servers: BaseRecord['servers'] = {};
  for (const [url, ids] of Object.entries(r.servers)) {
    if (!ids || typeof ids !== 'object') continue;
    servers[serverKey(url)] = Object.fromEntries(Object.entries(ids).filter(([, h]) => typeof h === 'string' && HASH.test(h)));
  }
  return { about: ABOUT, pulls: Number.isInteger(r.pulls) ? Number(r.pulls) : 0, servers };
}

/**
 * The base of each entity on `serverUrl` (id → hash); entities a later pull by another tool wrote (pulls the
 * record does not know) have none. Undefined when the record holds nothing for that server.
 */
export function basesFor(record: BaseRecord, manifest: Manifest, serverUrl: string): Map<string, string> | undefined {
  const known = record.servers[serverKey(serverUrl)];
  if (!known) return undefined;
  const bases = new Map(Object.entries(known));
  if (serverKey(manifest.source.url) === serverKey(serverUrl)) {
    for (const pull of manifest.pulls.slice(record.pulls)) for (const id of pull.ids ?? []) bases.delete(id);
  }
  return bases;
}

/**
 * Records `hashes` as what `serverUrl` holds now, and `pulls` (manifest.json's count) as the pulls the record has
 * seen; the reason when the file cannot be written, else undefined.
 */
export async function recordBase(dir: string, serverUrl: string, hashes: Map<string, string>, pulls: number): Promise<string | undefined> {
  const record = await readBase(dir);
  const key = serverKey(serverUrl);
  const known = { ...(record.servers[key] ?? {}) };
  for (const [id, hash] of hashes) known[id] = hash;
  record.servers[key] = Object.fromEntries(Object.entries(known).sort(([a], [b]) => a.localeCompare(b)));
  record.pulls = pulls;
  const where = await writeTarget(dir, BASE_FILE);
  if (!where.full) return `${BASE_FILE} was not written: ${where.reason}`;
  await writeFile(where.full, JSON.stringify(record, null, 2));
  return undefined;
}

/** What changed since the base: only here, only on the server, on both sides (undefined: no base, or neither). */
export function sidesChanged(base: string | undefined, serverHash: string, localHash: string): 'here' | 'server' | 'both' | undefined {
  if (!base) return undefined;
  const server = serverHash !== base;
  const here = localHash !== base;
  if (server && here) return 'both';
  if (server) return 'server';
  if (here) return 'here';
  return undefined;
}

export const CHANGED_BOTH = 'changed here and on the server since your pull';
export const CHANGED_ON_SERVER = "changed on the server since your pull; pull it to take it (the push leaves the server's copy)";

/** The info row of a bundle compared without a base (one per plan, not one per entity). */
export function baseUnknownDetail(host: string, missing: number, all: number): string {
  const which = missing === all ? 'this bundle was pulled' : `${missing} of its ${all} entities were pulled`;
  return `no record of what ${host} held when ${which} (a bundle written by grok s pull): a change made on the server since cannot be told from one made here, so a push overwrites it. Pull with Datagrok for VS Code to record it.`;
}

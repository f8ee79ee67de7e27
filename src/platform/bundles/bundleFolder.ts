// A bundle folder in grok's format (GROK_S.md "Bundle layout"): `manifest.json` (formatVersion 1, the source,
// the pulls, the save order), one normalised JSON file per entity under `<Type>/`, table bytes under
// `tables/<id>.d42`, `idmap.json` (source id → target id, for adopted entities). Files are written as grok
// writes them (two-space JSON, no final newline), so a bundle pulled by either tool diffs clean in Git.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { normalize } from './normalize';
import { fileNameFor, type Json, rankOf, TYPES } from './registry';

export const FORMAT_VERSION = 1;

export interface ManifestEntry {
  type: string;
  id: string;
  file: string;
}

export interface Manifest {
  formatVersion: number;
  source: { url: string; version: string; commit?: string; userNamespace: string };
  pulls: Array<{ at: string; args: string[]; ids: string[] }>;
  order: ManifestEntry[];
  packages: string[];
  /** Entities the bundle refers to but leaves on the source; a push finds the target's own by name. */
  externals?: Array<{ id: string; type: string; nqName: string }>;
  dangling?: string[];
}

export interface BundleEntity {
  type: string;
  json: Json;
  file?: string;
}

export interface Bundle {
  dir: string;
  manifest: Manifest;
  entities: Map<string, BundleEntity>;
  idmap: Record<string, string>;
}

const text = (value: unknown) => JSON.stringify(value, null, 2);

/** The manifest, checked: a folder without one is not a bundle; a newer format is refused, not guessed at. */
export async function readManifest(dir: string): Promise<Manifest> {
  const file = path.join(dir, 'manifest.json');
  if (!existsSync(file)) throw new Error(`${dir} is not a bundle folder: it has no manifest.json. Pull into it first (Datagrok: Pull to Bundle) or pick the folder grok s pull wrote.`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(file, 'utf8')) as Manifest;
  } catch (e) {
    throw new Error(`${file} is not valid JSON (${(e as Error).message}); nothing was sent to the server.`);
  }
  if (!manifest || typeof manifest !== 'object' || !Array.isArray(manifest.order)) throw new Error(`${file} is not a bundle manifest: it has no "order" list.`);
  if (typeof manifest.formatVersion !== 'number' || manifest.formatVersion > FORMAT_VERSION) {
    throw new Error(`${file} has formatVersion ${JSON.stringify(manifest.formatVersion)}; this extension reads bundles of formatVersion ${FORMAT_VERSION}. Update the extension, or pull the bundle again.`);
  }
  return manifest;
}

/**
 * The whole bundle; a file the manifest lists but the folder lacks (or that is not JSON) is refused — or, with
 * `missing`, collected there (the Source Control view shows such an entity as missing here).
 */
export async function readBundle(dir: string, missing?: ManifestEntry[]): Promise<Bundle> {
  const manifest = await readManifest(dir);
  const entities = new Map<string, BundleEntity>();
  for (const e of manifest.order) {
    const file = path.join(dir, e.file);
    if (!existsSync(file) && missing) {
      missing.push(e);
      continue;
    }
    if (!existsSync(file)) throw new Error(`The bundle is missing ${e.file}, which manifest.json lists. Restore it (git checkout) or pull again.`);
    try {
      entities.set(e.id, { type: e.type, json: JSON.parse(await readFile(file, 'utf8')) as Json, file: e.file });
    } catch (err) {
      throw new Error(`${e.file} is not valid JSON (${(err as Error).message}); nothing was sent to the server.`);
    }
  }
  if (missing?.length) manifest.order = manifest.order.filter((e) => entities.has(e.id));
  const idmapFile = path.join(dir, 'idmap.json');
  const idmap = existsSync(idmapFile) ? (JSON.parse(await readFile(idmapFile, 'utf8')) as Record<string, string>) : {};
  return { dir, manifest, entities, idmap };
}

export function bytesPath(dir: string, id: string): string {
  return path.join(dir, 'tables', `${id}.d42`);
}

export interface WriteMeta {
  source: Manifest['source'];
  args: string[];
  externals?: Manifest['externals'];
}

/**
 * Writes the entities into the folder (merged with what it holds), then the manifest with the save order. A
 * folder pulled from another server is refused unless `replace`: one bundle, one source.
 */
export async function writeBundle(dir: string, entities: Map<string, BundleEntity>, meta: WriteMeta, bytes: Map<string, Uint8Array>, replace = false): Promise<Manifest> {
  if (replace) await rm(dir, { recursive: true, force: true });
  const existing = existsSync(path.join(dir, 'manifest.json')) ? await readManifest(dir) : undefined;
  const manifest: Manifest = existing ?? { formatVersion: FORMAT_VERSION, source: meta.source, pulls: [], order: [], packages: [] };
  if (existing?.source.url && existing.source.url !== meta.source.url) {
    throw new Error(`${dir} was pulled from ${existing.source.url}; pull from ${meta.source.url} into another folder (or replace this bundle).`);
  }
  await mkdir(dir, { recursive: true });
  const byId = new Map(manifest.order.map((e) => [e.id, e]));
  const takenBy = new Map([...byId.values()].map((e) => [e.file, e.id]));
  const ids: string[] = [];
  for (const [id, { type, json }] of entities) {
    const base = `${type}/${fileNameFor(json)}`;
    // Names are not unique across a bundle: whoever has the plain name keeps it, the others get their id.
    const owner = takenBy.get(`${base}.json`);
    const file = !owner || owner === id ? `${base}.json` : `${base}-${id.slice(0, 8)}.json`;
    const previous = byId.get(id);
    if (previous && previous.file !== file) {
      await rm(path.join(dir, previous.file), { force: true });
      takenBy.delete(previous.file);
    }
    takenBy.set(file, id);
    await mkdir(path.join(dir, type), { recursive: true });
    await writeFile(path.join(dir, file), text(normalize(type, json)));
    byId.set(id, { type, id, file });
    ids.push(id);
  }
  for (const [id, data] of bytes) {
    if (!TYPES[entities.get(id)?.type ?? '']?.bytes) continue;
    await mkdir(path.join(dir, 'tables'), { recursive: true });
    await writeFile(bytesPath(dir, id), data);
  }
  manifest.formatVersion = FORMAT_VERSION;
  manifest.pulls.push({ at: new Date().toISOString(), args: meta.args, ids });
  manifest.packages = [...new Set(manifest.packages ?? [])].sort();
  if (meta.externals?.length) {
    const known = new Map((manifest.externals ?? []).map((e) => [e.id, e]));
    for (const e of meta.externals) known.set(e.id, e);
    manifest.externals = [...known.values()].sort((a, b) => a.nqName.localeCompare(b.nqName));
  }
  const pullOf = new Map<string, number>();
  manifest.pulls.forEach((p, i) => {
    for (const id of p.ids) if (!pullOf.has(id)) pullOf.set(id, i);
  });
  manifest.order = [...byId.values()].sort((a, b) => rankOf(a.type) - rankOf(b.type) || (pullOf.get(a.id) ?? 0) - (pullOf.get(b.id) ?? 0) || a.file.localeCompare(b.file));
  await writeFile(path.join(dir, 'manifest.json'), text(manifest));
  return manifest;
}

export async function writeIdmap(dir: string, idmap: Record<string, string>): Promise<void> {
  await writeFile(path.join(dir, 'idmap.json'), text(idmap));
}

// A bundle folder in grok's format (GROK_S.md "Bundle layout"): `manifest.json` (formatVersion 1, the source,
// the pulls, the save order), one normalised JSON file per entity under `<Type>/`, table bytes under
// `tables/<id>.d42`, `idmap.json` (source id → target id, for adopted entities). Files are written as grok
// writes them (two-space JSON, no final newline), so a bundle pulled by either tool diffs clean in Git.
// Every file is read and written inside the folder on its real path (confinement.ts): a manifest naming
// `../../.ssh/id_rsa`, a link to elsewhere, or a server's hostile name is refused with a reason, never followed.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { confine, nameProblem, writeTarget } from '../confinement';
import { recordBase } from './base';
import type { Manifest, ManifestEntry } from './manifest';
import { hashOf, normalize } from './normalize';
import { fileNameFor, type Json, rankOf, TYPES } from './registry';
import { UUID_RE } from './uuids';

export type { Manifest, ManifestEntry };

export const FORMAT_VERSION = 1;

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

/**
 * The absolute path of `rel` (as manifest.json names a file) inside the bundle folder, links resolved; a name
 * that leaves the folder (`..`, an absolute path, a link out) is refused: a bundle from someone's repository is
 * not trusted to choose what this machine reads and sends.
 */
export async function bundlePath(dir: string, rel: unknown): Promise<string> {
  const refused = (why: string) =>
    new Error(
      `manifest.json in ${dir} lists the file ${JSON.stringify(rel)}, which ${why}; nothing was read from it or sent to a server. Fix that entry (each file lies inside the bundle folder) or pull the bundle again.`,
    );
  if (typeof rel !== 'string' || nameProblem(rel, 'linux')) throw refused('is not a path inside the bundle folder');
  try {
    return await confine(rel, [dir], dir);
  } catch {
    throw refused('leads outside the bundle folder (through a link)');
  }
}

/** The manifest, checked: a folder without one is not a bundle; a newer format is refused, not guessed at. */
export async function readManifest(dir: string): Promise<Manifest> {
  const file = path.join(dir, 'manifest.json');
  if (!existsSync(file))
    throw new Error(`${dir} is not a bundle folder: it has no manifest.json. Pull into it first (Datagrok: Pull to Bundle) or pick the folder grok s pull wrote.`);
  const real = await bundlePath(dir, 'manifest.json');
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(real, 'utf8')) as Manifest;
  } catch (e) {
    throw new Error(`${file} is not valid JSON (${(e as Error).message}); nothing was sent to the server.`);
  }
  if (!manifest || typeof manifest !== 'object' || !Array.isArray(manifest.order)) throw new Error(`${file} is not a bundle manifest: it has no "order" list.`);
  if (typeof manifest.formatVersion !== 'number' || manifest.formatVersion > FORMAT_VERSION) {
    throw new Error(
      `${file} has formatVersion ${JSON.stringify(manifest.formatVersion)}; this extension reads bundles of formatVersion ${FORMAT_VERSION}. Update the extension, or pull the bundle again.`,
    );
  }
  for (const e of manifest.order) {
    if (typeof e?.id !== 'string' || !UUID_RE.test(e.id))
      throw new Error(
        `${file} lists an entity whose id ${JSON.stringify(e?.id)} is not a server id (a UUID); nothing was sent to the server. Fix that entry or pull the bundle again.`,
      );
  }
  if (!Array.isArray(manifest.pulls)) manifest.pulls = [];
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
    const file = await bundlePath(dir, e.file);
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
  const idmap = existsSync(idmapFile) ? (JSON.parse(await readFile(await bundlePath(dir, 'idmap.json'), 'utf8')) as Record<string, string>) : {};
  return { dir, manifest, entities, idmap };
}

/** The bundle-relative name of a table's bytes. */
export const bytesFile = (id: string) => `tables/${id}.d42`;

/** A table's bytes as the bundle holds them, read inside the folder; undefined when there are none. */
export async function readBytes(dir: string, id: string): Promise<Uint8Array | undefined> {
  const file = await bundlePath(dir, bytesFile(id));
  return existsSync(file) ? readFile(file) : undefined;
}

/** A file that could not be written into the bundle, and why (the pull's notes carry it). */
export interface WriteNote {
  name: string;
  entityType: string;
  action: 'warn';
  reason: 'not_written';
  detail: string;
}

export interface WriteMeta {
  source: Manifest['source'];
  args: string[];
  externals?: Manifest['externals'];
}

/** A file name no other entry holds, compared without case: `Case.json` and `case.json` are one file on macOS and Windows. */
function freeName(base: string, id: string, takenBy: Map<string, string>): string {
  for (const file of [`${base}.json`, `${base}-${id.slice(0, 8)}.json`, `${base}-${id}.json`]) {
    const owner = takenBy.get(file.toLowerCase());
    if (!owner || owner === id) return file;
  }
  return `${base}-${id}.json`;
}

/**
 * Writes the entities into the folder (merged with what it holds), then the manifest with the save order, and
 * records what each entity is on the server (base.ts). A folder pulled from another server is refused unless
 * `replace`: one bundle, one source. A file that cannot be written inside the folder (a link out, a name no file
 * system takes) is left out with a note saying why; nothing is written outside the folder.
 */
export async function writeBundle(
  dir: string,
  entities: Map<string, BundleEntity>,
  meta: WriteMeta,
  bytes: Map<string, Uint8Array>,
  replace = false,
): Promise<Manifest & { notes: WriteNote[] }> {
  // A folder this pull makes is removed again when the pull fails: no half bundle, no empty folder left behind.
  let made: string | undefined;
  for (let d = path.resolve(dir); !existsSync(d) && path.dirname(d) !== d; d = path.dirname(d)) made = d;
  return writeInto(dir, entities, meta, bytes, replace).catch(async (e) => {
    if (made) await rm(made, { recursive: true, force: true }).catch(() => undefined);
    throw e;
  });
}

async function writeInto(
  dir: string,
  entities: Map<string, BundleEntity>,
  meta: WriteMeta,
  bytes: Map<string, Uint8Array>,
  replace: boolean,
): Promise<Manifest & { notes: WriteNote[] }> {
  if (replace) await rm(dir, { recursive: true, force: true });
  const existing = existsSync(path.join(dir, 'manifest.json')) ? await readManifest(dir) : undefined;
  const manifest: Manifest = existing ?? { formatVersion: FORMAT_VERSION, source: meta.source, pulls: [], order: [], packages: [] };
  if (existing?.source.url && existing.source.url !== meta.source.url) {
    throw new Error(`${dir} was pulled from ${existing.source.url}; pull from ${meta.source.url} into another folder (or replace this bundle).`);
  }
  await mkdir(dir, { recursive: true });
  const manifestFile = await writeTarget(dir, 'manifest.json');
  if (!manifestFile.full) throw new Error(`Nothing was pulled into ${dir}: ${manifestFile.reason}.`);
  const notes: WriteNote[] = [];
  const note = (json: Json, type: string, file: string, reason: string) =>
    notes.push({ name: String(json.name ?? json.id), entityType: type, action: 'warn', reason: 'not_written', detail: `${file}: ${reason}` });
  const byId = new Map(manifest.order.map((e) => [e.id, e]));
  const takenBy = new Map([...byId.values()].map((e) => [e.file.toLowerCase(), e.id]));
  const ids: string[] = [];
  const hashes = new Map<string, string>();
  /** Files of renamed entities: removed at the end, unless another entry's file has that name (in any case). */
  const stale: string[] = [];
  for (const [id, { type, json }] of entities) {
    // Names are not unique across a bundle: whoever has the plain name keeps it, the others get their id.
    const file = freeName(`${type}/${fileNameFor(json)}`, id, takenBy);
    const target = await writeTarget(dir, file);
    if (!target.full) {
      note(json, type, file, target.reason ?? '');
      continue;
    }
    await writeFile(target.full, text(normalize(type, json)));
    const previous = byId.get(id);
    if (previous && previous.file !== file) {
      stale.push(previous.file);
      if (takenBy.get(previous.file.toLowerCase()) === id) takenBy.delete(previous.file.toLowerCase());
    }
    takenBy.set(file.toLowerCase(), id);
    byId.set(id, { type, id, file });
    ids.push(id);
    hashes.set(id, hashOf(type, json));
  }
  for (const [id, data] of bytes) {
    const entity = entities.get(id);
    if (!entity || !TYPES[entity.type]?.bytes || !hashes.has(id)) continue;
    const target = await writeTarget(dir, bytesFile(id));
    if (target.full) await writeFile(target.full, data);
    else note(entity.json, entity.type, bytesFile(id), target.reason ?? '');
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
  await writeFile(manifestFile.full, text(manifest));
  const kept = new Set(manifest.order.map((e) => e.file.toLowerCase()));
  for (const file of stale.filter((f) => !kept.has(f.toLowerCase()))) {
    const old = await writeTarget(dir, file, { create: false });
    if (old.full) await rm(old.full, { force: true });
  }
  const unrecorded = await recordBase(dir, meta.source.url, hashes, manifest.pulls.length);
  if (unrecorded) notes.push({ name: dir, entityType: 'Bundle', action: 'warn', reason: 'not_written', detail: unrecorded });
  return Object.assign(manifest, { notes });
}

/** Writes idmap.json inside the folder; the reason when it cannot be, else undefined. */
export async function writeIdmap(dir: string, idmap: Record<string, string>): Promise<string | undefined> {
  const target = await writeTarget(dir, 'idmap.json');
  if (!target.full) return `idmap.json was not written: ${target.reason}`;
  await writeFile(target.full, text(idmap));
  return undefined;
}

/** Replaces one entity's file with `json` (normalised) inside the folder; the reason when it cannot be, else undefined. */
export async function writeEntityFile(dir: string, file: string, type: string, json: Json): Promise<string | undefined> {
  const target = await writeTarget(dir, file);
  if (!target.full) return `${file} was not written: ${target.reason}`;
  await writeFile(target.full, text(normalize(type, json)));
  return undefined;
}

// The entity types a bundle carries, as grok's bundle format defines them (datagrok-tools ≥ 6.5.8, GROK_S.md
// "Bundle layout"): the internal route of each type, its rank in the save order (a foreign key is saved before
// what points at it), what its normalised form drops, what it depends on, and the file a row is written to.
import { createHash } from 'node:crypto';

export type Json = Record<string, unknown>;

export interface TypeSpec {
  /** Internal route, base /api. */
  route: string;
  /** Where a save goes when it is not `route` (groups: `/groups/`). */
  saveRoute?: string;
  /** Save order: lower first. */
  rank: number;
  /** Drops or compacts what does not travel (after the common normalisation). */
  strip?(json: Json): void;
  /** Entities this one needs on the target (by id). */
  deps?(json: Json): Array<{ type: string; id: string }>;
  /** Bytes that travel with the row (`tables/<id>.d42`). */
  bytes?: { get(id: string): string; put: { path: string; query(id: string): Record<string, string> } };
}

/** Credentials.PASSWORD_PLACEHOLDER and the "not changed" marker: a masked parameter as the server sends it. */
export const MASKED_VALUES = ['_____________', 'not—changed'];

const ref = (v: unknown): Json | undefined => (v && typeof v === 'object' ? (v as Json) : undefined);
const idOnly = (v: unknown): unknown => (ref(v)?.id ? { id: ref(v)?.id } : v);
const depOn = (type: string, v: unknown) => (typeof ref(v)?.id === 'string' ? [{ type, id: String(ref(v)?.id) }] : []);

/** A connection's credentials never reach the disk: masked parameters are listed by name in `_credentials`. */
export function stripCredentials(c: Json): void {
  delete c.credentials;
  const params = ref(c.parameters);
  if (!params) return;
  const masked = Object.keys(params).filter((k) => MASKED_VALUES.includes(params[k] as string));
  for (const k of masked) delete params[k];
  if (masked.length) c._credentials = masked;
}

/** Project relations as they travel: `{id, entity: {#type, id}, isLink}`, by entity id; the space's own files connection stays. */
function compactRelations(p: Json): void {
  if (!Array.isArray(p.relations)) return;
  p.relations = (p.relations as Json[])
    .filter((r) => ref(r?.entity)?.id && ref(ref(r.entity)?.parameters)?.isProject !== true)
    .map((r) => ({ id: r.id, entity: { '#type': 'EntityRecord', id: ref(r.entity)?.id }, isLink: r.isLink ?? false }))
    .sort((a, b) => String(a.entity.id).localeCompare(String(b.entity.id)));
}

export const TYPES: Record<string, TypeSpec> = {
  UserGroup: {
    route: '/groups',
    saveRoute: '/groups/',
    rank: 0,
    strip: (g) => {
      g.parents = [];
      g.children = [];
    },
  },
  DataConnection: { route: '/connectors/connections', rank: 1, strip: stripCredentials },
  Project: {
    route: '/projects',
    rank: 2,
    strip: (p) => {
      delete p.storage;
      compactRelations(p);
    },
  },
  DataQuery: {
    route: '/connectors/queries',
    rank: 3,
    strip: (q) => {
      q.connection = idOnly(q.connection);
    },
    deps: (q) => depOn('DataConnection', q.connection),
  },
  Script: { route: '/scripts', rank: 3 },
  TableInfo: {
    route: '/tables',
    rank: 4,
    bytes: { get: (id) => `/tables/${encodeURIComponent(id)}/data`, put: { path: '/tables/data', query: (id) => ({ id }) } },
    strip: (t) => {
      delete t.fileInfo;
      delete t.columns;
    },
  },
  ViewInfo: {
    route: '/views',
    rank: 5,
    strip: (v) => {
      v.table = idOnly(v.table);
    },
    deps: (v) => depOn('TableInfo', v.table),
  },
  ViewLayout: { route: '/layouts', rank: 5 },
};

/** The `types` a pull by search may name, as grok's `--type` spells them. */
export const TYPE_ALIASES: Record<string, string> = {
  conn: 'DataConnection',
  connection: 'DataConnection',
  query: 'DataQuery',
  script: 'Script',
  project: 'Project',
  dashboard: 'Project',
  view: 'ViewInfo',
  layout: 'ViewLayout',
  table: 'TableInfo',
  group: 'UserGroup',
};

/** A type name or alias → the entity type; an unknown one is refused, naming the known ones. */
export function resolveType(alias: string): string {
  const name = TYPE_ALIASES[alias.trim().toLowerCase()] ?? alias.trim();
  if (!TYPES[name]) throw new Error(`Entity type "${alias}" is not supported in a bundle. Supported: ${[...Object.keys(TYPE_ALIASES), ...Object.keys(TYPES)].join(', ')}.`);
  return name;
}

export const rankOf = (type: string): number => TYPES[type]?.rank ?? 99;

export const nqNameOf = (json: Json): string => `${(json?.namespace as string) ?? ''}${(json?.name as string) ?? (json?.id as string) ?? ''}`;

/** Seeded under these ids on every server: the target's own rows, never content. */
const BUILTIN_GROUPS = new Set(['a4b45840-9a50-11e6-9cc9-8546b8bf62e6', '1ab8b38d-9c4e-4b1e-81c3-ae2bde3e12c5']);

/** Why an entity never travels (the server's own), or null. */
export function untransferable(type: string, json: Json): { action: 'warn' | 'info'; reason: string } | null {
  if (json.package) return { action: 'warn', reason: 'package_entity' };
  if (type === 'Project' && (json.isEntity === true || json.isPackage === true)) return { action: 'info', reason: 'platform_project' };
  if (type === 'UserGroup') return BUILTIN_GROUPS.has(String(json.id)) ? { action: 'info', reason: 'platform_group' } : null;
  if (type !== 'DataConnection') return null;
  if (json.namespace === 'System:') return { action: 'info', reason: 'platform_connection' };
  if (ref(json.parameters)?.isProject === true) return { action: 'info', reason: 'space_files_connection' };
  if (json.name === 'Home') return { action: 'warn', reason: 'personal_storage' };
  return null;
}

const RESERVED = /^(NUL|CON|PRN|AUX|COM[1-9]|LPT[1-9])$/i;
/** A path component caps at 255 bytes on ext4 and NTFS; names are cut well below, with a digest. */
const MAX_FILE_NAME = 200;

/**
 * The bundle file of a row, without `.json`: `Chem:Chembl` → `Chem.Chembl` (`:/\?*"<>|` → `.`, no dots at the
 * ends); a Windows device name (`NUL`, `COM1`…) as the first part gets `-<id>`; a name longer than 200 bytes is
 * cut and gets a digest, so it stays unique and stable. Beyond grok: control characters become `.` too, and a name
 * with nothing left (`.`, `..`) is its id. Names are told apart without case when assigned (bundleFolder.ts).
 */
export function fileNameFor(json: Json): string {
  const name = typeof json?.name === 'string' ? json.name : '';
  if (!name) return String(json?.id ?? 'unnamed');
  const nq = json.namespace ? `${json.namespace}${name}` : typeof json.path === 'string' ? json.path : name;
  // grok's cleaning, and control characters (no file system takes NUL; Windows takes none of them).
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
  const cleaned = nq.replace(/[:/\\?*"<>|\u0000-\u001f]+/g, '.').replace(/^\.+|\.+$/g, '');
  // Nothing left (".", "..", only separators): the id, which is a UUID by then.
  if (!cleaned) return String(json?.id ?? 'unnamed');
  const head = cleaned.split('.')[0];
  const safe = RESERVED.test(head) ? `${head}-${json.id ?? 'entity'}${cleaned.slice(head.length)}` : cleaned;
  if (Buffer.byteLength(safe) <= MAX_FILE_NAME) return safe;
  const digest = createHash('sha1').update(safe).digest('hex').slice(0, 8);
  let cut = safe;
  while (Buffer.byteLength(cut) > MAX_FILE_NAME - 9) cut = cut.slice(0, -1);
  return `${cut}-${digest}`;
}
